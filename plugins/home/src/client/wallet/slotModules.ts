import { lazy, type ComponentType, type LazyExoticComponent } from "react"
import type { Lazy, RouteModule } from "@wallet/kernel"
import { loadOnce, type MainAvailabilityModule } from "@wallet/kernel-react"

/**
 * An action's availability module, loaded once: MainScreen starts the load when it mounts, in
 * parallel with the accounts, and the action bar waits on the same promise. A module that fails to
 * load leaves its action available (the screen it opens checks again).
 */
const settled = new WeakMap<Lazy<unknown>, Promise<MainAvailabilityModule | undefined>>()
export const loadAvailability = (load: Lazy<MainAvailabilityModule>): Promise<MainAvailabilityModule | undefined> => {
  let promise = settled.get(load)
  if (!promise) {
    const loading = loadOnce(load).catch(() => undefined)
    // Tagged as React's `use` reads a settled promise: a module that arrived before the accounts
    // renders the buttons at once, without suspending again.
    void loading.then((value) => Object.assign(loading, { status: "fulfilled", value }))
    promise = loading
    settled.set(load, promise)
  }
  return promise
}

/** A contributed section as a lazy component (one per module, kept across renders). */
const sections = new WeakMap<Lazy<RouteModule>, LazyExoticComponent<ComponentType>>()
export const sectionComponent = (load: Lazy<RouteModule>): LazyExoticComponent<ComponentType> => {
  let component = sections.get(load)
  if (!component) {
    component = lazy(async () => ({ default: (await load()).default as ComponentType }))
    sections.set(load, component)
  }
  return component
}
