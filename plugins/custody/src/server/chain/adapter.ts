/**
 * The network-adapter interface: what custody needs from a chain. One adapter per network code
 * (TON on the Chain service; tron, ethereum, solana and bitcoin on the devnet's simulated networks
 * or, later, real nodes), collected in the `NetworkAdapters` service. The watcher, the withdrawal
 * processor and the HTTP handlers only talk to this interface.
 */
import { Context, Effect, Schema } from "effect"
import type { AddressCheckError, ChainRequestError } from "../../api.ts"
import type { NetworkCode } from "../../currencies.ts"

/** The chain could not be asked (transport, 5xx, a body that did not decode): try again later. */
export class ChainUnavailable extends Schema.TaggedError<ChainUnavailable>()("ChainUnavailable", {
  network: Schema.String,
  message: Schema.String,
}) {}

/** The hot wallet cannot pay a batch yet (dev: the processor funds it from the faucet). */
export class HotWalletLow extends Schema.TaggedError<HotWalletLow>()("HotWalletLow", {
  network: Schema.String,
  message: Schema.String,
}) {}

/** A final incoming transfer to one of the watched deposit addresses. */
export interface FinalDeposit {
  /** Unique per network: the transfer (TON: `<event id>:<action index>`). The Ledger key derives from it. */
  readonly txHash: string
  /** The deposit address (as watched). */
  readonly to: string
  readonly from: string | null
  readonly currency: string
  readonly amount: bigint
}

export interface WatchedAddress {
  readonly address: string
  /** The adapter's per-address cursor from the last scan (null: never scanned). */
  readonly cursor: string | null
}

export interface WatchResult {
  readonly deposits: ReadonlyArray<FinalDeposit>
  /** The network-wide cursor to store (adapters that scan the whole network). */
  readonly cursor: string | null
  /** Per-address cursors to store (adapters that scan each address). */
  readonly addressCursors: ReadonlyMap<string, string>
}

/** One withdrawal to send: `amount` minor units of `currency` to `to`. */
export interface WithdrawalOrder {
  readonly id: string
  readonly to: string
  readonly currency: string
  readonly amount: bigint
  readonly comment: string | null
}

export type BroadcastResult =
  /** The chain took it (all but `rejected`, by order id, with why); watch `withdrawalStatus`. */
  | { readonly _tag: "Accepted"; readonly rejected: ReadonlyMap<string, string> }
  /** The chain refused it for good (bad signature, rejected message ...): nothing was sent. */
  | { readonly _tag: "Rejected"; readonly reason: string }

export interface OrderResult {
  readonly ok: boolean
  readonly txHash: string | null
  readonly reason: string | null
}

export type BatchStatus =
  | { readonly _tag: "Pending" }
  /** Every order has an outcome (ok: final on chain; not ok: it did not arrive, the value is back). */
  | { readonly _tag: "Final"; readonly results: ReadonlyMap<string, OrderResult> }

export interface NetworkAdapter {
  readonly network: NetworkCode
  /** Currencies this adapter deposits and withdraws (the rest of the table's currencies on the network are unsupported here). */
  readonly currencies: ReadonlyArray<string>
  /** Most orders one batch may carry, and whether two orders of one batch may look alike. */
  readonly maxBatch: number
  /** The user's deposit address (deterministic: the same user always gets the same address). */
  readonly deriveDepositAddress: (userId: number) => Effect.Effect<string, ChainUnavailable>
  /** Checks (and resolves names in) what the user typed; answers the destination address. */
  readonly validateAddress: (
    input: string,
  ) => Effect.Effect<{ readonly address: string; readonly domain: string | null }, AddressCheckError | ChainRequestError>
  /** The comparable form of an address of this network. */
  readonly canonical: (address: string) => string
  /** Platform addresses nobody may withdraw to (hot wallets ...), canonical. */
  readonly systemAddresses: Effect.Effect<ReadonlyArray<string>, ChainUnavailable>
  /** Scans the watched addresses; answers only final deposits (never in-progress ones). */
  readonly watchDeposits: (input: {
    readonly addresses: ReadonlyArray<WatchedAddress>
    readonly cursor: string | null
  }) => Effect.Effect<WatchResult, ChainUnavailable>
  /**
   * Builds (signs) one batch; the answer is a reference the processor stores before it broadcasts,
   * so a crash between the two can re-broadcast the same thing. Fails with `HotWalletLow` when the
   * hot wallet cannot pay yet (then the orders wait).
   */
  readonly prepareWithdrawals: (orders: ReadonlyArray<WithdrawalOrder>) => Effect.Effect<string, ChainUnavailable | HotWalletLow>
  readonly broadcast: (ref: string) => Effect.Effect<BroadcastResult, ChainUnavailable>
  readonly withdrawalStatus: (ref: string, orders: ReadonlyArray<WithdrawalOrder>) => Effect.Effect<BatchStatus, ChainUnavailable>
  /** Dev only: make sure the hot wallet holds what `orders` need (from the devnet faucet). */
  readonly fundHotWallet?: (orders: ReadonlyArray<WithdrawalOrder>) => Effect.Effect<void, ChainUnavailable>
}

/** The adapters by network code; a network without one has no deposits or withdrawals. */
export class NetworkAdapters extends Context.Service<NetworkAdapters, Readonly<Partial<Record<NetworkCode, NetworkAdapter>>>>()(
  "wallet/custody/NetworkAdapters",
) {}
