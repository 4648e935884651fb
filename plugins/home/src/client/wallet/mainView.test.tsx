import { cleanup, render } from "@testing-library/react"
import { Effect } from "effect"
import { afterEach, describe, expect, it } from "vitest"
import { Http, HttpError } from "@wallet/kernel"
import { KernelProvider, makeQueryClient, type Kernel } from "@wallet/kernel-react"
import { mainDataQuery, mainView, useMainData } from "./accounts.ts"

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

/** The accounts answer what `answer` says: data, or an HttpError the way the Http policy fails. */
const makeKernel = (client: ReturnType<typeof makeQueryClient>, answer: () => unknown): Kernel => {
  const http = {
    json: (_schema: unknown, url: string) =>
      Effect.suspend(() => {
        if (url.includes("/frozen-balances")) return Effect.succeed({ items: [] })
        const result = answer()
        return result instanceof HttpError ? Effect.fail(result) : Effect.succeed(result)
      }),
  }
  return {
    user: () => undefined,
    queryClient: client,
    runtime: {
      runPromise: (effect: Effect.Effect<unknown, unknown, any>) => Effect.runPromise(effect.pipe(Effect.provideService(Http, http as never)) as never),
    },
  } as unknown as Kernel
}

const http = (status: number | undefined, body?: unknown, code: HttpError["code"] = "UNKNOWN") => new HttpError({ code, message: "x", status, body })

function View({ kernel }: { readonly kernel: Kernel }) {
  const { entry } = useMainData(kernel, "USD")
  return <p>{`${mainView(entry)} ${entry.data?.accounts.availableBalanceTotalFiatAmount ?? "-"}`}</p>
}

afterEach(() => cleanup())

/** Decision 0380: spec 1 §2 "Error screen" variants on wallet main. */
describe("wallet main's high-demand and technical-issue variants", () => {
  it("wallet_guard_failure_shows_high_demand: a 503 with nothing cached shows the high-demand message", async () => {
    const client = makeQueryClient()
    const kernel = makeKernel(client, () => http(503))
    const view = render(
      <KernelProvider kernel={kernel}>
        <View kernel={kernel} />
      </KernelProvider>,
    )
    await view.findByText("high-demand -")
  })

  it("a 403 online_user_limit_exceeded and a timeout are guard failures too; offline is an ordinary error", async () => {
    for (const [error, expected] of [
      [http(403, { code: "online_user_limit_exceeded" }), "high-demand -"],
      [new HttpError({ code: "ECONNABORTED", message: "Request timed out", timedOut: true }), "high-demand -"],
      [http(undefined, undefined, "ERR_NETWORK"), "error -"],
    ] as const) {
      const client = makeQueryClient()
      const kernel = makeKernel(client, () => error)
      const view = render(
        <KernelProvider kernel={kernel}>
          <View kernel={kernel} />
        </KernelProvider>,
      )
      await view.findByText(expected)
      view.unmount()
    }
  })

  it("technical_issue_shows_last_balance: a 503 with a cached balance keeps it (as of your last login)", async () => {
    const client = makeQueryClient()
    let fail = false
    const kernel = makeKernel(client, () => (fail ? http(503) : accounts))
    // The balance of an earlier start, as the persisted cache restores it; then stale.
    await client.fetchQuery(mainDataQuery(kernel, "USD"))
    await client.invalidateQueries()
    fail = true
    const view = render(
      <KernelProvider kernel={kernel}>
        <View kernel={kernel} />
      </KernelProvider>,
    )
    await view.findByText("technical-issue 1234.56")
    fail = false
  })

  it("an ordinary refetch failure with data keeps the stale banner", () => {
    const data = { accounts: accounts as never, frozen: [] }
    expect(mainView({ status: "error", data, guardFailure: false })).toBe("stale")
    expect(mainView({ status: "error", guardFailure: false })).toBe("error")
    expect(mainView({ status: "ready", data })).toBe("ready")
    expect(mainView({ status: "loading" })).toBe("loading")
  })
})
