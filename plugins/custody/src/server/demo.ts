/**
 * Demo data (dev servers only): the "balances" demo user gets balances, a history of several
 * gateways, transfers with another demo user and a frozen balance, all through the Ledger with
 * fixed idempotency keys, so a restart replays instead of doubling anything.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ServerConfig } from "@wallet/kernel-server"
import { Ledger, System, type Leg } from "@wallet/kernel-server/ledger"
import type { Gateway, NetworkCode, TransactionType } from "../api.ts"
import { currencyInfo, parseAmount } from "../currencies.ts"
import { freezeBalance } from "./accounts.ts"
import { recordTransaction } from "./history.ts"
import { EXCHANGE_OWNER, REWARDS_OWNER, userAccount } from "./ledgerSetup.ts"
import { approveTransfer, createTransfer } from "./transfers.ts"

/** Demo ids of kernel/server/src/dev/demoUsers.ts. */
export const DEMO_BALANCES_USER = 700000002
export const DEMO_NO_CUSTODY_USER = 700000004

const DAY_MS = 24 * 3_600_000

const units = (currency: string, amount: string) => parseAmount(amount, currencyInfo(currency)!.decimals)!

interface DemoMovement {
  readonly key: string
  readonly userId: number
  readonly daysAgo: number
  readonly type: TransactionType
  readonly gateway: Gateway
  readonly currency: string
  readonly amount: string
  readonly legs: ReadonlyArray<Leg>
  readonly network?: NetworkCode
  readonly address?: string
  readonly txHash?: string
  readonly details?: Readonly<Record<string, unknown>>
}

const movement = (demo: DemoMovement) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const ledger = yield* Ledger
    const config = yield* ServerConfig
    yield* sql.withTransaction(
      Effect.gen(function* () {
        for (const leg of demo.legs) {
          yield* ledger.openAccount(leg.from, leg.from.owner.startsWith("system:") && leg.from.owner !== System.deposits ? { allowNegative: true } : undefined)
          yield* ledger.openAccount(leg.to)
        }
        yield* ledger.transfer({ key: demo.key, legs: demo.legs, metadata: { gateway: demo.gateway, demo: true } })
        yield* recordTransaction({
          userId: demo.userId,
          type: demo.type,
          gateway: demo.gateway,
          currency: demo.currency,
          amount: units(demo.currency, demo.amount),
          status: "success",
          ledgerKey: demo.key,
          createdAt: new Date(config.now() - demo.daysAgo * DAY_MS),
          network: demo.network ?? null,
          address: demo.address ?? null,
          txHash: demo.txHash ?? null,
          ...(demo.details !== undefined ? { details: demo.details } : {}),
        })
      }),
    )
  })

const deposit = (userId: number, n: number, currency: string, amount: string, network: NetworkCode, address: string, daysAgo: number): DemoMovement => ({
  key: `custody:demo:${userId}:${n}`,
  userId,
  daysAgo,
  type: "deposit",
  gateway: "top_up",
  currency,
  amount,
  network,
  txHash: `demo${userId}${n}`.padEnd(64, "0"),
  details: { inputAddresses: [address] },
  legs: [{ from: { owner: System.deposits, currency }, to: userAccount(userId, currency), amount: units(currency, amount) }],
})

const bob = DEMO_BALANCES_USER
const carl = DEMO_NO_CUSTODY_USER

const movements: ReadonlyArray<DemoMovement> = [
  deposit(bob, 1, "TON", "150", "ton", "UQDemoSenderAddressForTheBalancesUser000000000001", 30),
  deposit(bob, 2, "USDT", "420.5", "tron", "TXYZdemoTronSenderAddress000000001", 28),
  deposit(bob, 3, "BTC", "0.0152", "bitcoin", "bc1qdemosenderaddress0000000000000000001", 25),
  deposit(bob, 4, "NOT", "2500", "ton", "UQDemoSenderAddressForTheBalancesUser000000000002", 20),
  // Low-balance assets (under 1 USD): hidden behind the "more crypto" toggle.
  deposit(bob, 5, "DOGS", "1200", "ton", "UQDemoSenderAddressForTheBalancesUser000000000003", 19),
  deposit(bob, 6, "HMSTR", "300", "ton", "UQDemoSenderAddressForTheBalancesUser000000000004", 18),
  deposit(bob, 7, "X", "5000", "ton", "UQDemoSenderAddressForTheBalancesUser000000000005", 17),
  {
    key: `custody:demo:${bob}:8`,
    userId: bob,
    daysAgo: 12,
    type: "withdraw",
    gateway: "withdraw_onchain",
    currency: "TON",
    amount: "12.5",
    network: "ton",
    address: "UQDemoWithdrawalDestination0000000000000000000001",
    txHash: `demo${bob}8`.padEnd(64, "0"),
    legs: [{ from: userAccount(bob, "TON"), to: { owner: System.withdrawals, currency: "TON" }, amount: units("TON", "12.5") }],
  },
  {
    key: `custody:demo:${bob}:9`,
    userId: bob,
    daysAgo: 8,
    type: "deposit",
    gateway: "earn_reward",
    currency: "USDT",
    amount: "1.25",
    legs: [{ from: { owner: REWARDS_OWNER, currency: "USDT" }, to: userAccount(bob, "USDT"), amount: units("USDT", "1.25") }],
  },
  {
    key: `custody:demo:${bob}:10`,
    userId: bob,
    daysAgo: 5,
    type: "withdraw",
    gateway: "crypto_exchange",
    currency: "TON",
    amount: "10",
    details: { pairAmount: units("USDT", "54.2").toString(), pairCurrency: "USDT", platform: "Wallet" },
    legs: [
      { from: userAccount(bob, "TON"), to: { owner: EXCHANGE_OWNER, currency: "TON" }, amount: units("TON", "10") },
      { from: { owner: EXCHANGE_OWNER, currency: "USDT" }, to: userAccount(bob, "USDT"), amount: units("USDT", "54.2") },
    ],
  },
  deposit(carl, 1, "TON", "20", "ton", "UQDemoSenderAddressForTheNoCustodyUser0000000001", 10),
]

const logged = <A, E, R>(what: string, effect: Effect.Effect<A, E, R>) =>
  effect.pipe(
    Effect.asVoid,
    Effect.catchCause((cause) => Effect.logWarning(`custody demo data: ${what} skipped: ${String(cause)}`)),
  )

export const seedDemoData = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const present = yield* sql<{ id: string | number }>`select id from kernel_users where id in (${bob}, ${carl})`.pipe(Effect.orDie)
  if (present.length < 2) return
  for (const demo of movements) yield* logged(demo.key, movement(demo))
  // A transfer Carl sent Bob, accepted; and one Bob sent Carl, still waiting (Bob may cancel it).
  yield* logged(
    "incoming transfer",
    Effect.gen(function* () {
      const incoming = yield* createTransfer(
        carl,
        { idempotencyKey: "demo-carl-to-bob-1", receiverId: bob, currency: "TON", amount: "5", comment: "For the pizza" },
        { checkAccess: false },
      )
      if (incoming.tg_transfer_status === "new") yield* approveTransfer(bob, incoming.id)
    }),
  )
  yield* logged("outgoing transfer", createTransfer(bob, { idempotencyKey: "demo-bob-to-carl-1", receiverId: carl, currency: "USDT", amount: "15" }))
  yield* logged("frozen balance", freezeBalance(bob, "USDT", units("USDT", "50"), "FR_1", `custody:demo:${bob}:frozen:1`))
})
