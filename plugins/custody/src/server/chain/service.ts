/**
 * Custody on chain over the network adapters and the Ledger: deposit addresses, the deposit watcher
 * (credits each final transfer exactly once), withdraw requests (hold amount and fee) and the
 * withdrawal processor (send, then post when final or void when it failed).
 *
 * Ledger movements (keys and metadata; history readers use `metadata.gateway`):
 * - deposit: `<network>:deposit:<tx>` system:deposits -> user, `{ gateway: "top_up", network, tx_hash, address, from }`
 * - withdraw: holds `custody:withdraw:<id>:amount` user -> system:withdrawals and `custody:withdraw:<id>:fee`
 *   user -> system:fees (`{ gateway: "withdraw_onchain", network, address, withdraw_id }`); then
 *   `...:post` / `...:void` of each.
 */
import { createHash } from "node:crypto"
import { Effect, Option, Schedule } from "effect"
import { SqlClient } from "effect/sql"
import { ServerConfig, VerificationLimits } from "@wallet/kernel-server"
import { Ledger, System, userOwner, type Metadata } from "@wallet/kernel-server/ledger"
import {
  AddressCheckError,
  ChainRequestError,
  type CreateWithdrawRequest,
  type CreateWithdrawResponse,
  type DepositAddress,
  type NetworkCodeValue,
  type WithdrawLimits,
} from "../../api.ts"
import { CURRENCIES, currencyInfo, type CurrencyInfo, type NetworkCode } from "../../currencies.ts"
import { NetworkAdapters, type FinalDeposit, type NetworkAdapter, type OrderResult, type WithdrawalOrder } from "./adapter.ts"
import { ChainSettings, feeRule } from "./config.ts"
import { usdValue } from "../usdValue.ts"
import { networkAddresses, networkCursor, saveAddress, saveCursors, selectWithdrawals, userAddresses, withdrawalJson, type WithdrawalRow } from "./store.ts"

const requestError = (code: ChainRequestError["code"], message: string) => new ChainRequestError({ code, message })

/** US cents as "$1,234.56" (the limit refusal's message). */
const dollars = (cents: bigint) => `$${(Number(cents) / 100).toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`

/** The currency, its network and the adapter, or why not. */
const route = (currency: string, network: NetworkCodeValue) =>
  Effect.gen(function* () {
    const settings = yield* ChainSettings
    if (!settings.enabled) return yield* requestError("chain_unavailable", "On-chain operations are not configured on this server")
    const info = currencyInfo(currency)
    if (info === undefined || info.networks.length === 0)
      return yield* requestError("unsupported_currency", `${currency} has no on-chain deposits or withdrawals`)
    if (!info.networks.includes(network)) return yield* requestError("unsupported_network", `${currency} does not run on ${network}`)
    const adapter = (yield* NetworkAdapters)[network]
    if (adapter === undefined || !adapter.currencies.includes(info.code))
      return yield* requestError("unsupported_network", `${currency} on ${network} is not available`)
    return { info, adapter, settings }
  })

/** Defines the on-chain currencies in the Ledger (idempotent). */
export const defineChainCurrencies = Effect.gen(function* () {
  const ledger = yield* Ledger
  for (const currency of CURRENCIES) if (currency.networks.length > 0) yield* ledger.defineCurrency({ code: currency.code, decimals: currency.decimals })
})

/** Currencies already defined per Ledger instance (defining is idempotent but costs a transaction). */
const defined = new WeakMap<object, Set<string>>()

const openUserAccount = (userId: number, currency: CurrencyInfo) =>
  Effect.gen(function* () {
    const ledger = yield* Ledger
    const known = defined.get(ledger) ?? new Set<string>()
    if (!known.has(currency.code)) {
      yield* ledger.defineCurrency({ code: currency.code, decimals: currency.decimals })
      known.add(currency.code)
      defined.set(ledger, known)
    }
    return yield* ledger.openAccount({ owner: userOwner(userId), currency: currency.code })
  })

// --- deposit addresses -------------------------------------------------------------------------

/** The user's address on `network` (created on first use). */
export const ensureDepositAddress = (userId: number, adapter: NetworkAdapter) =>
  Effect.gen(function* () {
    const address = yield* adapter.deriveDepositAddress(userId)
    yield* saveAddress(userId, adapter.network, address, adapter.canonical(address))
    return address
  })

/** Get-or-create wallet (spec 1 §7): every address of the user on the currency's networks, `network`'s created. */
export const getOrCreateWallet = (userId: number, currency: string, network: NetworkCodeValue) =>
  Effect.gen(function* () {
    const { info, adapter } = yield* route(currency, network)
    yield* ensureDepositAddress(userId, adapter).pipe(Effect.mapError(() => requestError("chain_unavailable", "The address could not be created; try again")))
    const rows = yield* Effect.orDie(userAddresses(userId))
    const addresses: Array<DepositAddress> = rows
      .filter((row) => info.networks.includes(row.network))
      .map((row) => ({ address: row.address, network_code: row.network, wallet_to_replace: null }))
    return { addresses }
  })

/** Every deposit address of a user (for the accounts data of the custody module). */
export const depositAddressesOf = (userId: number) =>
  Effect.map(userAddresses(userId), (rows) => rows.map((row) => ({ network: row.network, address: row.address })))

// --- address check -----------------------------------------------------------------------------

export const validateAddress = (userId: number, currency: string, network: NetworkCodeValue, input: string) =>
  Effect.gen(function* () {
    const { adapter } = yield* route(currency, network)
    if (input.trim() === "") return yield* new AddressCheckError({ code: "invalid_address", message: "An address is required" })
    const checked = yield* adapter.validateAddress(input)
    const canonical = adapter.canonical(checked.address)
    const own = (yield* Effect.orDie(userAddresses(userId))).some((row) => row.network === network && row.canonical === canonical)
    const ownDerived = adapter.canonical(yield* Effect.orElseSucceed(adapter.deriveDepositAddress(userId), () => "")) === canonical
    if (own || ownDerived) return yield* new AddressCheckError({ code: "withdraw_to_yourself_is_forbidden", message: "This is your own deposit address" })
    const system = yield* adapter.systemAddresses.pipe(Effect.mapError(() => requestError("chain_unavailable", "The address check failed; try again")))
    if (system.includes(canonical)) return yield* new AddressCheckError({ code: "address_forbidden", message: "Withdrawals to this address are not allowed" })
    return { address: checked.address, network_code: network, domain: checked.domain, canonical }
  })

// --- withdraw limits ---------------------------------------------------------------------------

export const withdrawLimits = (userId: number, currency: string, network: NetworkCodeValue) =>
  Effect.gen(function* () {
    const { info, settings } = yield* route(currency, network)
    const rule = feeRule(settings, network, info.code)
    if (rule === undefined) return yield* requestError("unsupported_network", `No withdrawals of ${currency} on ${network}`)
    const balance = yield* Effect.orDie(openUserAccount(userId, info))
    const room = balance.available - rule.fee
    const maxSendable = room < rule.min ? 0n : room > rule.max ? rule.max : room
    return {
      currency: info.code,
      network_code: network,
      decimals: info.decimals,
      fee: rule.fee,
      min_amount: rule.min,
      max_amount: rule.max,
      max_sendable: maxSendable,
    } satisfies WithdrawLimits
  })

// --- withdraw requests -------------------------------------------------------------------------

const requestHash = (request: CreateWithdrawRequest): string =>
  createHash("sha256")
    .update(JSON.stringify([request.amount.toString(), request.currency, request.max_value, request.address.trim(), request.comment ?? "", request.network]))
    .digest("base64url")

const withdrawMetadata = (row: { readonly id: string; readonly network: string; readonly address: string }): Metadata => ({
  gateway: "withdraw_onchain",
  network: row.network,
  address: row.address,
  withdraw_id: row.id,
})

const existingAnswer = (row: WithdrawalRow, hash: string) =>
  row.requestHash === hash
    ? Effect.succeed({ kind: "transaction" as const, transaction: withdrawalJson(row) })
    : Effect.fail(requestError("idempotency_conflict", "This idempotency key was used for another withdraw request"))

/**
 * Whether this idempotency key already made this same withdraw request (its row and holds exist):
 * a retry that replays the first answer, which needs no second operation token (decision 0550).
 */
export const isWithdrawReplay = (userId: number, request: CreateWithdrawRequest) =>
  Effect.map(
    Effect.orDie(selectWithdrawals("user_id = $1 and idempotency_key = $2", [userId, request.idempotency_key])),
    ([row]) => row !== undefined && row.requestHash === requestHash(request),
  )

export const createWithdraw = (userId: number, request: CreateWithdrawRequest) =>
  Effect.gen(function* () {
    const { info, settings } = yield* route(request.currency, request.network)
    const hash = requestHash(request)
    const [existing] = yield* Effect.orDie(selectWithdrawals("user_id = $1 and idempotency_key = $2", [userId, request.idempotency_key]))
    if (existing !== undefined) return yield* existingAnswer(existing, hash)
    if (settings.withdrawalsSuspended.includes(request.network)) {
      return {
        kind: "alerting_banner",
        alerting_banner: {
          code: "withdrawals_suspended",
          title: "Withdrawals are paused",
          message: `Withdrawals on ${request.network} are temporarily unavailable. Your funds are safe; try again later.`,
        },
      } satisfies CreateWithdrawResponse
    }
    const rule = feeRule(settings, request.network, info.code)
    if (rule === undefined) return yield* requestError("unsupported_network", `No withdrawals of ${info.code} on ${request.network}`)
    const destination = yield* validateAddress(userId, info.code, request.network, request.address)
    const balance = yield* Effect.orDie(openUserAccount(userId, info))
    const amount = request.max_value ? balance.available - rule.fee : request.amount
    if (amount < rule.min) return yield* requestError("amount_too_small", `The smallest withdrawal is ${rule.min} (minor units)`)
    if (amount > rule.max) return yield* requestError("amount_too_large", `The largest withdrawal is ${rule.max} (minor units)`)
    if (amount + rule.fee > balance.available) {
      // A retry racing the first request can see the balance that request already held: answer
      // the first withdrawal, not a refusal (seen on PostgreSQL with five concurrent retries).
      const [raced] = yield* Effect.orDie(selectWithdrawals("user_id = $1 and idempotency_key = $2", [userId, request.idempotency_key]))
      if (raced !== undefined) return yield* existingAnswer(raced, hash)
      return yield* requestError("insufficient_funds", "The balance does not cover the amount and the fee")
    }

    const sql = yield* SqlClient.SqlClient
    const ledger = yield* Ledger
    // The server's clock and the verification port (both present in a server; absent in a bare service test).
    const now = Option.match(yield* Effect.serviceOption(ServerConfig), { onNone: () => Date.now(), onSome: (config) => config.now() })
    const limits = Option.getOrElse(yield* Effect.serviceOption(VerificationLimits), () => VerificationLimits.none)
    const user = { owner: userOwner(userId), currency: info.code }
    const comment = request.comment === undefined || request.comment === "" ? null : request.comment
    // Decision 0920: the withdrawal's USD value (kept on the row) and the user's allowance at their verification level.
    const usdCents = yield* yield* usdValue(info.code, amount)
    const allowance = yield* limits.allowance(userId, "withdraw_outer")
    if (allowance.limitUsdCents !== null && usdCents === undefined) {
      return yield* requestError("rate_unavailable", "The value of this withdrawal is unknown right now; try again later")
    }
    const created = yield* sql
      .withTransaction(
        Effect.gen(function* () {
          if (allowance.limitUsdCents !== null) {
            // One user's withdrawals queue on their user row, so two at once cannot both fit the same room.
            yield* sql`select id from kernel_users where id = ${userId} for update`
            const since = new Date(now - allowance.windowDays * 24 * 60 * 60 * 1000)
            const [used] = yield* sql<{ used: string }>`
              select coalesce(sum(usd_cents), 0)::text as used from custody_chain_withdrawals
               where user_id = ${userId} and status <> 'fail' and created_at > ${since}`
            const room = allowance.limitUsdCents - BigInt(used!.used)
            if (usdCents! > room) {
              const left = room > 0n ? room : 0n
              return yield* requestError(
                "verification_limit_exceeded",
                `Your verification level (${allowance.level}) allows ${dollars(allowance.limitUsdCents)} of withdrawals in ${allowance.windowDays} days; ${dollars(left)} left.` +
                  (allowance.nextLevel === null ? "" : ` Verify to ${allowance.nextLevel} to withdraw more.`),
              )
            }
          }
          const rows = yield* sql<{ id: string }>`
            insert into custody_chain_withdrawals (user_id, idempotency_key, request_hash, network, currency, amount, fee, address, canonical, domain, comment, status, usd_cents, created_at)
            values (${userId}, ${request.idempotency_key}, ${hash}, ${request.network}, ${info.code}, ${amount.toString()}::numeric, ${rule.fee.toString()}::numeric,
                    ${destination.address}, ${destination.canonical}, ${destination.domain}, ${comment}, 'pending', ${usdCents === undefined ? null : usdCents.toString()}::bigint,
                    ${new Date(now)})
            on conflict (user_id, idempotency_key) do nothing
            returning id::text as id`
          if (rows.length === 0) return undefined
          const id = rows[0]!.id
          const metadata = withdrawMetadata({ id, network: request.network, address: destination.address })
          const amountHold = yield* ledger.hold({
            key: `custody:withdraw:${id}:amount`,
            from: user,
            to: { owner: System.withdrawals, currency: info.code },
            amount,
            metadata: { ...metadata, comment },
          })
          const feeHold =
            rule.fee > 0n
              ? yield* ledger.hold({
                  key: `custody:withdraw:${id}:fee`,
                  from: user,
                  to: { owner: System.fees, currency: info.code },
                  amount: rule.fee,
                  metadata: { ...metadata, fee: true },
                })
              : undefined
          yield* sql`update custody_chain_withdrawals set amount_hold_id = ${amountHold.holdId}, fee_hold_id = ${feeHold?.holdId ?? null} where id = ${id}::bigint`
          return id
        }),
      )
      .pipe(
        Effect.catchTag("InsufficientFunds", () => Effect.fail(requestError("insufficient_funds", "The balance does not cover the amount and the fee"))),
        Effect.catchTag("IdempotencyConflict", () => Effect.fail(requestError("idempotency_conflict", "This request conflicts with an earlier one"))),
        Effect.catchTags({
          SqlError: (error) => Effect.die(error),
          UnknownAccount: (error) => Effect.die(error),
          UnknownCurrency: (error) => Effect.die(error),
          UnknownHold: (error) => Effect.die(error),
          HoldNotPending: (error) => Effect.die(error),
          InvalidMovement: (error) => Effect.die(error),
        }),
      )
    const [row] = yield* Effect.orDie(
      created === undefined
        ? selectWithdrawals("user_id = $1 and idempotency_key = $2", [userId, request.idempotency_key])
        : selectWithdrawals("id = $1::bigint", [created]),
    )
    if (row === undefined) return yield* Effect.die(new Error("withdrawal row vanished"))
    if (created === undefined) return yield* existingAnswer(row, hash)
    return { kind: "transaction", transaction: withdrawalJson(row) } satisfies CreateWithdrawResponse
  })

export const getWithdraw = (userId: number, id: string) =>
  Effect.map(Effect.orDie(selectWithdrawals("id = $1::bigint and user_id = $2", [id, userId])), (rows) => rows[0])

// --- deposit watcher ---------------------------------------------------------------------------

/** Credits one final deposit exactly once (the deposits row and the Ledger movement commit together). */
export const creditDeposit = (network: NetworkCode, userId: number, deposit: FinalDeposit) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const ledger = yield* Ledger
    const info = currencyInfo(deposit.currency)
    if (info === undefined) return false
    yield* openUserAccount(userId, info)
    const key = `${network}:deposit:${deposit.txHash}`
    return yield* sql.withTransaction(
      Effect.gen(function* () {
        const rows = yield* sql<{ id: string }>`
          insert into custody_chain_deposits (network, tx_hash, user_id, address, from_address, currency, amount, ledger_key)
          values (${network}, ${deposit.txHash}, ${userId}, ${deposit.to}, ${deposit.from}, ${deposit.currency}, ${deposit.amount.toString()}::numeric, ${key})
          on conflict (network, tx_hash) do nothing
          returning id::text as id`
        if (rows.length === 0) return false
        yield* ledger.transfer({
          key,
          legs: [{ from: { owner: System.deposits, currency: info.code }, to: { owner: userOwner(userId), currency: info.code }, amount: deposit.amount }],
          metadata: { gateway: "top_up", network, tx_hash: deposit.txHash, address: deposit.to, from: deposit.from },
        })
        return true
      }),
    )
  })

/** One scan of one network: credits what became final, then stores the cursors. Returns how many were credited. */
export const watchNetworkOnce = (adapter: NetworkAdapter) =>
  Effect.gen(function* () {
    const addresses = yield* networkAddresses(adapter.network)
    if (addresses.length === 0) return 0
    const owners = new Map(addresses.map((row) => [row.address, row.userId]))
    const cursor = yield* networkCursor(adapter.network)
    const result = yield* adapter.watchDeposits({ addresses: addresses.map((row) => ({ address: row.address, cursor: row.cursor })), cursor })
    let credited = 0
    for (const deposit of result.deposits) {
      const userId = owners.get(deposit.to)
      if (userId === undefined) continue
      if (yield* creditDeposit(adapter.network, userId, deposit)) credited++
    }
    // Only what moved: an idle round writes nothing.
    const before = new Map(addresses.map((row) => [row.address, row.cursor]))
    const changed = new Map([...result.addressCursors].filter(([address, value]) => before.get(address) !== value))
    yield* saveCursors(adapter.network, result.cursor === cursor ? null : result.cursor, changed)
    return credited
  })

// --- withdrawal processor ----------------------------------------------------------------------

const orderOf = (row: WithdrawalRow): WithdrawalOrder => ({ id: row.id, to: row.address, currency: row.currency, amount: row.amount, comment: row.comment })

/** Posts (ok) or voids (failed) one withdrawal's holds and records the outcome; idempotent. */
export const finishWithdrawal = (row: WithdrawalRow, result: OrderResult) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const ledger = yield* Ledger
    yield* sql.withTransaction(
      Effect.gen(function* () {
        const updated = yield* sql<{ id: string }>`
          update custody_chain_withdrawals set status = ${result.ok ? "success" : "fail"}, tx_hash = ${result.txHash}, failure_reason = ${result.reason}, updated_at = now()
          where id = ${row.id}::bigint and status in ('pending', 'processing') returning id::text as id`
        if (updated.length === 0) return
        const holds = [
          [row.amountHoldId, "amount"],
          [row.feeHoldId, "fee"],
        ] as const
        for (const [holdId, part] of holds) {
          if (holdId === null) continue
          const key = `custody:withdraw:${row.id}:${part}:${result.ok ? "post" : "void"}`
          if (result.ok) yield* ledger.postHold({ key, holdId, metadata: { ...withdrawMetadata(row), tx_hash: result.txHash } })
          else yield* ledger.voidHold({ key, holdId, metadata: { ...withdrawMetadata(row), reason: result.reason } })
        }
      }),
    )
  })

interface OpenBatch {
  readonly id: string
  readonly ref: string
  readonly status: "prepared" | "sent"
}

const openBatchOf = (network: NetworkCode) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const [open] = yield* sql<OpenBatch>`
      select id::text as id, ref, status from custody_chain_batches where network = ${network} and status <> 'done' order by id limit 1`.unprepared
    return open
  })

const closeBatch = (id: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* sql`update custody_chain_batches set status = 'done', updated_at = now() where id = ${id}::bigint`
  })

/** Moves the open batch on: broadcast it (prepared), or read its outcome and finish its withdrawals (sent). */
const advanceBatch = (adapter: NetworkAdapter, open: OpenBatch) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* selectWithdrawals("batch_id = $1::bigint and status in ('pending', 'processing') order by id", [open.id])
    if (rows.length === 0) return yield* closeBatch(open.id)
    if (open.status === "prepared") {
      const sent = yield* adapter.broadcast(open.ref)
      if (sent._tag === "Rejected") {
        for (const row of rows) yield* finishWithdrawal(row, { ok: false, txHash: null, reason: `rejected: ${sent.reason}` })
        return yield* closeBatch(open.id)
      }
      for (const row of rows) {
        const reason = sent.rejected.get(row.id)
        if (reason !== undefined) yield* finishWithdrawal(row, { ok: false, txHash: null, reason: `rejected: ${reason}` })
      }
      yield* sql.withTransaction(
        Effect.gen(function* () {
          yield* sql`update custody_chain_batches set status = 'sent', updated_at = now() where id = ${open.id}::bigint`
          yield* sql`update custody_chain_withdrawals set status = 'processing', updated_at = now() where batch_id = ${open.id}::bigint and status = 'pending'`
        }),
      )
      return
    }
    const status = yield* adapter.withdrawalStatus(open.ref, rows.map(orderOf))
    if (status._tag === "Pending") return
    for (const row of rows) yield* finishWithdrawal(row, status.results.get(row.id) ?? { ok: false, txHash: null, reason: "no outcome" })
    yield* closeBatch(open.id)
  })

/** One step of one network's withdrawals: move the open batch on, or prepare and broadcast the next one. */
export const processNetworkOnce = (adapter: NetworkAdapter) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const network = adapter.network
    const open = yield* openBatchOf(network)
    if (open !== undefined) return yield* advanceBatch(adapter, open)

    const queued = yield* selectWithdrawals("network = $1 and status = 'pending' and batch_id is null order by id limit $2", [network, adapter.maxBatch * 2])
    if (queued.length === 0) return
    // Two look-alike orders in one batch could not be told apart on chain: the second waits.
    const seen = new Set<string>()
    const batch = queued
      .filter((row) => {
        const key = `${row.canonical}|${row.currency}|${row.amount}`
        if (seen.has(key)) return false
        seen.add(key)
        return true
      })
      .slice(0, adapter.maxBatch)
    const orders = batch.map(orderOf)
    const prepared = yield* adapter
      .prepareWithdrawals(orders)
      .pipe(
        Effect.catchTag("HotWalletLow", (low) =>
          adapter.fundHotWallet === undefined
            ? Effect.logWarning(`custody ${network}: ${low.message}; withdrawals wait`).pipe(Effect.as(undefined))
            : adapter.fundHotWallet(orders).pipe(Effect.as(undefined)),
        ),
      )
    if (prepared === undefined) return
    const created = yield* sql.withTransaction(
      Effect.gen(function* () {
        const [row] = yield* sql<{
          id: string
        }>`insert into custody_chain_batches (network, ref, status) values (${network}, ${prepared}, 'prepared') returning id::text as id`
        yield* sql.unsafe(
          `update custody_chain_withdrawals set batch_id = $1::bigint, updated_at = now() where id = any($2::bigint[]) and status = 'pending' and batch_id is null`,
          [row!.id, batch.map((w) => w.id)],
        )
        return row!.id
      }),
    )
    // Broadcast right away; the stored ref makes a crash before this harmless (the next step sends it).
    yield* advanceBatch(adapter, { id: created, ref: prepared, status: "prepared" })
  })

// --- background --------------------------------------------------------------------------------

/** When each (network, step) last logged a warning: a chain that stays down logs once a minute, not every round. */
const lastWarned = new Map<string, number>()
const WARN_EVERY_MS = 60_000

const quietly = (what: string, network: string, effect: Effect.Effect<unknown, unknown, any>) =>
  effect.pipe(
    Effect.catchCause((cause) => {
      const key = `${network}:${what}`
      const now = Date.now()
      if (now - (lastWarned.get(key) ?? 0) < WARN_EVERY_MS) return Effect.logDebug(`custody ${network} ${what} failed`, cause)
      lastWarned.set(key, now)
      return Effect.logWarning(`custody ${network} ${what} failed (repeats are logged at debug level for a minute)`, cause)
    }),
    Effect.asVoid,
  )

/** One round over every network: the watcher, then the withdrawal processor. */
export const chainRound = Effect.gen(function* () {
  const adapters = Object.values(yield* NetworkAdapters).filter((adapter): adapter is NetworkAdapter => adapter !== undefined)
  yield* Effect.forEach(
    adapters,
    (adapter) =>
      Effect.andThen(quietly("watcher", adapter.network, watchNetworkOnce(adapter)), quietly("withdrawals", adapter.network, processNetworkOnce(adapter))),
    { concurrency: "unbounded", discard: true },
  )
})

/** The watcher and processor as one background loop (every `pollMs`), for the server's scope. */
export const chainLoop = Effect.gen(function* () {
  const settings = yield* ChainSettings
  if (!settings.enabled) return
  yield* defineChainCurrencies.pipe(Effect.retry(Schedule.spaced("1 second")), Effect.orDie)
  yield* chainRound.pipe(Effect.repeat(Schedule.spaced(`${settings.pollMs} millis`)))
})
