import { cleanup, render, waitFor } from "@testing-library/react"
import { Effect } from "effect"
import { afterEach, describe, expect, it } from "vitest"
import { Http } from "@wallet/kernel"
import { BALANCES_META, KernelProvider, makeQueryClient, noteBalances, QUERY_CACHE_BUSTER, QUERY_CACHE_KEY_PREFIX, type Kernel } from "@wallet/kernel-react"
import type { SessionEvent } from "@wallet/kernel"
import { useQuery } from "@tanstack/react-query"
import { homeKeys } from "../queryKeys.ts"
import { mainDataQuery, useMainData } from "./accounts.ts"

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
const makeKernel = (extra: Partial<Kernel> = {}, answer: () => unknown = () => accounts): Kernel => {
  const http = {
    json: (_schema: unknown, url: string) => Effect.sync(() => (url.includes("/frozen-balances") ? { items: [] } : answer())),
    headers: { authorization: `Bearer ${SESSION_TOKEN}` },
  }
  return {
    user: () => ({ id: 42 }),
    runtime: {
      runPromise: (effect: Effect.Effect<unknown, unknown, any>) =>
        Effect.runPromise(effect.pipe(Effect.provideService(Http, http as never)) as Effect.Effect<unknown>),
    },
    ...extra,
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
    localStorage.setItem(
      `${QUERY_CACHE_KEY_PREFIX}7`,
      JSON.stringify({ buster: QUERY_CACHE_BUSTER, timestamp: Date.now(), clientState: { queries: [], mutations: [] } }),
    )
    const view = render(
      <KernelProvider kernel={makeKernel()}>
        <Screen kernel={makeKernel()} />
      </KernelProvider>,
    )
    await view.findByText(/1234\.56/)
    await waitFor(() => expect(localStorage.getItem(`${QUERY_CACHE_KEY_PREFIX}7`)).toBeNull())
  })
})

describe("logout or a session expired for good", () => {
  it("clears the persisted query cache: the stored key is gone and is not written again", async () => {
    const listeners = new Set<(event: SessionEvent) => void>()
    const session = { onEvent: (listener: (event: SessionEvent) => void) => (listeners.add(listener), () => void listeners.delete(listener)) }
    const kernel = makeKernel({ session } as never)
    const view = render(
      <KernelProvider kernel={kernel}>
        <Screen kernel={kernel} />
      </KernelProvider>,
    )
    await view.findByText(/1234\.56/)
    const key = `${QUERY_CACHE_KEY_PREFIX}42`
    await waitFor(() => expect(localStorage.getItem(key)).toContain("1234.56"), { timeout: 5000 })
    expect(listeners.size).toBe(1)
    for (const listener of listeners) listener({ type: "expired", reason: "signed out" })
    expect(localStorage.getItem(key)).toBeNull()
    // The persister's throttled write (500 ms) after the clear must not bring a cache back.
    await new Promise((resolve) => setTimeout(resolve, 800))
    expect(localStorage.getItem(key)).toBeNull()
  })
})

describe("bug: a deposit reached the asset page but not wallet main (asset polling is off)", () => {
  const asset = (balance: string) => ({ currency: "TON", balance })
  const withTon = (balance: string) => ({ ...accounts, assets: [asset(balance)] })

  it("a custody screen that sees new balances makes wallet main's fresh query stale, without a request", async () => {
    const client = makeQueryClient()
    let requests = 0
    const kernel = makeKernel({ queryClient: client } as never, () => (requests++, withTon("1")))
    await client.fetchQuery(mainDataQuery(kernel, "USD"))
    const main = () => client.getQueryCache().find({ queryKey: homeKeys.main("USD") })!
    expect(main().isStale()).toBe(false)
    const custodyKey = ["custody", "accounts", "USD"]
    client.setQueryDefaults(custodyKey, { meta: BALANCES_META })
    // The asset page fetches the same balances: nothing moved, main stays fresh for its 60 s.
    noteBalances(client, custodyKey, [asset("1")])
    expect(main().isStale()).toBe(false)
    // A deposit credited: the asset page shows 3.5 TON; main is marked stale (refetched when shown).
    noteBalances(client, custodyKey, [asset("3.5")])
    expect(main().isStale()).toBe(true)
    expect(requests).toBe(1)
  })

  it("wallet main back on screen refetches and shows the deposit", async () => {
    const client = makeQueryClient()
    let balance = "1"
    // No user: no persisted cache whose restore would refetch anyway; only the note can make main stale.
    const kernel = makeKernel({ queryClient: client, user: () => undefined } as never, () => withTon(balance))
    function Balance() {
      const { entry } = useMainData(kernel, "USD")
      return <p>{entry.status === "ready" ? `TON ${entry.data.accounts.assets[0]?.balance}` : "loading"}</p>
    }
    const first = render(
      <KernelProvider kernel={kernel}>
        <Balance />
      </KernelProvider>,
    )
    await first.findByText("TON 1")
    first.unmount()
    balance = "3.5"
    noteBalances(client, ["custody", "accounts", "USD"], [asset("3.5")])
    const again = render(
      <KernelProvider kernel={kernel}>
        <Balance />
      </KernelProvider>,
    )
    await again.findByText("TON 3.5")
  })
})
