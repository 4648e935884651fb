/**
 * Adapters of the simulated networks (tron, ethereum, solana, bitcoin) on the devnet's
 * `/v2/devnet/sim/{network}` paths: per-user addresses derived from the master seed, deposits read
 * by scanning the network's transfers in order (one cursor per network), withdrawals as transfers
 * from the network's hot address with an idempotency key per withdrawal.
 */
import { Effect, Redacted } from "effect"
import { AddressCheckError } from "../../api.ts"
import type { NetworkCode } from "../../currencies.ts"
import { canonicalAddress, checkAddressFormat, looksLikeDomain, simDepositAddress } from "./addresses.ts"
import { ChainUnavailable, HotWalletLow, type BatchStatus, type FinalDeposit, type NetworkAdapter, type OrderResult, type WithdrawalOrder } from "./adapter.ts"
import type { ChainSettingsShape } from "./config.ts"
import { devnetGet, devnetPost, devnetPostRaw, DevnetStatus } from "./devnet-http.ts"

export type SimNetworkCode = Exclude<NetworkCode, "ton">

interface SimTransferJson {
  readonly id: string
  readonly seq: number
  readonly from: string
  readonly to: string
  readonly asset: string
  readonly amount: string
  readonly memo: string | null
  readonly status: "pending" | "confirmed" | "failed"
  readonly reason: string | null
}

interface SimOrder {
  readonly id: string
  readonly key: string
  readonly to: string
  readonly asset: string
  readonly amount: string
  readonly memo: string | null
}

/** What each simulated network carries for custody (the currency table's currencies on it). */
export const SIM_CURRENCIES: Readonly<Record<SimNetworkCode, ReadonlyArray<string>>> = {
  tron: ["USDT"],
  ethereum: ["USDT", "ETH", "XAUT"],
  solana: ["USDT", "SOL"],
  bitcoin: ["BTC"],
}

const PAGE = 500
const FUNDING_COOLDOWN_MS = 3_000

const withdrawKey = (id: string) => `custody:withdraw:${id}`

export const makeSimAdapter = (network: SimNetworkCode, settings: ChainSettingsShape): NetworkAdapter => {
  const seed = Redacted.value(settings.masterSeed)
  const hot = simDepositAddress(network, seed, "hot:0")
  const hotCanonical = canonicalAddress(network, hot)
  const base = `/v2/devnet/sim/${network}`
  const currencies = SIM_CURRENCIES[network]
  const canonical = (address: string) => canonicalAddress(network, address)
  const notNow = (what: string) => (error: ChainUnavailable | DevnetStatus) =>
    error instanceof DevnetStatus ? new ChainUnavailable({ network, message: `${what}: ${error.message}` }) : error

  const validateAddress: NetworkAdapter["validateAddress"] = (rawInput) =>
    Effect.gen(function* () {
      const input = rawInput.trim()
      if (looksLikeDomain(input)) return yield* new AddressCheckError({ code: "invalid_web3_domain", message: `Names do not resolve on ${network}` })
      const check = checkAddressFormat(network, input)
      if (!check.ok) return yield* new AddressCheckError({ code: check.code, message: check.message })
      return { address: check.address, domain: null }
    })

  const watchDeposits: NetworkAdapter["watchDeposits"] = ({ addresses, cursor }) =>
    Effect.gen(function* () {
      const watched = new Map(addresses.map((a) => [canonical(a.address), a.address]))
      let after = cursor === null ? 0 : Number(cursor)
      const deposits: Array<FinalDeposit> = []
      for (;;) {
        const page = yield* devnetGet<{ transfers: ReadonlyArray<SimTransferJson> }>(
          settings,
          `${base}/transfers?after_seq=${after}&limit=${PAGE}`,
          network,
        ).pipe(Effect.mapError(notNow("transfers")))
        let stop = false
        for (const transfer of page.transfers) {
          // Blocks confirm in order: stop at the first one still pending and read it again next time.
          if (transfer.status === "pending") {
            stop = true
            break
          }
          after = transfer.seq
          const to = watched.get(canonical(transfer.to))
          if (transfer.status !== "confirmed" || to === undefined || !currencies.includes(transfer.asset)) continue
          deposits.push({ txHash: transfer.id, to, from: transfer.from, currency: transfer.asset, amount: BigInt(transfer.amount) })
        }
        if (stop || page.transfers.length < PAGE) break
      }
      return { deposits, cursor: String(after), addressCursors: new Map() }
    })

  const hotBalances = devnetGet<{ balances: Readonly<Record<string, string>> }>(settings, `${base}/accounts/${hot}`, network).pipe(
    Effect.map((account) => account.balances),
    Effect.mapError(notNow("hot balance")),
  )

  const needs = (orders: ReadonlyArray<WithdrawalOrder>) => {
    const need = new Map<string, bigint>()
    for (const order of orders) need.set(order.currency, (need.get(order.currency) ?? 0n) + order.amount)
    return need
  }

  const prepareWithdrawals: NetworkAdapter["prepareWithdrawals"] = (orders) =>
    Effect.gen(function* () {
      const balances = yield* hotBalances
      for (const [asset, amount] of needs(orders)) {
        const have = BigInt(balances[asset] ?? "0")
        if (have < amount) return yield* new HotWalletLow({ network, message: `hot address holds ${have} ${asset}, needs ${amount}` })
      }
      const ref: ReadonlyArray<SimOrder> = orders.map((order) => ({
        id: order.id,
        key: withdrawKey(order.id),
        to: order.to,
        asset: order.currency,
        amount: order.amount.toString(),
        memo: order.comment,
      }))
      return JSON.stringify(ref)
    })

  const broadcast: NetworkAdapter["broadcast"] = (refText) =>
    Effect.gen(function* () {
      const orders = JSON.parse(refText) as ReadonlyArray<SimOrder>
      const rejected = new Map<string, string>()
      for (const order of orders) {
        yield* devnetPostRaw(
          settings,
          `${base}/transfers`,
          { from: hot, to: order.to, asset: order.asset, amount: order.amount, memo: order.memo ?? undefined, key: order.key },
          network,
        ).pipe(Effect.catchTag("DevnetStatus", (error) => Effect.sync(() => rejected.set(order.id, error.message))))
      }
      return rejected.size === orders.length
        ? { _tag: "Rejected" as const, reason: [...rejected.values()][0] ?? "rejected" }
        : { _tag: "Accepted" as const, rejected }
    })

  const withdrawalStatus: NetworkAdapter["withdrawalStatus"] = (refText) =>
    Effect.gen(function* () {
      const orders = JSON.parse(refText) as ReadonlyArray<SimOrder>
      const results = new Map<string, OrderResult>()
      for (const order of orders) {
        const transfer = yield* devnetGet<SimTransferJson>(settings, `${base}/keys/${encodeURIComponent(order.key)}`, network).pipe(
          Effect.map((t): SimTransferJson | undefined => t),
          Effect.catchTag("DevnetStatus", (error) =>
            error.status === 404 ? Effect.succeed(undefined) : Effect.fail(new ChainUnavailable({ network, message: error.message })),
          ),
        )
        if (transfer === undefined) {
          results.set(order.id, { ok: false, txHash: null, reason: "the network has no such transfer" })
          continue
        }
        if (transfer.status === "pending") return { _tag: "Pending" } satisfies BatchStatus
        results.set(order.id, {
          ok: transfer.status === "confirmed",
          txHash: transfer.id,
          reason: transfer.status === "confirmed" ? null : (transfer.reason ?? "failed"),
        })
      }
      return { _tag: "Final", results } satisfies BatchStatus
    })

  // One faucet request per few seconds: it lands at the next block, rounds in between would ask again.
  let lastFunding = 0
  const fundHotWallet: NonNullable<NetworkAdapter["fundHotWallet"]> = (orders) =>
    Effect.gen(function* () {
      if (Date.now() - lastFunding < FUNDING_COOLDOWN_MS) return
      lastFunding = Date.now()
      const balances = yield* hotBalances
      for (const [asset, amount] of needs(orders)) {
        if (BigInt(balances[asset] ?? "0") >= amount) continue
        yield* devnetPost(settings, `${base}/faucet`, { address: hot, asset, amount: (amount * 2n).toString() }, network)
      }
    })

  return {
    network,
    currencies,
    maxBatch: 50,
    deriveDepositAddress: (userId) => Effect.succeed(simDepositAddress(network, seed, `deposit:${userId}`)),
    validateAddress,
    canonical,
    systemAddresses: Effect.succeed([hotCanonical]),
    watchDeposits,
    prepareWithdrawals,
    broadcast,
    withdrawalStatus,
    ...(settings.devFaucet ? { fundHotWallet } : {}),
  }
}

/** The hot address of a simulated network (tests fund it; tools show it). */
export const simHotAddress = (network: SimNetworkCode, settings: ChainSettingsShape): string =>
  simDepositAddress(network, Redacted.value(settings.masterSeed), "hot:0")
