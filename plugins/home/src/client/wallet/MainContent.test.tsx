import { cleanup, fireEvent, render, waitFor } from "@testing-library/react"
import { afterEach, describe, expect, it, vi } from "vitest"
import { KernelProvider, type Kernel } from "@wallet/kernel-react"
import type { AccountsData, Asset, FrozenBalance } from "@wallet/plugin-custody/api"
import { custodyPlugin } from "@wallet/plugin-custody/manifest"
import homeEn from "../../i18n/en.json" with { type: "json" }
import MainContent from "./MainContent.tsx"

// Custody's strings through its public manifest entry (its bundles), not a path into its sources.
const bundles: Record<string, unknown> = { home: homeEn, custody: (await custodyPlugin.i18n!.bundles.en()).default }
const lookup = (full: string, options?: Record<string, unknown>) => {
  const [ns = "", key = ""] = full.split(":")
  const found = key.split(".").reduce<any>((node, part) => node?.[part], bundles[ns])
  return typeof found === "string" ? found.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(options?.[name] ?? "")) : key
}

const makeKernel = (paths: ReadonlyArray<string>) => {
  const popup = vi.fn(async (params: { title?: string; message: string }) => (params.message ? "ok" : ""))
  const kernel = {
    composition: { routes: paths.map((fullPath) => ({ fullPath })) },
    i18n: { t: lookup, language: () => "en", subscribe: () => () => undefined },
    telegram: { popup, haptic: () => undefined },
  } as unknown as Kernel
  return { kernel, popup }
}

const action = (isEnabled: boolean, scheduledAt: string | null = null) => ({ isEnabled, isPopular: false, scheduledAt })
const asset = (currency: string, balance: string, usd: string, extra: Partial<Asset> = {}): Asset => ({
  currency,
  name: currency === "TON" ? "Toncoin" : currency === "USDT" ? "Dollars" : currency,
  decimals: currency === "USDT" ? 6 : 9,
  category: "onchain",
  balance,
  rate: "2.5",
  absoluteChange: "0.01",
  percentChange: 1.25,
  usdBalance: usd,
  fiatBalance: usd,
  fiatCurrency: "USD",
  isCreated: true,
  isAlwaysOnMain: currency === "TON" || currency === "USDT",
  isPinnedWithoutBalance: false,
  isNewCurrency: false,
  networks: ["ton"],
  addresses: [],
  actions: { send: action(true), receive: action(true), exchange: action(false), buy: action(false), sell: action(false) },
  marketCap: null,
  description: null,
  ...extra,
})
const flags = {
  accessToWithdraws: true,
  accessToExchanges: true,
  accessToExchangesByCountry: true,
  accessToRewardPayments: true,
  accessToUnstake: true,
  accessToP2p: true,
  accessToCreateAddress: true,
  accessToSetUserCurrency: true,
  accessToSavingSettings: true,
  accessToTransactionList: true,
  accessToAssetCharts: true,
  accessToTradeStocksAndEtfs: true,
  accessToTradeStocksAndEtfsByCountry: true,
}
const accounts = (assets: ReadonlyArray<Asset>, accessFlags: Partial<typeof flags> = {}): AccountsData => ({
  assets,
  availableBalanceTotalFiatAmount: "0.00",
  availableBalanceTotalUsdAmount: "0.00",
  availableBalanceTotalFiatCurrency: "USD",
  promoFee: null,
  accessFlags: { ...flags, ...accessFlags },
  isCustodyAvailable: true,
  restrictionCode: null,
})

const show = (kernel: Kernel, data: AccountsData, frozen: ReadonlyArray<FrozenBalance> = [], expanded = false, go = vi.fn()) =>
  render(
    <KernelProvider kernel={kernel}>
      <MainContent data={{ accounts: data, frozen }} stale={false} onRetry={() => undefined} expanded={expanded} onToggle={() => undefined} go={go} />
    </KernelProvider>,
  )

afterEach(cleanup)

describe("wallet main content", () => {
  it("hides the USDT rate line in USD, shows the 'new' badge only for a new currency without balance", () => {
    const { kernel } = makeKernel(["/choose-asset/$type"])
    const view = show(kernel, accounts([asset("TON", "1.5", "3.75"), asset("USDT", "10", "10.00"), asset("NOT", "0", "0.00", { isNewCurrency: true }), asset("DOGS", "5", "2.00", { isNewCurrency: true })]))
    const row = (code: string) => view.container.querySelector(`[data-asset="${code}"]`)!.textContent!
    expect(row("TON")).toContain("+1.25%")
    expect(row("USDT")).not.toContain("%")
    expect(row("NOT")).toContain("new")
    expect(row("DOGS")).not.toContain("new")
  })

  it("shows low balances only when expanded, behind 'More crypto'", () => {
    const { kernel } = makeKernel([])
    const data = accounts([asset("TON", "0", "0.00"), asset("USDT", "0", "0.00"), asset("NOT", "1", "0.10"), asset("DOGS", "1", "0.20")])
    const collapsed = show(kernel, data)
    expect(collapsed.container.querySelectorAll("[data-asset]")).toHaveLength(2)
    expect(collapsed.getByRole("button", { name: "More crypto" }).getAttribute("aria-expanded")).toBe("false")
    cleanup()
    const open = show(kernel, data, [], true)
    expect(open.container.querySelectorAll("[data-asset]")).toHaveLength(4)
    expect(open.getByRole("button", { name: "Hide low balance" })).toBeTruthy()
  })

  it("explains a frozen balance by its reason", async () => {
    const { kernel, popup } = makeKernel([])
    const frozen: FrozenBalance = { reason: "FR_3", currency: "USDT", amount: "50", fiat_amount: "50.00", fiatCurrency: "USD" }
    const view = show(kernel, accounts([asset("TON", "0", "0.00"), asset("USDT", "0", "0.00")]), [frozen])
    fireEvent.click(view.container.querySelector('[data-frozen="FR_3"]')!)
    await waitFor(() => expect(popup).toHaveBeenCalled())
    expect(popup.mock.calls[0]![0]).toMatchObject({ title: "Frozen on request" })
  })

  it("runs an available action and explains a scheduled or restricted one", async () => {
    const { kernel, popup } = makeKernel(["/choose-asset/$type", "/send-options", "/exchange"])
    const go = vi.fn()
    const future = "2099-01-02T10:30:00Z"
    const data = accounts(
      [asset("TON", "1", "2.50", { actions: { send: action(false, future), receive: action(true), exchange: action(true), buy: action(false), sell: action(false) } })],
      { accessToExchanges: false },
    )
    const view = show(kernel, data, [], false, go)
    fireEvent.click(view.getByRole("button", { name: "Receive" }))
    expect(go).toHaveBeenCalledWith("/choose-asset/receive")
    fireEvent.click(view.getByRole("button", { name: "Send" }))
    await waitFor(() => expect(popup).toHaveBeenCalledTimes(1))
    expect(popup.mock.calls[0]![0].message).toMatch(/^Send will be available on .*2099/)
    fireEvent.click(view.getByRole("button", { name: "Exchange" }))
    await waitFor(() => expect(popup).toHaveBeenCalledTimes(2))
    expect(popup.mock.calls[1]![0]).toMatchObject({ title: "Functionality unavailable" })
    expect(go).toHaveBeenCalledTimes(1)
    // No buy route in this build: no Buy button.
    expect(view.queryByRole("button", { name: "Buy" })).toBeNull()
  })
})
