import { describe, expect, it } from "vitest"
import { splitMainList, type ListAsset } from "./mainList.ts"

const rules = { pinned: ["TON", "USDT"], pinnedWithoutBalance: ["BTC", "ETH", "XAUT"] }
const asset = (currency: string, usdCents: bigint, extra: Partial<ListAsset> = {}): ListAsset => ({
  currency,
  category: "onchain",
  balance: usdCents === 0n ? 0n : usdCents * 1000n,
  usdBalance: usdCents,
  ...extra,
})
const codes = (list: ReadonlyArray<ListAsset>) => list.map((a) => a.currency)

describe("splitMainList", () => {
  it("pins the default set first, even empty, and BTC, ETH, XAUT while the user holds none", () => {
    const list = splitMainList(
      [asset("BTC", 0n), asset("ETH", 0n), asset("XAUT", 0n), asset("USDT", 0n), asset("TON", 0n), asset("SOL", 0n), asset("NOT", 0n)],
      rules,
    )
    expect(codes(list.pinned)).toEqual(["TON", "USDT", "BTC", "ETH", "XAUT"])
    expect(codes(list.hidden)).toEqual(["SOL", "NOT"])
  })

  it("orders the other assets by USD value, highest first", () => {
    const list = splitMainList([asset("TON", 500n), asset("USDT", 100n), asset("NOT", 1_500n), asset("BTC", 90_000n), asset("SOL", 2_000n)], rules)
    expect(codes(list.pinned)).toEqual(["TON", "USDT", "BTC", "SOL", "NOT"])
  })

  it("hides assets worth under 1 USD, including BTC with a dust balance", () => {
    const list = splitMainList([asset("TON", 0n), asset("USDT", 0n), asset("BTC", 50n), asset("DOGS", 99n), asset("NOT", 100n)], rules)
    expect(codes(list.pinned)).toEqual(["TON", "USDT", "NOT"])
    expect(codes(list.hidden)).toEqual(["DOGS", "BTC"])
  })

  it("shows the one low-balance asset when exactly one would be hidden, in its place by value", () => {
    const list = splitMainList([asset("TON", 0n), asset("USDT", 0n), asset("NOT", 5_000n), asset("DOGS", 30n), asset("SOL", 200n)], rules)
    expect(codes(list.pinned)).toEqual(["TON", "USDT", "NOT", "SOL", "DOGS"])
    expect(list.hidden).toEqual([])
  })

  it("leaves stock and ETF assets out of both lists", () => {
    const list = splitMainList(
      [
        asset("TON", 0n),
        asset("USDT", 0n),
        asset("TSLAx", 50_000n, { category: "stock" }),
        asset("SPYx", 10n, { category: "etf" }),
        asset("NOT", 10n),
        asset("DOGS", 10n),
      ],
      rules,
    )
    expect(codes(list.pinned)).toEqual(["TON", "USDT"])
    expect(codes(list.hidden)).toEqual(["NOT", "DOGS"])
  })

  it("keeps an asset the server marks always-on-main pinned, after the default set", () => {
    const list = splitMainList([asset("NOT", 0n, { isAlwaysOnMain: true }), asset("TON", 0n), asset("USDT", 0n), asset("SOL", 0n), asset("DOGS", 0n)], rules)
    expect(codes(list.pinned)).toEqual(["TON", "USDT", "NOT"])
    expect(codes(list.hidden)).toEqual(["SOL", "DOGS"])
  })
})
