import { describe, expect, it } from "vitest"
import {
  initialBackDepth,
  readRouteHistory,
  recordRoute,
  restoreBrowserHistory,
  restoredStack,
  ROUTE_HISTORY_KEY,
  ROUTE_HISTORY_MAX,
  writeRouteHistory,
  type SavedRouteHistory,
} from "./route-history.ts"

const memory = () => {
  const map = new Map<string, string>()
  return { map, getItem: (k: string) => map.get(k) ?? null, setItem: (k: string, v: string) => void map.set(k, v) }
}

/** Decision 0380: the route history of a Telegram session, restored on a start at `/`. */
describe("route history", () => {
  it("a push appends, a replace overwrites, going back keeps the entries ahead", () => {
    let h = recordRoute(undefined, 7, "/main", 0)
    h = recordRoute(h, 7, "/settings", 1)
    h = recordRoute(h, 7, "/settings/language?from=settings", 2)
    expect(h).toEqual({ userId: 7, entries: ["/main", "/settings", "/settings/language?from=settings"], index: 2 })
    h = recordRoute(h, 7, "/settings", 1)
    expect(h).toEqual({ userId: 7, entries: ["/main", "/settings", "/settings/language?from=settings"], index: 1 })
    // A push from there drops what lay ahead.
    h = recordRoute(h, 7, "/receive", 2)
    expect(h).toEqual({ userId: 7, entries: ["/main", "/settings", "/receive"], index: 2 })
  })

  it("never records the startup page or the status pages, and keeps the last entries only", () => {
    expect(recordRoute(undefined, 7, "/", 0)).toBeUndefined()
    expect(recordRoute(undefined, 7, "/error?code=init_failed", 0)).toBeUndefined()
    expect(recordRoute(undefined, 7, "/unavailable", 0)).toBeUndefined()
    let h: SavedRouteHistory | undefined
    for (let i = 0; i < ROUTE_HISTORY_MAX + 5; i++) h = recordRoute(h, 7, `/assets/A${i}`, i)
    expect(h!.entries).toHaveLength(ROUTE_HISTORY_MAX)
    expect(h!.entries.at(-1)).toBe(`/assets/A${ROUTE_HISTORY_MAX + 4}`)
    expect(h!.index).toBe(ROUTE_HISTORY_MAX - 1)
  })

  it("route_history_restored_on_start: the saved stack of the same user comes back, another user's does not", () => {
    const store = memory()
    writeRouteHistory(store, { userId: 7, entries: ["/main", "/settings", "/settings/language"], index: 1 })
    const saved = readRouteHistory(store, 7)!
    expect(restoredStack(saved)).toEqual(["/main", "/settings"])
    expect(readRouteHistory(store, 8)).toBeUndefined()
    // Tampered or foreign entries are dropped.
    store.map.set(ROUTE_HISTORY_KEY, JSON.stringify({ userId: 7, entries: ["https://evil.test/x", "//evil.test", "/", "/main"], index: 9 }))
    expect(readRouteHistory(store, 7)).toEqual({ userId: 7, entries: ["/main"], index: 0 })
    store.map.set(ROUTE_HISTORY_KEY, "{not json")
    expect(readRouteHistory(store, 7)).toBeUndefined()
  })

  it("puts the stack back into the browser history with TanStack's positions and opens the last entry", () => {
    const calls: Array<[string, number, string]> = []
    const history = {
      replaceState: (state: { __TSR_index: number }, _: string, url?: string | URL | null) => void calls.push(["replace", state.__TSR_index, String(url)]),
      pushState: (state: { __TSR_index: number }, _: string, url?: string | URL | null) => void calls.push(["push", state.__TSR_index, String(url)]),
    }
    const opened = restoreBrowserHistory({ userId: 7, entries: ["/main", "/settings", "/settings/language"], index: 2 }, history as never)
    expect(opened).toBe("/settings/language")
    expect(calls).toEqual([
      ["replace", 0, "/main"],
      ["push", 1, "/settings"],
      ["push", 2, "/settings/language"],
    ])
    // Two entries behind: the shell's back button walks them before the default target.
    expect(initialBackDepth()).toBe(3)
  })
})
