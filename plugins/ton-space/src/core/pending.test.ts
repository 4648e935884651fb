import { Effect, Schema } from "effect"
import { describe, expect, it } from "vitest"
import { Chain, ChainError, type AccountEvent } from "@wallet/kernel/chain"
import {
  addPending,
  applyObservation,
  emptyPendingState,
  observe,
  PENDING_MAX_FAILED_FETCHES,
  pendingIdOf,
  pendingKey,
  pendingStatus,
  PendingTransaction,
  type PendingState,
} from "./pending.ts"

const base = {
  account: "0:abc",
  createdAt: 1_000,
  actions: [{ type: "TonTransfer" as const, status: "pending" as const, amount: "100", currency: "TON", decimals: 9, recipient: "0:def" }],
}
const withHash = (hash = "aa") => addPending(emptyPendingState, { ...base, id: { kind: "messageHash", hash } })

const event = (over: Partial<AccountEvent>): AccountEvent => ({
  event_id: "ev1",
  account: { address: "0:abc", is_scam: false, is_wallet: true },
  timestamp: 2,
  actions: [{ type: "TonTransfer", status: "ok", simple_preview: { name: "", description: "", accounts: [] }, base_transactions: [] }],
  is_scam: false,
  lt: 1,
  in_progress: false,
  extra: 0n,
  ...over,
})

describe("pending lifecycle (spec 2 §4)", () => {
  it("identifies by stars, escrow, message hash, seqno in that order", () => {
    expect(pendingIdOf({ starsTransactionId: "s", escrowTransactionId: "e", messageHash: "h", seqno: 1 })).toEqual({ kind: "stars", id: "s" })
    expect(pendingIdOf({ escrowTransactionId: "e", messageHash: "h", seqno: 1 })).toEqual({ kind: "escrow", id: "e" })
    expect(pendingIdOf({ messageHash: "h", seqno: 1 })).toEqual({ kind: "messageHash", hash: "h" })
    expect(pendingIdOf({ seqno: 3 })).toEqual({ kind: "seqno", seqno: 3 })
    expect(pendingIdOf({})).toBeNull()
  })

  it("adds once per id", () => {
    const state = withHash()
    expect(addPending(state, { ...base, id: { kind: "messageHash", hash: "aa" } }).pending).toHaveLength(1)
  })

  it("finalizes with the event id and asks for a refresh; success once the event shows without failed actions", () => {
    const state = withHash()
    const key = pendingKey({ kind: "messageHash", hash: "aa" })
    expect(pendingStatus(state.pending[0]!)).toBe("pending")
    const t = applyObservation(state, key, { kind: "final", eventId: "ev1", failedActions: false }, 5_000)
    expect(t).toMatchObject({ refresh: true, outcome: "finalized" })
    expect(t.state.pending).toHaveLength(0)
    expect(t.state.finalized[0]).toMatchObject({ eventId: "ev1", finalizedAt: 5_000, isFailed: false })
    expect(pendingStatus(t.state.finalized[0]!, [])).toBe("pending")
    expect(pendingStatus(t.state.finalized[0]!, [event({})])).toBe("success")
    expect(pendingStatus(t.state.finalized[0]!, [event({ actions: [{ ...event({}).actions[0]!, status: "failed" }] })])).toBe("failed")
  })

  it("a final event without an id is removed, not kept", () => {
    const t = applyObservation(withHash(), "hash:aa", { kind: "final", failedActions: false }, 1)
    expect(t.state).toEqual({ pending: [], finalized: [] })
  })

  it("failed: every action failed, moved to finalized with isFailed and a time", () => {
    const state = addPending(emptyPendingState, { ...base, id: { kind: "stars", id: "7" } })
    const t = applyObservation(state, "stars:7", { kind: "failed" }, 9)
    expect(t.outcome).toBe("failed")
    expect(t.state.finalized[0]).toMatchObject({ isFailed: true, finalizedAt: 9 })
    expect(t.state.finalized[0]!.actions.every((a) => a.status === "failed")).toBe(true)
    expect(pendingStatus(t.state.finalized[0]!)).toBe("failed")
  })

  it("waiting keeps the item untouched; it is dropped after 24 failed fetches", () => {
    let state: PendingState = withHash()
    expect(applyObservation(state, "hash:aa", { kind: "waiting" }, 1).state).toBe(state)
    for (let i = 1; i < PENDING_MAX_FAILED_FETCHES; i++) {
      const t = applyObservation(state, "hash:aa", { kind: "fetchFailed" }, i)
      expect(t.outcome).toBe("kept")
      state = t.state
    }
    expect(state.pending[0]!.failedFetches).toBe(23)
    const last = applyObservation(state, "hash:aa", { kind: "fetchFailed" }, 99)
    expect(last.outcome).toBe("dropped")
    expect(last.state).toEqual({ pending: [], finalized: [] })
  })

  it("observe by message hash: in progress waits, final finalizes, a failed lookup counts as a failed fetch", async () => {
    const tx = withHash().pending[0]!
    const run = (impl: Parameters<typeof Chain.layerTest>[0]) => Effect.runPromise(observe(tx).pipe(Effect.provide(Chain.layerTest(impl))))
    expect(await run({ getAccountEvent: () => Effect.succeed(event({ in_progress: true })) })).toEqual({ kind: "waiting" })
    expect(await run({ getAccountEvent: () => Effect.succeed(event({ event_id: "root" })) })).toEqual({ kind: "final", eventId: "root", failedActions: false })
    expect(await run({ getAccountEvent: () => Effect.fail(new ChainError({ reason: "Status", status: 404, message: "event not found" })) })).toEqual({
      kind: "fetchFailed",
    })
  })

  it("observe by seqno: waits until the account seqno passes it", async () => {
    const tx = addPending(emptyPendingState, { ...base, createdAt: 2_000, id: { kind: "seqno", seqno: 4 } }).pending[0]!
    const events = { events: [event({ event_id: "s4", timestamp: 2 })], next_from: 0 }
    const run = (seqno: number) =>
      Effect.runPromise(observe(tx).pipe(Effect.provide(Chain.layerTest({ getSeqno: () => Effect.succeed(seqno), getEvents: () => Effect.succeed(events) }))))
    expect(await run(4)).toEqual({ kind: "waiting" })
    expect(await run(5)).toEqual({ kind: "final", eventId: "s4", failedActions: false })
  })
})

describe("pending actions", () => {
  it("keep an extra-currency send as ExtraCurrencyTransfer through the stored form", () => {
    const stored = {
      key: "messageHash:" + "ab".repeat(32),
      failedFetches: 0,
      id: { kind: "messageHash", hash: "ab".repeat(32) },
      account: "0:" + "cd".repeat(32),
      createdAt: 1,
      actions: [{ type: "ExtraCurrencyTransfer", status: "pending", amount: "25000", currency: "DXC", decimals: 4, recipient: "0:" + "ef".repeat(32) }],
    }
    const decoded = Schema.decodeUnknownSync(PendingTransaction)(JSON.parse(JSON.stringify(stored)))
    expect(decoded.actions[0]).toMatchObject({ type: "ExtraCurrencyTransfer", currency: "DXC", amount: "25000" })
  })
})
