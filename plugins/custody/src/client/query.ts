/**
 * How custody's screens read a query (decision 0320): the same three states they always drew
 * (loading, a value, an error with retry). A retry after an error shows the loading state again;
 * a failed background refetch keeps the value on screen.
 */
export type Loaded<A> = { readonly state: "loading" } | { readonly state: "ok"; readonly value: A } | { readonly state: "error"; readonly error: unknown }

interface QueryView {
  readonly status: "pending" | "error" | "success"
  readonly data: unknown
  readonly error: unknown
  readonly isFetching: boolean
}

/** The query's data type (a query's data is never undefined once it has some). */
type DataOf<Q extends QueryView> = Exclude<Q["data"], undefined>

export const loadedOf = <Q extends QueryView>(query: Q): Loaded<DataOf<Q>> =>
  query.data !== undefined && query.status !== "pending"
    ? { state: "ok", value: query.data as DataOf<Q> }
    : query.status === "error" && !query.isFetching
      ? { state: "error", error: query.error }
      : { state: "loading" }

/** A send-side call's `{ ok, value | error }` as a query function's answer (an error rejects). */
export const unwrap = <A>(result: { ok: true; value: A } | { ok: false; error: unknown }): A => {
  if (!result.ok) throw result.error
  return result.value
}

/** A view that never shows data older than what is being fetched (balances right after money moved). */
export const freshLoadedOf = <Q extends QueryView & { readonly isStale: boolean }>(query: Q): Loaded<DataOf<Q>> =>
  query.isFetching && query.isStale ? { state: "loading" } : loadedOf(query)

/** A send screen's view of a query: its state and a retry. */
export const asLoad = <Q extends QueryView & { readonly refetch: () => Promise<unknown> }>(
  query: Q,
): { readonly load: Loaded<DataOf<Q>>; readonly reload: () => void } => ({
  load: loadedOf(query),
  reload: () => void query.refetch(),
})

/**
 * Send-side checks (limits, an address, a search) are asked again on every visit, never answered
 * from an older visit: a balance may have moved since (gcTime 0 drops them with their screen).
 */
export const FRESH_EACH_VISIT = { gcTime: 0 } as const
