/**
 * A tiny query cache for wallet main (spec 1 §9: assets stale after 60 s, kept forever; no refetch on
 * window focus): the last answer per key, refetched when stale or on demand, with one request in
 * flight per key and subscribers told of every change. No TanStack Query on the first screen.
 */
export const ACCOUNTS_STALE_MS = 60_000

export type Entry<A> =
  | { readonly status: "loading"; readonly data?: undefined; readonly error?: undefined }
  | { readonly status: "error"; readonly data?: A; readonly error: unknown }
  | { readonly status: "ready"; readonly data: A; readonly error?: undefined }

export interface QueryCache<A> {
  /** The current entry (loading before the first answer). */
  readonly get: (key: string) => Entry<A>
  /** Fetches when the entry is missing, failed or older than the stale time; `force` always fetches. */
  readonly ensure: (key: string, force?: boolean) => Promise<void>
  readonly subscribe: (listener: () => void) => () => void
}

export function makeQueryCache<A>(fetcher: (key: string) => Promise<A>, options: { readonly staleMs: number; readonly now?: () => number }): QueryCache<A> {
  const now = options.now ?? Date.now
  const entries = new Map<string, { entry: Entry<A>; fetchedAt: number }>()
  const inFlight = new Map<string, Promise<void>>()
  const listeners = new Set<() => void>()
  const notify = () => listeners.forEach((listener) => listener())
  const loading: Entry<A> = { status: "loading" }

  const ensure = (key: string, force = false): Promise<void> => {
    const current = entries.get(key)
    const fresh = current?.entry.status === "ready" && now() - current.fetchedAt < options.staleMs
    if (fresh && !force) return Promise.resolve()
    const running = inFlight.get(key)
    if (running) return running
    const run = fetcher(key).then(
      (data) => void entries.set(key, { entry: { status: "ready", data }, fetchedAt: now() }),
      (error: unknown) => {
        // A failed refetch keeps the last data next to the error.
        const data = entries.get(key)?.entry.data
        entries.set(key, { entry: data === undefined ? { status: "error", error } : { status: "error", error, data }, fetchedAt: 0 })
      },
    ).finally(() => {
      inFlight.delete(key)
      notify()
    })
    inFlight.set(key, run)
    if (current?.entry.status === "error" && current.entry.data === undefined) {
      entries.delete(key)
      notify()
    }
    return run
  }

  return {
    get: (key) => entries.get(key)?.entry ?? loading,
    ensure,
    subscribe: (listener) => {
      listeners.add(listener)
      return () => void listeners.delete(listener)
    },
  }
}
