import { useEffect, useSyncExternalStore } from "react"

/**
 * Why the tab bar is hidden right now (spec 1 §2: while a main button is shown, or when a screen asks).
 * Counters, not flags: several components may ask at once and each releases its own request.
 */
const reasons = { mainButton: 0, screen: 0 }
const listeners = new Set<() => void>()
let snapshot = false
const publish = () => {
  snapshot = reasons.mainButton > 0 || reasons.screen > 0
  listeners.forEach((listener) => listener())
}

export const holdTabBarHidden = (reason: keyof typeof reasons): (() => void) => {
  reasons[reason]++
  publish()
  let released = false
  return () => {
    if (released) return
    released = true
    reasons[reason]--
    publish()
  }
}

/** True while something asks the tab bar to hide. */
export const useTabBarHiddenByScreens = (): boolean =>
  useSyncExternalStore(
    (listener) => {
      listeners.add(listener)
      return () => void listeners.delete(listener)
    },
    () => snapshot,
    () => false,
  )

/** A screen that must not show the tab bar (a form, a flow) calls this. */
export function useHideTabBar(hidden = true): void {
  useEffect(() => (hidden ? holdTabBarHidden("screen") : undefined), [hidden])
}
