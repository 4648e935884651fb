/**
 * Pending transactions (spec 2 §4 "Pending transactions", §9): a sent transfer waits in the pending
 * list until its event is final, then moves to the finalized list; after 24 failed fetches it is
 * dropped. The reducer is pure; `observe` asks the Chain service once (the screen calls it every 5 s).
 */
import { Effect, Schema } from "effect"
import { Chain } from "@wallet/kernel/chain"

export const PENDING_CHECK_INTERVAL_MS = 5_000
export const PENDING_MAX_FAILED_FETCHES = 24
/** After finalization, asset addresses and collectibles are refetched after this delay. */
export const POST_FINALIZATION_REFETCH_MS = 5_000

export const PendingId = Schema.Union([
  Schema.Struct({ kind: Schema.Literal("stars"), id: Schema.String }),
  Schema.Struct({ kind: Schema.Literal("escrow"), id: Schema.String }),
  Schema.Struct({ kind: Schema.Literal("messageHash"), hash: Schema.String }),
  Schema.Struct({ kind: Schema.Literal("seqno"), seqno: Schema.Number }),
])
export type PendingId = typeof PendingId.Type

export const PendingAction = Schema.Struct({
  type: Schema.Literals(["TonTransfer", "JettonTransfer", "NftItemTransfer", "ExtraCurrencyTransfer"]),
  status: Schema.Literals(["pending", "ok", "failed"]),
  /** Minor units as a decimal string. */
  amount: Schema.String,
  currency: Schema.String,
  decimals: Schema.Number,
  recipient: Schema.String,
  comment: Schema.optionalKey(Schema.String),
})
export type PendingAction = typeof PendingAction.Type

export const PendingTransaction = Schema.Struct({
  key: Schema.String,
  id: PendingId,
  /** The sending wallet (raw). */
  account: Schema.String,
  createdAt: Schema.Number,
  failedFetches: Schema.Number,
  actions: Schema.Array(PendingAction),
})
export type PendingTransaction = typeof PendingTransaction.Type

export const FinalizedTransaction = Schema.Struct({
  ...PendingTransaction.fields,
  eventId: Schema.optionalKey(Schema.String),
  finalizedAt: Schema.Number,
  isFailed: Schema.Boolean,
})
export type FinalizedTransaction = typeof FinalizedTransaction.Type

export const PendingState = Schema.Struct({ pending: Schema.Array(PendingTransaction), finalized: Schema.Array(FinalizedTransaction) })
export type PendingState = typeof PendingState.Type
export const emptyPendingState: PendingState = { pending: [], finalized: [] }

/** The identifier of a transaction by the spec's preference: stars, escrow, message hash, seqno. */
export const pendingIdOf = (ids: { starsTransactionId?: string; escrowTransactionId?: string; messageHash?: string; seqno?: number }): PendingId | null =>
  ids.starsTransactionId !== undefined
    ? { kind: "stars", id: ids.starsTransactionId }
    : ids.escrowTransactionId !== undefined
      ? { kind: "escrow", id: ids.escrowTransactionId }
      : ids.messageHash !== undefined
        ? { kind: "messageHash", hash: ids.messageHash }
        : ids.seqno !== undefined
          ? { kind: "seqno", seqno: ids.seqno }
          : null

export const pendingKey = (id: PendingId): string =>
  id.kind === "messageHash" ? `hash:${id.hash}` : id.kind === "seqno" ? `seqno:${id.seqno}` : `${id.kind}:${id.id}`

export const addPending = (state: PendingState, tx: Omit<PendingTransaction, "key" | "failedFetches">): PendingState => {
  const key = pendingKey(tx.id)
  if (state.pending.some((p) => p.key === key)) return state
  return { ...state, pending: [...state.pending, { ...tx, key, failedFetches: 0 }] }
}

/** What one check found. */
export type Observation =
  /** Found and still in progress (or the seqno is not reached yet). */
  | { readonly kind: "waiting" }
  /** The lookup failed (network, 404 before indexing, ...). */
  | { readonly kind: "fetchFailed" }
  /** Final: removed from pending, kept as finalized when an event id exists. */
  | { readonly kind: "final"; readonly eventId?: string; readonly failedActions: boolean }
  /** The service says it failed (stars / escrow status failed). */
  | { readonly kind: "failed" }

export interface Transition {
  readonly state: PendingState
  /** The wallet should refetch (jettons, account; addresses and collectibles after 5 s). */
  readonly refresh: boolean
  readonly outcome: "kept" | "finalized" | "failed" | "dropped"
}

/** Applies one observation to the pending item with `key`. */
export const applyObservation = (state: PendingState, key: string, observation: Observation, now: number): Transition => {
  const tx = state.pending.find((p) => p.key === key)
  if (!tx) return { state, refresh: false, outcome: "kept" }
  const without = state.pending.filter((p) => p.key !== key)
  switch (observation.kind) {
    case "waiting":
      return { state, refresh: false, outcome: "kept" }
    case "fetchFailed": {
      const failedFetches = tx.failedFetches + 1
      if (failedFetches >= PENDING_MAX_FAILED_FETCHES) return { state: { ...state, pending: without }, refresh: false, outcome: "dropped" }
      return { state: { ...state, pending: state.pending.map((p) => (p.key === key ? { ...p, failedFetches } : p)) }, refresh: false, outcome: "kept" }
    }
    case "failed": {
      const finalized: FinalizedTransaction = { ...tx, actions: tx.actions.map((a) => ({ ...a, status: "failed" as const })), finalizedAt: now, isFailed: true }
      return { state: { pending: without, finalized: [...state.finalized, finalized] }, refresh: true, outcome: "failed" }
    }
    case "final": {
      const status = observation.failedActions ? ("failed" as const) : ("ok" as const)
      const finalized: ReadonlyArray<FinalizedTransaction> =
        observation.eventId === undefined
          ? state.finalized
          : [
              ...state.finalized,
              {
                ...tx,
                actions: tx.actions.map((a) => ({ ...a, status })),
                eventId: observation.eventId,
                finalizedAt: now,
                isFailed: observation.failedActions,
              },
            ]
      return { state: { pending: without, finalized }, refresh: true, outcome: "finalized" }
    }
  }
}

export type PendingStatus = "pending" | "success" | "failed"

/**
 * A pending item is a success once finalized and its event shows in the account events without
 * failed actions; failed when isFailed is set or an action failed.
 */
export const pendingStatus = (
  item: PendingTransaction | FinalizedTransaction,
  accountEvents: ReadonlyArray<{ readonly event_id: string; readonly actions: ReadonlyArray<{ readonly status: string }> }> = [],
): PendingStatus => {
  if (!("finalizedAt" in item)) return "pending"
  if (item.isFailed || item.actions.some((a) => a.status === "failed")) return "failed"
  const event = accountEvents.find((e) => e.event_id === item.eventId)
  if (event?.actions.some((a) => a.status === "failed")) return "failed"
  return event ? "success" : "pending"
}

/** Stars and escrow lookups belong to their own services (other plugins); without them those items wait. */
export interface ServiceLookups {
  readonly stars?: (id: string) => Effect.Effect<{ readonly blockchainTxHash?: string; readonly status: string }>
  readonly escrow?: (id: string) => Effect.Effect<{ readonly withdrawalTxHash?: string; readonly status: string }>
}

/** Asks once: by message hash the event must be out of progress; by seqno the account seqno must pass it. */
export const observe = (tx: PendingTransaction, lookups: ServiceLookups = {}): Effect.Effect<Observation, never, Chain> =>
  Effect.gen(function* () {
    const chain = yield* Chain
    const id = tx.id
    switch (id.kind) {
      case "messageHash": {
        const event = yield* chain.getAccountEvent(tx.account, id.hash)
        if (event.in_progress) return { kind: "waiting" } as const
        return { kind: "final", eventId: event.event_id, failedActions: event.actions.some((a) => a.status !== "ok") } as const
      }
      case "seqno": {
        const seqno = yield* chain.getSeqno(tx.account)
        if (seqno <= id.seqno) return { kind: "waiting" } as const
        const page = yield* chain.getEvents(tx.account, { limit: 10, initiator: true })
        const event = page.events.find((e) => e.timestamp * 1000 >= tx.createdAt - 60_000)
        if (!event || event.in_progress) return { kind: "waiting" } as const
        return { kind: "final", eventId: event.event_id, failedActions: event.actions.some((a) => a.status !== "ok") } as const
      }
      case "stars": {
        if (!lookups.stars) return { kind: "waiting" } as const
        const r = yield* lookups.stars(id.id)
        if (r.status === "failed") return { kind: "failed" } as const
        return r.blockchainTxHash ? ({ kind: "final", eventId: r.blockchainTxHash, failedActions: false } as const) : ({ kind: "waiting" } as const)
      }
      case "escrow": {
        if (!lookups.escrow) return { kind: "waiting" } as const
        const r = yield* lookups.escrow(id.id)
        if (r.status === "failed") return { kind: "failed" } as const
        return r.withdrawalTxHash ? ({ kind: "final", eventId: r.withdrawalTxHash, failedActions: false } as const) : ({ kind: "waiting" } as const)
      }
    }
  }).pipe(Effect.catch(() => Effect.succeed({ kind: "fetchFailed" } as const)))
