import { describe, expect, it } from "vitest"
import { AddressNotReady, getOrCreateAddress } from "./deposit.ts"

describe("getOrCreateAddress", () => {
  it("retries with the spec's delays until the network's address arrives", async () => {
    const slept: number[] = []
    let calls = 0
    const address = await getOrCreateAddress(
      async () => {
        calls++
        return calls < 11
          ? { addresses: [{ address: "TXyz", network_code: "tron", wallet_to_replace: null }] }
          : { addresses: [{ address: "UQabc", network_code: "ton", wallet_to_replace: null }] }
      },
      "ton",
      async (ms) => void slept.push(ms),
    )
    expect(address).toEqual({ address: "UQabc", network_code: "ton", wallet_to_replace: null })
    expect(calls).toBe(11)
    // 0 ms for tries 1-3 (no wait), 200 ms for 4-6, 2000 ms for 7-9, then 4000 ms.
    expect(slept).toEqual([200, 200, 200, 2000, 2000, 2000, 4000, 4000])
  })

  it("answers at once when the first reply has the address", async () => {
    const slept: number[] = []
    const address = await getOrCreateAddress(
      async () => ({ addresses: [{ address: "0xabc", network_code: "ethereum", wallet_to_replace: "0xold" }] }),
      "ethereum",
      async (ms) => void slept.push(ms),
    )
    expect(address).toEqual({ address: "0xabc", network_code: "ethereum", wallet_to_replace: "0xold" })
    expect(slept).toEqual([])
  })

  it("gives up after the last try", async () => {
    let calls = 0
    await expect(
      getOrCreateAddress(
        async () => (calls++, { addresses: [] }),
        "ton",
        async () => undefined,
        5,
      ),
    ).rejects.toBeInstanceOf(AddressNotReady)
    expect(calls).toBe(5)
  })
})
