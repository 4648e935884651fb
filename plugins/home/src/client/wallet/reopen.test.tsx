import { cleanup, render } from "@testing-library/react"
import { Effect } from "effect"
import { afterEach, describe, expect, it } from "vitest"
import { dehydrate } from "@tanstack/react-query"
import { Http } from "@wallet/kernel"
import { KernelProvider, makeQueryClient, QUERY_CACHE_BUSTER, QUERY_CACHE_KEY_PREFIX, shouldPersistQuery, type Kernel } from "@wallet/kernel-react"
import { mainDataQuery, useMainData } from "./accounts.ts"

/**
 * Issue 17 (decision 0008): on a reopen wallet main shows the balances of the persisted cache in its
 * FIRST render, marked as refreshing until the fresh answer arrives; the cache is one Telegram user's.
 */
const accounts = (total: string) => ({
  assets: [],
  availableBalanceTotalFiatAmount: total,
  availableBalanceTotalUsdAmount: total,
  availableBalanceTotalFiatCurrency: "USD",
  promoFee: null,
  accessFlags: {},
  isCustodyAvailable: true,
  restrictionCode: null,
})

/** A kernel for user `userId` whose accounts answer comes when the test says (`answer`). */
const makeKernel = (userId: number) => {
  let resolve: (total: string) => void = () => undefined
  const pending = new Promise<string>((r) => (resolve = r))
  const http = {
    json: (_schema: unknown, url: string) =>
      url.includes("/frozen-balances") ? Effect.succeed({ items: [] }) : Effect.promise(() => pending.then((total) => accounts(total))),
  }
  const kernel = {
    user: () => ({ id: userId }),
    queryClient: makeQueryClient(),
    runtime: {
      runPromise: (effect: Effect.Effect<unknown, unknown, any>) => Effect.runPromise(effect.pipe(Effect.provideService(Http, http as never)) as never),
    },
  } as unknown as Kernel
  return { kernel, answer: (total: string) => resolve(total) }
}

/** What an earlier visit of user `userId` left in localStorage: wallet main's accounts, an hour old. */
const persistEarlierVisit = async (userId: number, total: string) => {
  const client = makeQueryClient()
  const kernel = {
    runtime: {
      runPromise: (effect: Effect.Effect<unknown, unknown, any>) =>
        Effect.runPromise(
          effect.pipe(
            Effect.provideService(Http, {
              json: (_schema: unknown, url: string) => Effect.succeed(url.includes("/frozen-balances") ? { items: [] } : accounts(total)),
            } as never),
          ) as never,
        ),
    },
  } as unknown as Kernel
  await client.fetchQuery(mainDataQuery(kernel, "USD"))
  const state = dehydrate(client, { shouldDehydrateQuery: shouldPersistQuery })
  const anHourAgo = Date.now() - 3_600_000
  const old = { ...state, queries: state.queries.map((q) => ({ ...q, state: { ...q.state, dataUpdatedAt: anHourAgo } })) }
  localStorage.setItem(`${QUERY_CACHE_KEY_PREFIX}${userId}`, JSON.stringify({ buster: QUERY_CACHE_BUSTER, timestamp: anHourAgo, clientState: old }))
}

/** Wallet main's hook; every render's text is recorded (the first one counts). */
const screenOf = (kernel: Kernel, renders: Array<string>) =>
  function Main() {
    const { entry, refreshing } = useMainData(kernel, "USD")
    const text = `${entry.data?.accounts.availableBalanceTotalFiatAmount ?? "loading"} ${refreshing ? "refreshing" : "fresh"}`
    renders.push(text)
    return <p>{text}</p>
  }

afterEach(() => {
  cleanup()
  localStorage.clear()
})

describe("issue 17: balances from the persisted cache at once on every reopen", () => {
  it("reopen_shows_cached_balance_first_render: the first render shows the cached total, marked refreshing, until the fresh answer", async () => {
    await persistEarlierVisit(42, "1234.56")
    const { kernel, answer } = makeKernel(42)
    const renders: Array<string> = []
    const Main = screenOf(kernel, renders)
    const view = render(
      <KernelProvider kernel={kernel}>
        <Main />
      </KernelProvider>,
    )
    // Restored before the first render (the library's provider restores after it: "loading" first).
    expect(renders[0]).toBe("1234.56 refreshing")
    // The refresh is under way behind the cached total.
    expect(kernel.queryClient!.getQueryCache().find({ queryKey: ["home", "main", "USD"] })!.state.fetchStatus).toBe("fetching")
    answer("2000.00")
    await view.findByText("2000.00 fresh")
    expect(renders).not.toContain("loading fresh")
  })

  it("reopen_other_user_sees_no_cached_balance: another Telegram user on the device never sees the first one's balances", async () => {
    await persistEarlierVisit(42, "1234.56")
    const { kernel, answer } = makeKernel(43)
    const renders: Array<string> = []
    const Main = screenOf(kernel, renders)
    const view = render(
      <KernelProvider kernel={kernel}>
        <Main />
      </KernelProvider>,
    )
    expect(renders[0]).toBe("loading fresh")
    // The first user's cache is gone from the device once the second one's is restored.
    expect(localStorage.getItem(`${QUERY_CACHE_KEY_PREFIX}42`)).toBeNull()
    answer("7.00")
    await view.findByText("7.00 fresh")
    expect(renders.some((text) => text.includes("1234.56"))).toBe(false)
  })
})
