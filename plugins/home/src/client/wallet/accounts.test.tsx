import { cleanup, render, waitFor } from "@testing-library/react"
import { Effect } from "effect"
import { afterEach, describe, expect, it } from "vitest"
import { Http } from "@wallet/kernel"
import { KernelProvider, QUERY_CACHE_BUSTER, QUERY_CACHE_KEY_PREFIX, type Kernel } from "@wallet/kernel-react"
import { useQuery } from "@tanstack/react-query"
import { useMainData } from "./accounts.ts"

const SESSION_TOKEN = "sess-9f8e7d6c5b4a-secret"
const WORDS = "abandon ability able about above absent absorb abstract absurd abuse access accident"
const DEVICE_KEY = "devkey-0123456789abcdef"

const accounts = {
  assets: [],
  availableBalanceTotalFiatAmount: "1234.56",
  availableBalanceTotalUsdAmount: "1234.56",
  availableBalanceTotalFiatCurrency: "USD",
  promoFee: null,
  accessFlags: {},
  isCustodyAvailable: true,
  restrictionCode: null,
}

/** A kernel whose Http answers the custody reads (a session token rides in the headers, never in data). */
const makeKernel = (): Kernel => {
  const http = {
    json: (_schema: unknown, url: string) => Effect.succeed(url.includes("/frozen-balances") ? { items: [] } : accounts),
    headers: { authorization: `Bearer ${SESSION_TOKEN}` },
  }
  return {
    user: () => ({ id: 42 }),
    runtime: { runPromise: (effect: Effect.Effect<unknown, unknown, any>) => Effect.runPromise(effect.pipe(Effect.provideService(Http, http as never)) as Effect.Effect<unknown>) },
  } as unknown as Kernel
}

/** Wallet main's real hook, and queries that hold secrets without opting in to persistence. */
function Screen({ kernel }: { readonly kernel: Kernel }) {
  const main = useMainData(kernel, "USD")
  const words = useQuery({ queryKey: ["test", "secrets"], queryFn: async () => ({ words: WORDS, deviceKey: DEVICE_KEY, token: SESSION_TOKEN }) })
  return (
    <p>
      {main.entry.status === "ready" ? main.entry.data.accounts.availableBalanceTotalFiatAmount : "loading"} {words.data ? "words" : ""}
    </p>
  )
}

afterEach(() => {
  cleanup()
  localStorage.clear()
})

describe("the persisted query cache", () => {
  it("holds wallet main's balances under the buster 5.0.10 and never a secret", async () => {
    const view = render(
      <KernelProvider kernel={makeKernel()}>
        <Screen kernel={makeKernel()} />
      </KernelProvider>,
    )
    await view.findByText(/1234\.56 words/)
    // The persister writes after a short throttle.
    await waitFor(() => expect(localStorage.getItem(`${QUERY_CACHE_KEY_PREFIX}42`)).toContain("1234.56"), { timeout: 5000 })
    const stored = localStorage.getItem(`${QUERY_CACHE_KEY_PREFIX}42`)!
    expect(JSON.parse(stored).buster).toBe(QUERY_CACHE_BUSTER)
    for (const secret of [SESSION_TOKEN, WORDS, DEVICE_KEY, "abandon"]) expect(stored).not.toContain(secret)
    expect(stored).not.toContain('"words"')
  })

  it("removes another user's persisted cache once this user's cache is restored", async () => {
    localStorage.setItem(`${QUERY_CACHE_KEY_PREFIX}7`, JSON.stringify({ buster: QUERY_CACHE_BUSTER, timestamp: Date.now(), clientState: { queries: [], mutations: [] } }))
    const view = render(
      <KernelProvider kernel={makeKernel()}>
        <Screen kernel={makeKernel()} />
      </KernelProvider>,
    )
    await view.findByText(/1234\.56/)
    await waitFor(() => expect(localStorage.getItem(`${QUERY_CACHE_KEY_PREFIX}7`)).toBeNull())
  })
})
