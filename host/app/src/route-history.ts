/**
 * Route history restored on start (spec 1 §2 "Startup and deep links", decision 0380). The app's
 * history stack (path + search of each entry) is kept in session storage, for the signed-in user,
 * as the router moves through it; when the app starts again at `/` in the same Telegram session
 * (the client reopened or reloaded the mini-app at its launch URL), the stack is put back into the
 * browser history and the app opens on its last entry, with the earlier ones behind the back button.
 * A fresh open from a chat has a new session storage and starts where the startup rules say.
 */

export const ROUTE_HISTORY_KEY = "wallet:route-history"
/** Entries kept; the oldest go first. */
export const ROUTE_HISTORY_MAX = 20

/** Pages never restored: the startup page and the status pages the startup rules decide themselves. */
const NOT_RESTORED = [
  "/",
  "/error",
  "/unsupported_region",
  "/unsupported_app_store",
  "/unavailable",
  "/client-connection-error",
  "/attach-private-chats-error",
  "/service_temporarily_unavailable",
]

export interface SavedRouteHistory {
  readonly userId: number
  /** Oldest first; `index` is the current entry. */
  readonly entries: ReadonlyArray<string>
  readonly index: number
}

export interface KeyValue {
  readonly getItem: (key: string) => string | null
  readonly setItem: (key: string, value: string) => void
}

const pathOf = (href: string) => href.split(/[?#]/)[0]!
export const isRestorable = (href: string): boolean => {
  const path = pathOf(href)
  return href.startsWith("/") && !href.startsWith("//") && !NOT_RESTORED.some((page) => path === page || (page !== "/" && path.startsWith(`${page}/`)))
}

export function readRouteHistory(store: KeyValue, userId: number): SavedRouteHistory | undefined {
  try {
    const saved = JSON.parse(store.getItem(ROUTE_HISTORY_KEY) ?? "null") as SavedRouteHistory | null
    if (!saved || saved.userId !== userId || !Array.isArray(saved.entries)) return undefined
    const entries = saved.entries.filter((entry): entry is string => typeof entry === "string" && isRestorable(entry))
    if (entries.length === 0) return undefined
    const index = Math.min(Math.max(0, Math.trunc(Number(saved.index) || 0)), entries.length - 1)
    return { userId, entries, index }
  } catch {
    return undefined
  }
}

/**
 * The stack after the router showed `href` at history position `position` (TanStack's `__TSR_index`):
 * a push or replace writes that slot and drops what lay ahead, a back/forward keeps the stack.
 */
export function recordRoute(previous: SavedRouteHistory | undefined, userId: number, href: string, position: number): SavedRouteHistory | undefined {
  if (!isRestorable(href)) return previous
  const base = previous && previous.userId === userId ? [...previous.entries] : []
  const at = Math.max(0, Math.min(position, base.length))
  const entries = base[at] === href ? base : [...base.slice(0, at), href]
  const dropped = Math.max(0, entries.length - ROUTE_HISTORY_MAX)
  return { userId, entries: entries.slice(dropped), index: Math.max(0, at - dropped) }
}

export function writeRouteHistory(store: KeyValue, saved: SavedRouteHistory | undefined): void {
  if (!saved) return
  try {
    store.setItem(ROUTE_HISTORY_KEY, JSON.stringify(saved))
  } catch {
    // Storage full or unavailable: the history is simply not restored.
  }
}

/** The browser history to rebuild: the entries up to the current one, the last being where the app opens. */
export const restoredStack = (saved: SavedRouteHistory): ReadonlyArray<string> => saved.entries.slice(0, saved.index + 1)

let backDepth = 0
/** What the shell's back-button depth starts at: the restored entries behind the current one, plus one. */
export const initialBackDepth = (): number => backDepth

/**
 * Puts the saved stack back into the browser history before the router starts (TanStack reads its
 * position from `__TSR_index`): the first entry replaces `/`, the others are pushed, the app opens
 * on the last. Returns the entry it opens on.
 */
export function restoreBrowserHistory(saved: SavedRouteHistory, history: Pick<History, "replaceState" | "pushState"> = window.history): string {
  const stack = restoredStack(saved)
  stack.forEach((href, index) => {
    const key = Math.random().toString(36).slice(2, 10)
    const state = { key, __TSR_key: key, __TSR_index: index }
    if (index === 0) history.replaceState(state, "", href)
    else history.pushState(state, "", href)
  })
  // The shell goes back in history while its depth is above one (RootLayout's back button).
  backDepth = stack.length
  return stack[stack.length - 1]!
}
