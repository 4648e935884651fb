import { cleanup, fireEvent, render, waitFor } from "@testing-library/react"
import { Suspense } from "react"
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest"
import { composePlugins, defineRegion, definePlugin, hrefOf, type PluginManifest } from "@wallet/kernel"
import { KernelProvider, type Kernel, type MainSlotHost } from "@wallet/kernel-react"
import type { AccountsData, Asset, FrozenBalance } from "@wallet/plugin-custody/api"
import { custodyPlugin } from "@wallet/plugin-custody/manifest"
import { assetRoute, publicAssetRoute } from "@wallet/plugin-custody/routes"
import homeEn from "../../i18n/en.json" with { type: "json" }
import { homePlugin } from "../../manifest.ts"
import MainContent from "./MainContent.tsx"
import { loadAvailability } from "./slotModules.ts"

// Custody's strings through its public manifest entry (its bundles), not a path into its sources.
const bundles: Record<string, unknown> = { home: homeEn, custody: (await custodyPlugin.i18n!.bundles.en()).default }
const lookup = (full: string, options?: Record<string, unknown>) => {
  const [ns = "", key = ""] = full.split(":")
  const found = key.split(".").reduce<any>((node, part) => node?.[part], bundles[ns])
  return typeof found === "string" ? found.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(options?.[name] ?? "")) : key
}

const screen = async () => ({ default: () => null })
/** A plugin serving the exchange screen: custody's Exchange button shows only where a route serves it. */
const exchangePlugin = definePlugin({
  id: "exchange",
  version: "0.1.0",
  kernel: "^0.1.0",
  routes: [{ id: "index", parent: "wallet", path: "/exchange", component: screen }],
})

/** Wallet main's actions as composed from the real custody and home manifests (plus `extra` plugins). */
const makeKernel = (extra: ReadonlyArray<PluginManifest> = []) => {
  const popup = vi.fn(async (params: { title?: string; message: string }) => (params.message ? "ok" : ""))
  const installed = [custodyPlugin, homePlugin, ...extra]
  const composition = composePlugins({
    region: defineRegion({ id: "test", plugins: Object.fromEntries(installed.map((p) => [p.id, { enabled: true }])) }),
    installed,
  })
  const kernel = {
    composition,
    user: () => ({ isCustodyAvailable: true, permissions: {} }),
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

const hostOf = (kernel: Kernel, navigate = vi.fn(async () => undefined), go = vi.fn(async () => undefined)): MainSlotHost => ({
  kernel,
  navigate,
  go,
  snackbar: { show: vi.fn() } as never,
})

const show = (
  kernel: Kernel,
  data: AccountsData,
  frozen: ReadonlyArray<FrozenBalance> = [],
  expanded = false,
  go = vi.fn(async () => undefined),
  navigate = vi.fn(async () => undefined),
) =>
  render(
    <KernelProvider kernel={kernel}>
      <Suspense fallback={<p>loading</p>}>
        <MainContent
          data={{ accounts: data, frozen }}
          stale={false}
          onRetry={() => undefined}
          expanded={expanded}
          onToggle={() => undefined}
          host={hostOf(kernel, navigate, go)}
        />
      </Suspense>
    </KernelProvider>,
  )

afterEach(cleanup)
// As MainScreen does when it mounts: start loading the actions' availability modules before the data is there.
beforeAll(async () => {
  for (const entry of custodyPlugin.main?.actions ?? []) if (entry.availability) await loadAvailability(entry.availability)
})

describe("wallet main content", () => {
  it("hides the USDT rate line in USD, shows the 'new' badge only for a new currency without balance", async () => {
    const { kernel } = makeKernel()
    const view = show(
      kernel,
      accounts([
        asset("TON", "1.5", "3.75"),
        asset("USDT", "10", "10.00"),
        asset("NOT", "0", "0.00", { isNewCurrency: true }),
        asset("DOGS", "5", "2.00", { isNewCurrency: true }),
      ]),
    )
    await waitFor(() => expect(view.container.querySelector("[data-asset]")).not.toBeNull())
    const row = (code: string) => view.container.querySelector(`[data-asset="${code}"]`)!.textContent!
    expect(row("TON")).toContain("+1.25%")
    expect(row("USDT")).not.toContain("%")
    expect(row("NOT")).toContain("new")
    expect(row("DOGS")).not.toContain("new")
  })

  it("shows low balances only when expanded, behind 'More crypto'", async () => {
    const { kernel } = makeKernel()
    const data = accounts([asset("TON", "0", "0.00"), asset("USDT", "0", "0.00"), asset("NOT", "1", "0.10"), asset("DOGS", "1", "0.20")])
    const collapsed = show(kernel, data)
    await waitFor(() => expect(collapsed.container.querySelectorAll("[data-asset]")).toHaveLength(2))
    expect(collapsed.getByRole("button", { name: "More crypto" }).getAttribute("aria-expanded")).toBe("false")
    cleanup()
    const open = show(kernel, data, [], true)
    await waitFor(() => expect(open.container.querySelectorAll("[data-asset]")).toHaveLength(4))
    expect(open.getByRole("button", { name: "Hide low balance" })).toBeTruthy()
  })

  it("issue 14: an asset row opens custody's asset screen by its typed reference, one without balance the public page", async () => {
    const { kernel } = makeKernel()
    const go = vi.fn(async () => undefined)
    const view = show(kernel, accounts([asset("TON", "1.5", "3.75"), asset("USDT", "0", "0.00")]), [], false, go)
    await waitFor(() => expect(view.container.querySelector('[data-asset="TON"]')).not.toBeNull())
    fireEvent.click(view.container.querySelector('[data-asset="TON"]')!)
    expect(go).toHaveBeenLastCalledWith(assetRoute, { params: { assetCurrency: "TON" } })
    fireEvent.click(view.container.querySelector('[data-asset="USDT"]')!)
    expect(go).toHaveBeenLastCalledWith(publicAssetRoute, { params: { assetCurrency: "USDT" } })
    expect(hrefOf(assetRoute, { params: { assetCurrency: "TON" } })).toBe("/assets/TON")
  })

  it("explains a frozen balance by its reason", async () => {
    const { kernel, popup } = makeKernel()
    const frozen: FrozenBalance = { reason: "FR_3", currency: "USDT", amount: "50", fiat_amount: "50.00", fiatCurrency: "USD" }
    const view = show(kernel, accounts([asset("TON", "0", "0.00"), asset("USDT", "0", "0.00")]), [frozen])
    await waitFor(() => expect(view.container.querySelector('[data-frozen="FR_3"]')).not.toBeNull())
    fireEvent.click(view.container.querySelector('[data-frozen="FR_3"]')!)
    await waitFor(() => expect(popup).toHaveBeenCalled())
    expect(popup.mock.calls[0]![0]).toMatchObject({ title: "Frozen on request" })
  })

  it("runs custody's contributed actions: an available one opens its path, a scheduled or restricted one is explained", async () => {
    const { kernel, popup } = makeKernel([exchangePlugin])
    const navigate = vi.fn(async () => undefined)
    const future = "2099-01-02T10:30:00Z"
    const data = accounts(
      [
        asset("TON", "1", "2.50", {
          actions: { send: action(false, future), receive: action(true), exchange: action(true), buy: action(false), sell: action(false) },
        }),
      ],
      { accessToExchanges: false },
    )
    const view = show(kernel, data, [], false, vi.fn(), navigate)
    fireEvent.click(await view.findByRole("button", { name: "Receive" }))
    await waitFor(() => expect(navigate).toHaveBeenCalledWith({ to: "/choose-asset/receive" }))
    expect(view.getAllByRole("button", { name: /Receive|Send|Exchange/ }).map((b) => b.textContent)).toEqual(["Receive", "Send", "Exchange"])
    fireEvent.click(view.getByRole("button", { name: "Send" }))
    await waitFor(() => expect(popup).toHaveBeenCalledTimes(1))
    expect(popup.mock.calls[0]![0].message).toMatch(/^Send will be available on .*2099/)
    fireEvent.click(view.getByRole("button", { name: "Exchange" }))
    await waitFor(() => expect(popup).toHaveBeenCalledTimes(2))
    expect(popup.mock.calls[1]![0]).toMatchObject({ title: "Functionality unavailable" })
    expect(navigate).toHaveBeenCalledTimes(1)
    // No buy route in this build: no Buy button.
    expect(view.queryByRole("button", { name: "Buy" })).toBeNull()
  })

  it("shows no Exchange button where no plugin serves /exchange, and offers a deposit for buy when never available", async () => {
    const purchase = definePlugin({
      id: "purchase",
      version: "0.1.0",
      kernel: "^0.1.0",
      routes: [{ id: "options", parent: "wallet", path: "/purchase-options", component: screen }],
    })
    const { kernel, popup } = makeKernel([purchase])
    const navigate = vi.fn(async () => undefined)
    const view = show(kernel, accounts([asset("TON", "1", "2.50")]), [], false, vi.fn(), navigate)
    fireEvent.click(await view.findByRole("button", { name: "Buy" }))
    expect(view.queryByRole("button", { name: "Exchange" })).toBeNull()
    await waitFor(() => expect(popup).toHaveBeenCalledTimes(1))
    expect(popup.mock.calls[0]![0].message).toMatch(/deposit crypto from another wallet/)
    await waitFor(() => expect(navigate).toHaveBeenCalledWith({ to: "/choose-asset/receive" }))
  })
})
