import { ManagedRuntime, Layer, Effect } from "effect"
import { describe, expect, it, vi } from "vitest"
import { goWith, type Kernel } from "@wallet/kernel-react"
import type { SnackbarApi, SnackbarOptions } from "@wallet/kernel-react/ui"
import { sendDeepLinks } from "../../routes/send.ts"
import { routeQr, scanAndRoute, TELEGRAM_UPDATE_URL } from "./scan.ts"
import { parseQr } from "./qr.ts"

const TON = "EQDtFpEwcFAEcRe5mLVh2N6C0x-_hJEM7W61_JLnSF74p4q2"

interface Fake {
  kernel: Kernel
  navigations: Array<{ to: string; search?: Record<string, unknown> }>
  toasts: SnackbarOptions[]
  snackbar: SnackbarApi
  popups: Array<{ message: string }>
  opened: string[]
  scan: (text: string | null) => void
}

function fake(options: { scanner?: boolean; popupAnswer?: string } = {}): Fake {
  const navigations: Fake["navigations"] = []
  const toasts: SnackbarOptions[] = []
  const popups: Array<{ message: string }> = []
  const opened: string[] = []
  let resolveScan: (text: string | null) => void = () => {}
  const kernel = {
    runtime: ManagedRuntime.make(Layer.empty),
    composition: { deepLinks: sendDeepLinks.map((link) => ({ ...link, pluginId: "custody" })) },
    i18n: {
      t: (key: string, values?: Record<string, unknown>) => (values ? `${key}:${JSON.stringify(values)}` : key),
      loadNamespace: () => Effect.void,
    },
    telegram: {
      haptic: vi.fn(),
      popup: async (params: { message: string }) => {
        popups.push(params)
        return options.popupAnswer ?? ""
      },
      scanQr:
        options.scanner === false
          ? () => null
          : (params: { onText: (text: string) => boolean }) =>
              new Promise<string | null>((resolve) => (resolveScan = (text) => resolve(text !== null && params.onText(text) ? text : null))),
      openLink: (url: string) => opened.push(url),
    },
  } as unknown as Kernel
  const snackbar: SnackbarApi = {
    show: (o) => {
      toasts.push(o)
      return o.id ?? "x"
    },
    dismiss: () => {},
    dismissAll: () => {},
    dismissOnNavigation: () => {},
  }
  return { kernel, navigations, toasts, snackbar, popups, opened, scan: (text) => resolveScan(text) }
}

/** The scanner takes a `Go`; what reaches the router is recorded as the plain target it is. */
const navigateInto = (f: Fake) => goWith(async (o) => void f.navigations.push(o as unknown as Fake["navigations"][number]))

describe("routeQr", () => {
  it("an address with an amount opens the send form prefilled", async () => {
    const f = fake()
    await routeQr(f.kernel, navigateInto(f), parseQr(`ton://transfer/${TON}?amount=1500000000&text=hi`), { snackbar: f.snackbar, isEmpty: async () => false })
    expect(f.navigations).toEqual([
      { to: "/assets/send", search: { assetCurrency: "TON", assetNetwork: "ton", address: TON, qr: true, value: "1.5", comment: "hi" } },
    ])
    expect(f.toasts).toEqual([])
  })

  it("an unsupported text shows the qr error toast and goes nowhere", async () => {
    const f = fake()
    await routeQr(f.kernel, navigateInto(f), parseQr("just some words"), { snackbar: f.snackbar, isEmpty: async () => false })
    expect(f.navigations).toEqual([])
    expect(f.toasts.map((t) => t.text)).toEqual(["custody:send.qr.error.default"])
  })

  it("an unsupported currency has its own text", async () => {
    const f = fake()
    await routeQr(f.kernel, navigateInto(f), parseQr(`ton://transfer/${TON}?jetton=${TON}`), { snackbar: f.snackbar })
    expect(f.toasts.map((t) => t.text)).toEqual(["custody:send.qr.error.unsupported_currency"])
  })

  it("without a snackbar the error falls back to a popup", async () => {
    const f = fake()
    await routeQr(f.kernel, navigateInto(f), parseQr("nope"))
    expect(f.popups.map((p) => p.message)).toEqual(["custody:send.qr.error.default"])
  })

  it("an empty balance offers a deposit; accepting opens /receive for the currency", async () => {
    const f = fake({ popupAnswer: "deposit" })
    await routeQr(f.kernel, navigateInto(f), parseQr(TON), { snackbar: f.snackbar, isEmpty: async () => true })
    expect(f.popups).toHaveLength(1)
    expect(f.navigations).toEqual([{ to: "/receive", search: { assetCurrency: "TON", assetNetwork: "ton", source: "send" } }])
  })

  it("an empty balance offer that is dismissed goes nowhere", async () => {
    const f = fake({ popupAnswer: "cancel" })
    await routeQr(f.kernel, navigateInto(f), parseQr(TON), { isEmpty: async () => true })
    expect(f.navigations).toEqual([])
  })

  it("a wallet deep link opens the screen of its start param", async () => {
    const f = fake()
    await routeQr(f.kernel, navigateInto(f), parseQr("https://t.me/wallet?startapp=tonwallet_tg_transfer_42"), { snackbar: f.snackbar })
    expect(f.navigations).toEqual([{ to: "/transfers/42", search: {} }])
  })

  it("a wallet link nobody claims is the default error", async () => {
    const f = fake()
    await routeQr(f.kernel, navigateInto(f), parseQr("https://t.me/wallet?startapp=nothing_here"), { snackbar: f.snackbar })
    expect(f.navigations).toEqual([])
    expect(f.toasts.map((t) => t.text)).toEqual(["custody:send.qr.error.default"])
  })
})

describe("scanAndRoute", () => {
  it("an old client without the scanner gets the toast with an Update action", async () => {
    const f = fake({ scanner: false })
    await scanAndRoute(f.kernel, navigateInto(f), f.snackbar)
    expect(f.toasts).toHaveLength(1)
    expect(f.toasts[0]!.text).toBe("custody:send.qr.oldClient")
    f.toasts[0]!.action!.onClick()
    expect(f.opened).toEqual([TELEGRAM_UPDATE_URL])
  })

  it("routes the scanned text", async () => {
    const f = fake()
    const done = scanAndRoute(f.kernel, navigateInto(f), { snackbar: f.snackbar, isEmpty: async () => false })
    await new Promise((r) => setTimeout(r, 0))
    f.scan(`bitcoin:bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq?amount=0.5`)
    await done
    expect(f.navigations[0]).toMatchObject({ to: "/assets/send", search: { assetCurrency: "BTC", value: "0.5", qr: true } })
  })

  it("a closed scanner does nothing", async () => {
    const f = fake()
    const done = scanAndRoute(f.kernel, navigateInto(f), f.snackbar)
    await new Promise((r) => setTimeout(r, 0))
    f.scan(null)
    await done
    expect(f.navigations).toEqual([])
    expect(f.toasts).toEqual([])
  })
})
