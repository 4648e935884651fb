import { createContext, useContext, type ReactNode } from "react"
import { useTranslation } from "react-i18next"
import type { ManagedRuntime } from "effect"
import type { Composition, FeatureFlags, I18n, PasscodeShape, Session, SessionUser, Storage, Telegram } from "@wallet/kernel"
import type { KernelApiClient } from "@wallet/kernel/client"
import type { OverlayStore } from "./passcode.tsx"
import type { QueryClient } from "@tanstack/react-query"
import { KernelQueryProvider } from "./query.tsx"

/** What every screen can reach: the composed app, the services and the signed-in user. */
export interface Kernel {
  readonly composition: Composition
  readonly runtime: ManagedRuntime.ManagedRuntime<any, any>
  readonly telegram: Telegram["Service"]
  readonly i18n: I18n["Service"]
  readonly session: Session["Service"]
  readonly flags: FeatureFlags["Service"]
  readonly storage: Storage["Service"]
  /** The typed client of the kernel's endpoints, loaded on first use. */
  readonly api: () => Promise<KernelApiClient>
  /** The signed-in user; undefined before sign-in or after a startup failure. */
  readonly user: () => SessionUser | undefined
  /** The Passcode service (its provider plugin loads on first use); absent: unavailable. */
  readonly passcode?: PasscodeShape
  /** Layers over any route (passcode screens); rendered by `<OverlayHost/>` in the root layout. */
  readonly overlays?: OverlayStore
  /** The data layer's client (decision 0320); made on first use when absent. */
  readonly queryClient?: QueryClient
}

const KernelContext = createContext<Kernel | null>(null)

export function KernelProvider({ kernel, children }: { readonly kernel: Kernel; readonly children: ReactNode }) {
  return (
    <KernelContext.Provider value={kernel}>
      <KernelQueryProvider kernel={kernel}>{children}</KernelQueryProvider>
    </KernelContext.Provider>
  )
}

export function useKernel(): Kernel {
  const kernel = useContext(KernelContext)
  if (!kernel) throw new Error("useKernel() outside <KernelProvider>")
  return kernel
}

/**
 * Translations of one namespace (a plugin's, or the shell's), through react-i18next on the kernel's
 * i18next instance. Re-renders on language change and when a bundle arrives; keys missing in a
 * language fall back to English.
 */
export function useT(namespace: string) {
  const { i18n } = useKernel()
  // Subscribes this component to language changes and arriving bundles (and loads the namespace).
  useTranslation(namespace, { i18n: i18n.instance, useSuspense: false })
  // Resolved at call time, so a handler that awaits a language change speaks the new language.
  return (key: string, options?: Record<string, unknown>) => i18n.t(`${namespace}:${key}`, options)
}

/** Whether the signed-in user holds all the given permissions. */
export const hasPermissions = (user: SessionUser | undefined, permissions: ReadonlyArray<string>): boolean =>
  permissions.every((p) => user?.permissions[p] === true)
