import { cleanup, fireEvent, render, waitFor } from "@testing-library/react"
import { Suspense } from "react"
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest"
import { composePlugins, definePlugin, defineRegion } from "@wallet/kernel"
import { KernelProvider, type Kernel, type MainSlotHost } from "@wallet/kernel-react"
import type { AccountsData } from "@wallet/plugin-custody/api"
import { custodyPlugin } from "@wallet/plugin-custody/manifest"
import { homePlugin } from "../manifest.ts"
import { TopBarButtons } from "./TopBar.tsx"
import MainContent from "./wallet/MainContent.tsx"
import { loadAvailability } from "./wallet/slotModules.ts"

const screen = async () => ({ default: () => null })
const strings: Record<string, string> = {
  "promo:gift": "Gifts",
  "promo:news": "News",
  "promo:stake": "Stake",
  "off:hidden": "Hidden",
  "off:ghost": "Ghost",
  "custody:actions.scanQr": "Scan QR code",
  "custody:actions.receive": "Receive",
  "custody:actions.send": "Send",
}

// Issue 14: wallet main composes what plugins contribute instead of hard-coding custody's buttons.
describe("wallet main composes contributed slots (issue 14)", () => {
  const ran = vi.fn()
  const promo = definePlugin({
    id: "promo",
    version: "0.1.0",
    kernel: "^0.1.0",
    routes: [{ id: "stake", parent: "wallet", path: "/stake", component: screen }],
    i18n: { namespace: "promo", bundles: { en: async () => ({ default: {} }) } },
    main: {
      topBar: [
        { id: "news", labelKey: "news", icon: "globe", order: 50, to: "/stake", search: { from: "main" } },
        { id: "gift", labelKey: "gift", icon: "currency", order: 1, run: async () => ({ default: ran }) },
      ],
      actions: [{ id: "stake", labelKey: "stake", icon: "currency", order: 15, to: "/stake" }],
    },
  })
  const off = definePlugin({
    id: "off",
    version: "0.1.0",
    kernel: "^0.1.0",
    i18n: { namespace: "off", bundles: { en: async () => ({ default: {} }) } },
    main: {
      topBar: [{ id: "hidden", labelKey: "hidden", icon: "qr", order: 2, to: "/main" }],
      actions: [{ id: "ghost", labelKey: "ghost", icon: "send", order: 1, to: "/main" }],
    },
  })
  const installed = [custodyPlugin, homePlugin, promo, off]
  const composition = composePlugins({
    region: defineRegion({ id: "test", plugins: { custody: { enabled: true }, home: { enabled: true }, promo: { enabled: true }, off: { enabled: false } } }),
    installed,
  })
  const makeKernel = (isCustodyAvailable: boolean) =>
    ({
      composition,
      user: () => ({ isCustodyAvailable, permissions: {} }),
      i18n: { t: (key: string) => strings[key] ?? key, language: () => "en", subscribe: () => () => undefined },
      telegram: { popup: vi.fn(), haptic: () => undefined, scanQr: () => null },
    }) as unknown as Kernel
  const hostOf = (kernel: Kernel) =>
    ({ kernel, navigate: vi.fn(async () => undefined), go: vi.fn(), snackbar: { show: vi.fn() } }) as unknown as MainSlotHost & {
      navigate: ReturnType<typeof vi.fn>
    }

  afterEach(cleanup)
  // As MainScreen does on mount, in parallel with the accounts.
  beforeAll(async () => {
    for (const action of composition.main.actions) if (action.availability) await loadAvailability(action.availability)
  })

  it("renders every enabled plugin's top-bar buttons in order, none of a disabled plugin, and runs or opens them", async () => {
    const kernel = makeKernel(true)
    const host = hostOf(kernel)
    const view = render(
      <KernelProvider kernel={kernel}>
        <TopBarButtons host={host} />
      </KernelProvider>,
    )
    const labels = view.getAllByRole("button").map((b) => b.getAttribute("aria-label"))
    expect(labels).toEqual(["Gifts", "Scan QR code", "News"])
    fireEvent.click(view.getByRole("button", { name: "Gifts" }))
    await waitFor(() => expect(ran).toHaveBeenCalledWith(host))
    fireEvent.click(view.getByRole("button", { name: "News" }))
    await waitFor(() => expect(host.navigate).toHaveBeenCalledWith({ to: "/stake", search: { from: "main" } }))
  })

  it("leaves out the custody-only QR button for a user without custody", () => {
    const view = render(
      <KernelProvider kernel={makeKernel(false)}>
        <TopBarButtons host={hostOf(makeKernel(false))} />
      </KernelProvider>,
    )
    expect(view.getAllByRole("button").map((b) => b.getAttribute("aria-label"))).toEqual(["Gifts", "News"])
  })

  it("renders a fake plugin's action among custody's, and nothing of a disabled plugin", async () => {
    const kernel = makeKernel(true)
    const host = hostOf(kernel)
    // No assets: custody's actions are never available, but shown (and explained when pressed).
    const accounts = { assets: [], accessFlags: {} } as unknown as AccountsData
    const view = render(
      <KernelProvider kernel={kernel}>
        <Suspense fallback={null}>
          <MainContent data={{ accounts, frozen: [] }} stale={false} onRetry={() => undefined} expanded={false} onToggle={() => undefined} host={host} />
        </Suspense>
      </KernelProvider>,
    )
    const nav = await view.findByRole("navigation")
    expect([...nav.querySelectorAll("button")].map((b) => b.textContent)).toEqual(["Receive", "Stake", "Send"])
    expect(view.queryByText("Ghost")).toBeNull()
    expect(nav.querySelector("button")!.getAttribute("data-availability")).toBe("never")
    fireEvent.click(view.getByRole("button", { name: "Stake" }))
    await waitFor(() => expect(host.navigate).toHaveBeenCalledWith({ to: "/stake" }))
  })
})
