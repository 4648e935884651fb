import { useMemo, type ComponentType, type ReactNode } from "react"
import { slotsForUser, type ComposedMainSlots, type Lazy, type SlotAvailabilityModule, type SlotRunModule } from "@wallet/kernel"
import type { SnackbarApi } from "./ui/Snackbar.tsx"
import { useKernel, type Kernel } from "./context.tsx"
import type { Go } from "./go.ts"

/** A plain router target (a full path, its params and search). */
export interface SlotNavigateOptions {
  readonly to: string
  readonly params?: Readonly<Record<string, string>>
  readonly search?: Readonly<Record<string, unknown>>
  readonly replace?: boolean
}

/**
 * What a contributed top-bar button's or action's `run` module and an availability module's
 * `explain` get (decision 0140): the kernel, the router's navigate (plain targets), `go` (typed
 * route references) and the screen's snackbar.
 */
export interface MainSlotHost {
  readonly kernel: Kernel
  readonly navigate: (options: SlotNavigateOptions) => Promise<void>
  readonly go: Go
  readonly snackbar: SnackbarApi
}
/** The module type a `run` import resolves to (`export default (host: MainSlotHost) => ...`). */
export type MainSlotRunModule = SlotRunModule<MainSlotHost>
/** The module type an action's `availability` import resolves to. */
export type MainAvailabilityModule<Main = any> = SlotAvailabilityModule<MainSlotHost, Main>

/**
 * Wallet main's slots as the signed-in user may see them: every enabled plugin's top-bar buttons,
 * actions and sections, ordered, filtered by permissions and custody availability. Nothing of
 * an entry is loaded here (`loadOnce` loads a module when it is needed).
 */
export function useMainSlots(): ComposedMainSlots {
  const kernel = useKernel()
  const user = kernel.user()
  const { main } = kernel.composition
  return useMemo(
    () => ({ topBar: slotsForUser(main.topBar, user), actions: slotsForUser(main.actions, user), sections: slotsForUser(main.sections, user) }),
    [main, user],
  )
}

const loaded = new WeakMap<Lazy<unknown>, Promise<unknown>>()

/**
 * One promise per lazy module (stable across renders, so React's `use` can wait on it). A failed
 * load is forgotten, so the next call retries.
 */
export function loadOnce<M>(load: Lazy<M>): Promise<M> {
  let promise = loaded.get(load) as Promise<M> | undefined
  if (!promise) {
    promise = load()
    promise.catch(() => loaded.delete(load))
    loaded.set(load, promise)
  }
  return promise
}

/** Presses a contributed button: loads and runs its `run` module, or navigates to its `to`. */
export async function runSlot(
  entry: {
    readonly to?: string | undefined
    readonly search?: Readonly<Record<string, string>> | undefined
    readonly run?: Lazy<SlotRunModule<any>> | undefined
  },
  host: MainSlotHost,
): Promise<void> {
  if (entry.run) {
    const module = (await loadOnce(entry.run)) as MainSlotRunModule
    await module.default(host)
  } else if (entry.to !== undefined) {
    await host.navigate({ to: entry.to, ...(entry.search ? { search: entry.search } : {}) })
  }
}

/** The i18n namespace of a contributing plugin (its id when it declares none). */
export const namespaceOfPlugin = (kernel: Kernel, pluginId: string): string =>
  kernel.composition.plugins.find((plugin) => plugin.id === pluginId)?.i18n?.namespace ?? pluginId

/** What the strip above the tab bar shows: a render of its content (compact under 375 px), or nothing. */
export type TabStripRender = (context: { readonly compact: boolean }) => ReactNode
/**
 * The `default` of a plugin's `tabStrip.source` module: a component the host renders beside the tab
 * bar; it loads what it needs and reports the strip's content through `onChange` (undefined: no strip).
 */
export type TabStripSource = ComponentType<{ readonly onChange: (render: TabStripRender | undefined) => void }>
