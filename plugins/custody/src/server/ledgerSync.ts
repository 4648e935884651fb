/**
 * Brings Ledger movements that other parts made (the chain half's deposits and withdrawals, any
 * plugin that sets `metadata.gateway`) into the user's history before it is read: entries of the
 * user's accounts newer than the last one seen, of kind transfer or hold (or the post that credits a
 * P2P buyer, or the pay side of a conversion), with a known gateway,
 * become rows keyed by the movement's key (rows custody wrote itself already carry that key).
 * Pending hold rows (withdrawals) follow their hold: posted -> success, voided/expired -> fail.
 *
 * Custody's own transfer holds are not imported as plain rows: a sender's entry whose transfer rows
 * are missing (a read between a creation's hold and its rows, or the process stopped there) writes
 * those rows, linked to the transfer, as the creation would (docs/decisions/0801).
 */
import { Effect, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { Ledger, userOwner, type HistoryEntry, type HoldStatus } from "@wallet/kernel-server/ledger"
import { Gateway, NetworkCode, type TransactionStatus } from "../api.ts"
import { recordTransaction } from "./history.ts"
import { holdKey, linkTransferHolds } from "./transfers.ts"

const isGateway = Schema.is(Gateway)
const isNetwork = Schema.is(NetworkCode)
const PAGE = 200
const FIRST_PAGE = 10
/** Most entries looked at per read (older ones are caught up by the next reads). */
const MAX_SCAN = 2_000

const text = (value: unknown): string | null => (typeof value === "string" && value.length > 0 ? value : null)

export const holdStatusToRow = (status: HoldStatus): TransactionStatus => (status === "pending" ? "pending" : status === "posted" ? "success" : "fail")

const importEntry = (userId: number, entry: HistoryEntry) =>
  Effect.gen(function* () {
    const ledger = yield* Ledger
    const gateway = entry.metadata.gateway
    // A P2P order's crypto reaches the buyer as the post of its hold (decision 1000): that credit is a row too.
    const p2pCredit = entry.kind === "post" && typeof gateway === "string" && gateway.startsWith("p2p_") && entry.amount > 0n
    // A conversion (decision 1100) is one row: what the user paid, with what they received as its pair.
    const exchange = entry.kind === "convert" && gateway === "crypto_exchange"
    if (exchange && (entry.amount > 0n || entry.currency !== entry.metadata.payCurrency || `${-entry.amount}` !== entry.metadata.payNet)) return
    if (!isGateway(gateway) || (entry.kind !== "transfer" && entry.kind !== "hold" && !p2pCredit && !exchange) || entry.key.endsWith(":fee")) return
    const network = entry.metadata.network
    let status: TransactionStatus = "success"
    let fee: bigint | null = null
    if (entry.kind === "hold" && entry.holdId !== null) {
      status = holdStatusToRow((yield* ledger.getHold(entry.holdId)).status)
      if (entry.key.endsWith(":amount")) {
        const feeMovement = yield* ledger.movement(`${entry.key.slice(0, -":amount".length)}:fee`)
        const feeEntry = feeMovement?.entries.find((leg) => leg.owner === userOwner(userId))
        fee = feeEntry === undefined ? null : -feeEntry.amount
      }
    }
    const exchangeFee = entry.metadata.fee
    if (exchange) fee = typeof exchangeFee === "string" && /^[1-9][0-9]*$/.test(exchangeFee) ? BigInt(exchangeFee) : null
    const from = text(entry.metadata.from)
    const pair =
      exchange && typeof entry.metadata.receiveAmount === "string" && typeof entry.metadata.receiveCurrency === "string"
        ? { pairAmount: entry.metadata.receiveAmount, pairCurrency: entry.metadata.receiveCurrency, platform: "Wallet" }
        : {}
    yield* recordTransaction({
      userId,
      type: entry.amount > 0n ? "deposit" : "withdraw",
      gateway,
      currency: entry.currency,
      // A conversion's row shows all the user paid (the fee included; metadata.payAmount, minor units).
      amount: exchange && typeof entry.metadata.payAmount === "string" ? BigInt(entry.metadata.payAmount) : entry.amount < 0n ? -entry.amount : entry.amount,
      status,
      ledgerKey: entry.key,
      createdAt: entry.createdAt,
      network: isNetwork(network) ? network : null,
      address: text(entry.metadata.address),
      txHash: text(entry.metadata.tx_hash),
      fee,
      comment: text(entry.metadata.comment),
      details: {
        ...(entry.holdId !== null ? { holdId: entry.holdId } : {}),
        ...(from !== null && entry.amount > 0n ? { inputAddresses: [from] } : {}),
        ...pair,
      },
    })
  })

export const syncUserHistory = (userId: number) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const ledger = yield* Ledger
    const owner = userOwner(userId)
    const [state] = yield* sql<{ last_entry_id: string }>`select last_entry_id::text as last_entry_id from custody_history_sync where user_id = ${userId}`
    const last = state === undefined ? 0n : BigInt(state.last_entry_id)
    const fresh: Array<HistoryEntry> = []
    let before: string | undefined
    // A small first page: usually nothing is new.
    let limit = FIRST_PAGE
    scan: for (let scanned = 0; scanned < MAX_SCAN; scanned += limit, limit = PAGE) {
      const page = yield* ledger.ownerHistory(owner, { limit, ...(before !== undefined ? { before } : {}) })
      for (const entry of page) {
        if (BigInt(entry.entryId) <= last) break scan
        fresh.push(entry)
      }
      if (page.length < limit) break
      before = page[page.length - 1]!.entryId
    }
    // The user's own transfer holds become their transfer rows (linked), never plain rows.
    const isOwnTransferHold = (entry: HistoryEntry) =>
      entry.kind === "hold" && entry.holdId !== null && entry.metadata.gateway === "tg_transfer" && entry.key.startsWith(holdKey(userId, ""))
    const transferHolds = fresh.filter(isOwnTransferHold)
    const unlinked =
      transferHolds.length === 0
        ? new Set<string>()
        : yield* linkTransferHolds(transferHolds.map((entry) => ({ key: entry.key, holdId: entry.holdId!, metadata: entry.metadata })))
    // Oldest first, so imported rows get ids in time order.
    for (const entry of fresh.toReversed()) if (!isOwnTransferHold(entry) || unlinked.has(entry.key)) yield* importEntry(userId, entry)
    if (fresh.length > 0) {
      const newest = fresh[0]!.entryId
      yield* sql`insert into custody_history_sync (user_id, last_entry_id) values (${userId}, ${newest}::bigint)
        on conflict (user_id) do update set last_entry_id = greatest(custody_history_sync.last_entry_id, excluded.last_entry_id)`
    }
    // Pending holds of others (withdrawals) follow their hold's state.
    const pending = yield* sql<{ id: string; hold_id: string }>`
      select id::text as id, details->>'holdId' as hold_id from custody_transactions
       where user_id = ${userId} and status = 'pending' and transfer_id is null and details ? 'holdId'`
    for (const row of pending) {
      const hold = yield* ledger.getHold(row.hold_id).pipe(Effect.option)
      if (hold._tag === "None" || hold.value.status === "pending") continue
      yield* sql`update custody_transactions set status = ${holdStatusToRow(hold.value.status)}, updated_at = ${hold.value.resolvedAt ?? new Date()} where id = ${row.id}::bigint`
    }
  }).pipe(Effect.orDie)
