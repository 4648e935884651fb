/**
 * `scanAndRoute(kernel, go, snackbar?)`: the QR button's flow (spec 1 §5 QR, §8 QR errors).
 * Opens Telegram's scanner, parses the text, resolves the currency and then:
 * - a wallet deep link -> its screen (the kernel's deep-link table);
 * - an unsupported text -> a warning toast with the `send.qr.error.*` text;
 * - an empty balance of the currency -> a confirm popup offering a deposit (/receive);
 * - otherwise /assets/send prefilled (address, network, amount, comment, qr=true).
 * A client without the scanner (old client) gets the 'feature unavailable' toast with an Update action.
 * Without `snackbar` the toasts fall back to Telegram popups.
 */
import { resolveStartParam, routeRef } from "@wallet/kernel"
import { createElement } from "react"
import { Icon, runEffect, type Go, type Kernel } from "@wallet/kernel-react"
import type { SnackbarApi } from "@wallet/kernel-react/ui"
import { call, chainClient } from "./clients.ts"
import type { NetworkCode } from "../../currencies.ts"
import { receiveRoute, sendRoute, tonConnectQrRoute } from "../../routes.ts"
import { parseQr, type QrErrorType, type QrResult } from "./qr.ts"

const warningIcon = () => createElement(Icon, { name: "alert", size: 20 })

/** Where Telegram's update page is (the toast's Update action). */
export const TELEGRAM_UPDATE_URL = "https://telegram.org/update"

/** Whether the user holds nothing that can be sent of `currency` on `network`; undefined when unknown. */
export type BalanceProbe = (currency: string, network: NetworkCode) => Promise<boolean | undefined>

const probeByLimits =
  (kernel: Kernel): BalanceProbe =>
  async (currency, network) => {
    const client = await chainClient(kernel).catch(() => undefined)
    if (!client) return undefined
    const result = await call(kernel, client.custodyChain.withdrawLimits({ query: { currency, network } }))
    return result.ok ? result.value.max_sendable === 0n : undefined
  }

export interface ScanOptions {
  readonly snackbar?: SnackbarApi
  /** Overrides the empty-balance check (tests; a caller that already holds the balances). */
  readonly isEmpty?: BalanceProbe
}

/** Routes a parsed QR result; exported for tests and for callers that scanned by other means. */
export async function routeQr(kernel: Kernel, go: Go, result: QrResult, options: ScanOptions = {}): Promise<void> {
  const t = (key: string, params?: Record<string, unknown>) => kernel.i18n.t(`custody:send.${key}`, params)
  const warn = (type: QrErrorType, params?: Record<string, unknown>) => {
    kernel.telegram.haptic({ type: "notification", kind: "warning" })
    const text = t(`qr.error.${type}`, params)
    if (options.snackbar) options.snackbar.show({ id: "custody-qr-error", text, icon: warningIcon() })
    else void kernel.telegram.popup({ message: text, buttons: [{ id: "ok", type: "ok" }] })
  }
  if (result.kind === "error") return warn(result.error)
  if (result.kind === "tonconnect") {
    // The connect screen checks the link itself (the spec's 'Ton Connect search params is not available').
    await go(tonConnectQrRoute, { search: result.search })
    return
  }
  if (result.kind === "deeplink") {
    const target = resolveStartParam(kernel.composition.deepLinks, result.startParam)
    if (target.kind !== "route") return warn("default")
    // The deep-link table gives a concrete full path of a composed route (its params filled in).
    await go(routeRef(target.to), { search: target.search })
    return
  }
  const empty = await (options.isEmpty ?? probeByLimits(kernel))(result.currency, result.network)
  if (empty === true) {
    const answer = await kernel.telegram.popup({
      title: t("qr.empty.title", { currency: result.currency }),
      message: t("qr.empty.message", { currency: result.currency }),
      buttons: [
        { id: "deposit", type: "default", text: t("qr.empty.deposit") },
        { id: "cancel", type: "cancel" },
      ],
    })
    if (answer === "deposit") await go(receiveRoute, { search: { assetCurrency: result.currency, assetNetwork: result.network, source: "send" } })
    return
  }
  await go(sendRoute, {
    search: {
      assetCurrency: result.currency,
      assetNetwork: result.network,
      address: result.address,
      qr: true,
      ...(result.amount !== undefined ? { value: result.amount } : {}),
      ...(result.text !== undefined ? { comment: result.text } : {}),
    },
  })
}

/** Opens the scanner and routes the first text scanned. Resolves when done (or the scanner closed). */
export async function scanAndRoute(kernel: Kernel, go: Go, snackbarOrOptions?: SnackbarApi | ScanOptions): Promise<void> {
  const options: ScanOptions = snackbarOrOptions && "show" in snackbarOrOptions ? { snackbar: snackbarOrOptions } : (snackbarOrOptions ?? {})
  await runEffect(kernel, kernel.i18n.loadNamespace("custody")).catch(() => undefined)
  const t = (key: string) => kernel.i18n.t(`custody:send.${key}`)
  const scanning = kernel.telegram.scanQr({ text: t("qr.hint"), onText: () => true })
  if (scanning === null) {
    const text = t("qr.oldClient")
    if (options.snackbar) {
      options.snackbar.show({
        id: "custody-qr-old-client",
        text,
        icon: warningIcon(),
        action: { label: t("qr.update"), onClick: () => kernel.telegram.openLink(TELEGRAM_UPDATE_URL) },
      })
    } else {
      const answer = await kernel.telegram.popup({
        message: text,
        buttons: [
          { id: "update", type: "default", text: t("qr.update") },
          { id: "cancel", type: "cancel" },
        ],
      })
      if (answer === "update") kernel.telegram.openLink(TELEGRAM_UPDATE_URL)
    }
    return
  }
  const text = await scanning
  if (text === null) return
  await routeQr(kernel, go, parseQr(text), options)
}
