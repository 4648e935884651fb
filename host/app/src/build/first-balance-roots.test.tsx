import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { Http } from "@wallet/kernel"
import { makeQueryClient, prefetchViewSettings, type Kernel } from "@wallet/kernel-react"
import { fetchMainData } from "../../../../plugins/home/src/client/wallet/accounts.ts"
import { FIRST_BALANCE_REQUESTS } from "./first-balance-roots.ts"

describe("FIRST_BALANCE_REQUESTS (decision 0010)", () => {
  it("are exactly the requests wallet main's start query makes, so the app adopts every one the HTML sent", async () => {
    const asked: Array<string> = []
    const http = {
      json: (_check: unknown, url: string) =>
        Effect.sync(() => {
          asked.push(url.replace(window.location.origin, ""))
          if (url.includes("/frozen-balances")) return { items: [] }
          if (url.includes("/view-settings")) return { status: "SUCCESS", data: { userFlags: {}, banners: {} } }
          return { assets: [], availableBalanceTotalFiatAmount: "0", availableBalanceTotalUsdAmount: "0", availableBalanceTotalFiatCurrency: "EUR" }
        }),
    }
    const kernel = {
      user: () => ({ id: 7 }),
      queryClient: makeQueryClient(),
      runtime: {
        runPromise: (effect: Effect.Effect<unknown, unknown, any>) => Effect.runPromise(effect.pipe(Effect.provideService(Http, http as never)) as never),
      },
    } as unknown as Kernel
    // (a DOM test: the requests are built from window.location.origin)
    await fetchMainData(kernel, "EUR").catch(() => undefined)
    await prefetchViewSettings(kernel, kernel.queryClient!)
    expect(asked.sort()).toEqual(FIRST_BALANCE_REQUESTS.map((path) => path.replace("{fiat}", "EUR")).sort())
  })
})
