import { useCallback } from "react"
import { useNavigate, type NavigateOptions } from "@tanstack/react-router"
import { targetOf, type RouteRef, type RouteTarget, type TargetArgs } from "@wallet/kernel"

/** Navigates to a typed route reference (decision 0170): `go(assetRoute, { params: { assetCurrency } })`. */
export type Go = <P extends string, S>(ref: RouteRef<P, S>, ...args: TargetArgs<P, S>) => Promise<void>

/** Navigates to a plain target: a full path composition produced (a contributed entry's `to`, a deep link). */
export type GoTo = (target: RouteTarget) => Promise<void>

/**
 * The composed route tree is not known to TanStack Router's types, so this is the one place a
 * target is handed to it untyped (decision 0170).
 */
const untyped = (target: RouteTarget) => target as NavigateOptions

/** The screen's navigate function over route references. */
export function useGo(): Go {
  const navigate = useNavigate()
  return useCallback<Go>((ref, ...args) => navigate(untyped(targetOf(ref, ...args))), [navigate])
}

/**
 * The screen's navigate function over plain targets, for paths the screen does not declare itself:
 * composed entries (settings entries, tabs, slot buttons) whose `to` composition checked.
 */
export function useGoTo(): GoTo {
  const navigate = useNavigate()
  return useCallback<GoTo>((target) => navigate(untyped(target)), [navigate])
}

/** The same for code outside React that holds the router's navigate (scanners, hooks, deep links). */
export const goWith =
  (navigate: (options: NavigateOptions) => Promise<void>): Go =>
  (ref, ...args) =>
    navigate(untyped(targetOf(ref, ...args)))
