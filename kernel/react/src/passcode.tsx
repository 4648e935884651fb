import { useSyncExternalStore, type ReactNode } from "react"
import { Passcode, type Composition, type PasscodeFactory, type PasscodeShape } from "@wallet/kernel"
import { useKernel, type Kernel } from "./context.tsx"

/** Full-screen layers shown over any route (the passcode screens); the root layout renders them. */
export interface OverlayStore {
  /** Shows `node` on top; returns the function that removes it. */
  readonly show: (node: ReactNode) => () => void
  readonly subscribe: (listener: () => void) => () => void
  readonly current: () => ReadonlyArray<{ readonly key: number; readonly node: ReactNode }>
}

export const createOverlayStore = (): OverlayStore => {
  let layers: ReadonlyArray<{ readonly key: number; readonly node: ReactNode }> = []
  let next = 0
  const listeners = new Set<() => void>()
  const notify = () => listeners.forEach((l) => l())
  return {
    show: (node) => {
      const key = ++next
      layers = [...layers, { key, node }]
      notify()
      return () => {
        layers = layers.filter((layer) => layer.key !== key)
        notify()
      }
    },
    subscribe: (listener) => {
      listeners.add(listener)
      return () => void listeners.delete(listener)
    },
    current: () => layers,
  }
}

/**
 * What a passcode provider module's `default` factory receives. Plugins' `beforePasscodeChange`
 * hooks (decision 0530) are not passed here: the provider reads them from
 * `kernel.composition.hooks.beforePasscodeChange` and calls each with `({ current, next }, kernel)`
 * before the server changes the passcode, so a hook module types itself as
 * `PasscodeChangeHookModule<Kernel>` (`@wallet/kernel`).
 */
export interface PasscodeHost {
  readonly kernel: Kernel
  readonly overlays: OverlayStore
}
export type PasscodeProviderFactory = PasscodeFactory<PasscodeHost>

/**
 * The kernel Passcode service of a composition: the provider plugin's module is imported on the
 * first call, then its factory gets the host (read at that time, so the kernel may be built later).
 */
export const passcodeFromComposition = (composition: Composition, host: () => PasscodeHost): PasscodeShape => {
  const provider = composition.providers.passcode
  return Passcode.lazy(provider && (async () => ((await provider.load()).default as PasscodeProviderFactory)(host())))
}

/** Renders the overlay layers (put it once in the root layout, inside the snackbar provider). */
export function OverlayHost() {
  const { overlays } = useKernel()
  const store = overlays ?? EMPTY
  const layers = useSyncExternalStore(store.subscribe, store.current, store.current)
  return (
    <>
      {layers.map((layer) => (
        <div key={layer.key}>{layer.node}</div>
      ))}
    </>
  )
}

const EMPTY: OverlayStore = { show: () => () => undefined, subscribe: () => () => undefined, current: () => [] }

/**
 * The Passcode service: `verify({ operation, passcode? })` and `operationToken({ operation, params? })`
 * (send the grant with `operationTokenHeaders(grant)`), Effects failing with PasscodeCancelled or
 * PasscodeUnavailable (run them with `runEffect`).
 */
export function usePasscode(): PasscodeShape {
  return useKernel().passcode ?? Passcode.unavailable
}
