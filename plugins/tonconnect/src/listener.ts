/**
 * `resumeTonConnect(kernel, navigate)`: the plugin's `afterStart` hook (the host runs it once after the
 * first screen, when idle; `default` below). It reads only the
 * device storage (no engine, no TON code): when this device holds a TonConnect session, the engine
 * chunk loads and its bridge listener starts, so dApp requests reach the user while the mini-app is
 * open. Without sessions nothing loads. The connect and connected-apps screens start it too.
 */
import { targetOf, type RouteTarget } from "@wallet/kernel"
import type { Go, Kernel } from "@wallet/kernel-react"
import { storedSessionCount } from "./engine/sealed-store.ts"
import { withBuffer } from "./manifest.ts"

/** The host's router navigate over plain targets (what the `afterStart` host passes). */
export type Navigate = (target: RouteTarget) => unknown

/** Route references over the host's plain navigate (decision 0170). */
const goOver =
  (navigate: Navigate): Go =>
  async (ref, ...args) =>
    void (await navigate(targetOf(ref, ...args)))

const SESSIONS_KEY_PREFIX = "wallet:tonconnect:v1:"

/**
 * Whether any stored TonConnect state (any wallet, any network) holds a session: a sealed record
 * says how many it holds without being opened (decision 0750), a plain one of an older version
 * shows them (the engine seals it when it loads).
 */
export const hasStoredSessions = (storage: Pick<Storage, "length" | "key" | "getItem">): boolean => {
  for (let i = 0; i < storage.length; i++) {
    const key = storage.key(i)
    if (!key?.startsWith(SESSIONS_KEY_PREFIX)) continue
    if (storedSessionCount(storage.getItem(key)) > 0) return true
  }
  return false
}

export const resumeTonConnect = (kernel: Kernel, navigate: Navigate): Promise<void> => {
  if (typeof window === "undefined" || !hasStoredSessions(window.localStorage)) return Promise.resolve()
  return withBuffer(() => import("./client/runtime.ts"))().then(
    (m) => void m.tonConnect(kernel, goOver(navigate)),
    (error: unknown) => console.warn("[tonconnect] the listener did not load", error),
  )
}

/** What the host passes the `afterStart` hook. */
export interface StartHost {
  readonly kernel: Kernel
  readonly navigate: Navigate
}

/** The `afterStart` hook: the host passes its kernel and navigate. */
export default function afterStart(host: StartHost): Promise<void> {
  return resumeTonConnect(host.kernel, host.navigate)
}
