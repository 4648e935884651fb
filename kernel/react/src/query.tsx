/**
 * The data layer (decision 0320): one TanStack Query client per kernel, given to every plugin through
 * the kernel's React root, with the spec's defaults (spec 1 §7 "Caches") and a cache persisted in
 * localStorage for 12 hours under the buster "5.0.10". Only queries that opt in with
 * `meta: { persist: true }` are written; nothing else (and so nothing secret) ever reaches storage.
 */
import { useEffect, useMemo, type ReactNode } from "react"
import { QueryClient, QueryClientProvider, defaultShouldDehydrateQuery, dehydrate, hashKey, hydrate, type Query, type QueryKey } from "@tanstack/react-query"
import { persistQueryClientSubscribe, type PersistedClient, type PersistQueryClientOptions } from "@tanstack/react-query-persist-client"
import { createSyncStoragePersister } from "@tanstack/query-sync-storage-persister"
import type { Kernel } from "./context.tsx"
import { clearBootPaint } from "./bootPaint.ts"
import { PREFETCH_DELAY_MS, QUERY_CACHE_BUSTER, QUERY_CACHE_MAX_AGE_MS, QUERY_GC_TIME_MS } from "./queryTimes.ts"
import { FlagsRefresher } from "./flags.tsx"

export * from "./queryTimes.ts"

/** The meta a query carries to be persisted (its data must be plain JSON and never secret). */
export const PERSIST_META = { persist: true } as const

/** Persisted balances: refreshed by `invalidateBalances` whenever money moves (a send, an accepted transfer). */
export const BALANCES_META = { persist: true, balances: true } as const

/** Marks every balances query stale and refetches those on screen (call after a send). */
export const invalidateBalances = (client: QueryClient): Promise<void> => client.invalidateQueries({ predicate: (query) => query.meta?.balances === true })

const lastBalances = new WeakMap<QueryClient, string>()

/**
 * Reports the balances a balances query has just fetched (currency and balance of each asset). Asset polling is off (spec 1 §7), so when one screen sees the money move (a deposit shown
 * on the asset page), every other balances query (wallet main) is marked stale without a request:
 * it refetches when it is next on screen. Equal balances change nothing, so the 60 s stale time holds.
 */
export const noteBalances = (
  client: QueryClient,
  queryKey: QueryKey,
  balances: ReadonlyArray<{ readonly currency: string; readonly balance: string }>,
): void => {
  const fingerprint = balances
    .map((asset) => `${asset.currency}:${asset.balance}`)
    .sort()
    .join(",")
  const last = lastBalances.get(client)
  lastBalances.set(client, fingerprint)
  if (last === undefined || last === fingerprint) return
  const mine = hashKey(queryKey)
  void client.invalidateQueries({ predicate: (query) => query.meta?.balances === true && query.queryHash !== mine, refetchType: "none" })
}

/** localStorage key prefix of the persisted caches; the signed-in user's id completes it. */
export const QUERY_CACHE_KEY_PREFIX = "wallet:query-cache:"

/** Whether a query is written to the persisted cache: it opted in and holds data. */
export const shouldPersistQuery = (query: Query): boolean => query.meta?.persist === true && defaultShouldDehydrateQuery(query)

/**
 * The client with the spec's defaults: 24 h garbage collection, no refetch on window focus and no
 * retries here (the kernel's Http policy retries; two layers would multiply the attempts).
 */
export const makeQueryClient = (): QueryClient =>
  new QueryClient({
    defaultOptions: {
      queries: { gcTime: QUERY_GC_TIME_MS, refetchOnWindowFocus: false, retry: false },
      mutations: { retry: false },
    },
  })

const clients = new WeakMap<object, QueryClient>()

/** The kernel's one client (made on first use); non-React code uses it to invalidate after a change. */
export const kernelQueryClient = (kernel: Kernel): QueryClient => {
  const existing = kernel.queryClient ?? clients.get(kernel)
  if (existing) return existing
  const made = makeQueryClient()
  clients.set(kernel, made)
  return made
}

const safeLocalStorage = (): Storage | undefined => {
  try {
    return typeof window === "undefined" ? undefined : window.localStorage
  } catch {
    return undefined
  }
}

/** Clients whose user has signed out or whose session expired for good: their cache is never written again. */
const closed = new WeakSet<QueryClient>()

/** Storage that stops taking writes once `isClosed()` (a throttled write must not bring a cleared cache back). */
const closableStorage = (storage: Storage | undefined, isClosed: () => boolean): Storage | undefined =>
  storage && {
    get length() {
      return storage.length
    },
    key: (index) => storage.key(index),
    clear: () => storage.clear(),
    getItem: (key) => storage.getItem(key),
    removeItem: (key) => storage.removeItem(key),
    setItem: (key, value) => {
      if (!isClosed()) storage.setItem(key, value)
    },
  }

/** Persist options for one user's cache (12 h, buster 5.0.10, opt-in queries only). */
export const persistOptionsFor = (
  userId: number | string,
  storage: Storage | undefined = safeLocalStorage(),
  isClosed: () => boolean = () => false,
): Omit<PersistQueryClientOptions, "queryClient"> => ({
  persister: createSyncStoragePersister({ storage: closableStorage(storage, isClosed), key: `${QUERY_CACHE_KEY_PREFIX}${userId}`, throttleTime: 500 }),
  maxAge: QUERY_CACHE_MAX_AGE_MS,
  buster: QUERY_CACHE_BUSTER,
  dehydrateOptions: { shouldDehydrateQuery: shouldPersistQuery },
})

/**
 * Writes the user's cache now, in the persister's format, past its 500 ms throttle: called when the page
 * is hidden or left. Telegram closes a mini-app at once, and a change made in its last half second (a
 * banner closed, a balance moved) was lost, so the next start showed the old state until its refetch.
 */
export const flushQueryCache = (client: QueryClient, userId: number | string, storage: Storage | undefined = safeLocalStorage()): void => {
  if (!storage || closed.has(client)) return
  const persisted: PersistedClient = {
    timestamp: Date.now(),
    buster: QUERY_CACHE_BUSTER,
    clientState: dehydrate(client, { shouldDehydrateQuery: shouldPersistQuery }),
  }
  try {
    storage.setItem(`${QUERY_CACHE_KEY_PREFIX}${userId}`, JSON.stringify(persisted))
  } catch {
    // Storage full or unavailable: the throttled write had no better luck.
  }
}

/**
 * Logout or a session expired for good: the cache leaves memory (`client.clear()`) and storage (the
 * user's key), and nothing is persisted for this client any more. The next sign-in starts a new page.
 */
export const clearQueryCache = (client: QueryClient, userId: number | string | undefined, storage: Storage | undefined = safeLocalStorage()): void => {
  closed.add(client)
  client.clear()
  if (userId === undefined || !storage) return
  try {
    storage.removeItem(`${QUERY_CACHE_KEY_PREFIX}${userId}`)
  } catch {
    // Storage unavailable: nothing was persisted either.
  }
  clearBootPaint(storage, { userId })
}

/** Another user's persisted cache never stays on this device once someone else signs in. */
const dropOtherUsersCaches = (userId: number | string, storage: Storage | undefined) => {
  if (!storage) return
  try {
    const mine = `${QUERY_CACHE_KEY_PREFIX}${userId}`
    const stale: Array<string> = []
    for (let i = 0; i < storage.length; i++) {
      const key = storage.key(i)
      if (key?.startsWith(QUERY_CACHE_KEY_PREFIX) && key !== mine) stale.push(key)
    }
    for (const key of stale) storage.removeItem(key)
  } catch {
    // Storage unavailable: nothing persisted either.
  }
  clearBootPaint(storage, { keep: userId })
}

/**
 * Runs `run` once, PREFETCH_DELAY_MS after the page has loaded (spec 1 §9: prefetch starts 1000 ms
 * after load). Returns a cancel function.
 */
export const afterLoad = (run: () => void, delayMs: number = PREFETCH_DELAY_MS): (() => void) => {
  let timer: ReturnType<typeof setTimeout> | undefined
  const start = () => void (timer = setTimeout(run, delayMs))
  if (typeof document === "undefined" || document.readyState === "complete") {
    start()
    return () => clearTimeout(timer)
  }
  window.addEventListener("load", start, { once: true })
  return () => {
    window.removeEventListener("load", start)
    clearTimeout(timer)
  }
}

/** Start-time prefetches registered by plugins; run once per client, 1000 ms after load. */
export type Prefetch = (kernel: Kernel, client: QueryClient) => Promise<unknown> | void
const prefetches = new Set<Prefetch>()
export const registerPrefetch = (prefetch: Prefetch): void => void prefetches.add(prefetch)

/**
 * Start queries (decision 0007): the first request a screen makes, registered by the screen's module
 * under its route path. The host runs them as soon as the session exists and the route's chunk is
 * there, before React renders; the screen's own query (same key and options) then finds it in flight.
 */
const startQueries = new Map<string, Prefetch>()
export const registerStartQuery = (path: string, query: Prefetch): void => void startQueries.set(path, query)
/** Whether a screen registered a start query for `path` (the host defers other work only behind one). */
export const hasStartQuery = (path: string): boolean => startQueries.has(path)

/** Settles when the running start query has (the later prefetches and the host's after-start work wait for it). */
let startSettled: Promise<void> = Promise.resolve()

/**
 * Runs the start query registered for `path`, if any; a failure is left to the screen's own query.
 * The promise settles (never rejects) when the query has answered or failed.
 */
export const runStartQueries = (kernel: Kernel, path: string): Promise<void> => {
  const query = startQueries.get(path)
  if (!query) return Promise.resolve()
  try {
    startSettled = Promise.resolve(query(kernel, kernelQueryClient(kernel))).then(
      () => undefined,
      () => undefined,
    )
  } catch {
    // An optimisation only: the screen fetches on its own.
    startSettled = Promise.resolve()
  }
  return startSettled
}

function Prefetcher({ kernel, client }: { readonly kernel: Kernel; readonly client: QueryClient }) {
  useEffect(
    () =>
      // Not before the first screen's own data (decision 0007): on a slow link they would share its bandwidth.
      afterLoad(() => void startSettled.then(() => runPrefetches(kernel, client))),
    [kernel, client],
  )
  return null
}

const runPrefetches = (kernel: Kernel, client: QueryClient) => {
  for (const prefetch of prefetches) {
    try {
      void Promise.resolve(prefetch(kernel, client)).catch(() => undefined)
    } catch {
      // A prefetch is an optimisation: its failure is the screen's to show later.
    }
  }
}

/** The cache (storage key) restored into each client: a restore happens once per client and user. */
const restored = new WeakMap<QueryClient, string>()

/**
 * Restores the user's persisted cache into `client` SYNCHRONOUSLY (decision 0008), so the first render
 * of a screen already has the restored balances (the library's provider restores after the first
 * paint). Once per client and user; drops other users' caches, an expired cache (12 h) and another
 * buster; the restored queries are invalidated: shown at once and refetched behind (a reopen is a new
 * visit). A start query already in flight (decision 0007) is that refetch: it is not cancelled.
 */
export const restoreQueryCache = (client: QueryClient, userId: number | string, storage: Storage | undefined = safeLocalStorage()): void => {
  const key = `${QUERY_CACHE_KEY_PREFIX}${userId}`
  if (restored.get(client) === key) return
  restored.set(client, key)
  dropOtherUsersCaches(userId, storage)
  if (!storage || closed.has(client)) return
  try {
    const raw = storage.getItem(key)
    if (raw === null) return
    const persisted = JSON.parse(raw) as PersistedClient
    if (!persisted?.timestamp || Date.now() - persisted.timestamp > QUERY_CACHE_MAX_AGE_MS || persisted.buster !== QUERY_CACHE_BUSTER) {
      storage.removeItem(key)
      return
    }
    hydrate(client, persisted.clientState)
    void client.invalidateQueries({ predicate: (query) => query.meta?.persist === true }, { cancelRefetch: false })
  } catch {
    // Unreadable: discarded, as the library does.
    try {
      storage.removeItem(key)
    } catch {
      // Storage unavailable.
    }
  }
}

/**
 * The kernel's query provider: the signed-in user's cache is restored from storage synchronously
 * before the first render (persisted data shows at once, then the restored queries refetch in the
 * background) and later changes are written back; without a user nothing is persisted.
 */
export function KernelQueryProvider({ kernel, children }: { readonly kernel: Kernel; readonly children: ReactNode }) {
  const client = kernelQueryClient(kernel)
  const userId = typeof kernel.user === "function" ? kernel.user()?.id : undefined
  const persistOptions = useMemo(
    () => (userId === undefined ? undefined : persistOptionsFor(userId, safeLocalStorage(), () => closed.has(client))),
    [userId, client],
  )
  if (userId !== undefined) restoreQueryCache(client, userId)
  useEffect(
    () => (persistOptions === undefined ? undefined : persistQueryClientSubscribe({ queryClient: client, ...persistOptions })),
    [client, persistOptions],
  )
  useEffect(() => {
    if (userId === undefined) return
    const flush = () => flushQueryCache(client, userId)
    const hidden = () => document.visibilityState === "hidden" && flush()
    window.addEventListener("pagehide", flush)
    document.addEventListener("visibilitychange", hidden)
    return () => {
      window.removeEventListener("pagehide", flush)
      document.removeEventListener("visibilitychange", hidden)
    }
  }, [client, userId])
  // The session's "expired" event means signed out or expired for good (a refreshable token emits none).
  useEffect(() => {
    if (typeof kernel.session?.onEvent !== "function") return
    return kernel.session.onEvent((event) => {
      if (event.type === "expired") clearQueryCache(client, userId)
    })
  }, [kernel, client, userId])
  return (
    <QueryClientProvider client={client}>
      <Prefetcher kernel={kernel} client={client} />
      {userId !== undefined && typeof kernel.flags?.subscribe === "function" && kernel.runtime ? <FlagsRefresher kernel={kernel} /> : null}
      {children}
    </QueryClientProvider>
  )
}
