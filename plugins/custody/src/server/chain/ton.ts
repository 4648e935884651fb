/**
 * The TON adapter, on the server's Chain service (tonapi v2; the devnet locally).
 *
 * - Deposit addresses: one W5R1 wallet per user, its key derived from the master seed
 *   (HMAC-SHA256(seed, "ton:deposit:<user id>") as the ed25519 seed). Shown non-bounceable.
 * - Deposits: final (not in_progress) TonTransfer, JettonTransfer and JettonMint actions with status
 *   ok whose recipient is a deposit address; jettons only of the configured masters (USD₮).
 * - Withdrawals: one signed W5R1 external from the hot wallet per batch (up to 100 messages, send mode
 *   pay-gas-separately + ignore-errors, valid 2 minutes); its outcome is read from the hot wallet's event
 *   whose ext_msg_hash is the batch's (plain or TEP-467 normalized): a transfer missing from the event
 *   or not ok (bounced) failed.
 */
import { Address, type Cell, SendMode, beginCell, external, internal, storeMessage } from "@ton/core"
import { keyPairFromSeed, type KeyPair } from "@ton/crypto"
import { WalletContractV5R1 } from "@ton/ton"
import { Effect, Redacted } from "effect"
import type { ChainError, ChainShape } from "@wallet/kernel/chain"
import { AddressCheckError, ChainRequestError } from "../../api.ts"
import { checkTon, deriveBytes, looksLikeDomain } from "./addresses.ts"
import {
  ChainUnavailable,
  HotWalletLow,
  type BatchStatus,
  type BroadcastResult,
  type FinalDeposit,
  type NetworkAdapter,
  type OrderResult,
  type WithdrawalOrder,
} from "./adapter.ts"
import type { ChainSettingsShape } from "./config.ts"
import { devnetPost } from "./devnet-http.ts"

const JETTON_TRANSFER = 0x0f8a7ea5
/** TON attached to a jetton transfer (the excess comes back to the hot wallet). */
export const JETTON_TRANSFER_TON = 50_000_000n
/** Kept aside per message for gas when checking the hot wallet's balance. */
const GAS_PER_MESSAGE = 10_000_000n
const VALID_SECONDS = 120
/** The first page is small (most scans find nothing new); later pages are large. */
const FIRST_PAGE = 10
const PAGE = 100
const FUNDING_COOLDOWN_MS = 3_000
const MAX_PAGES = 10

interface Wallet {
  readonly key: KeyPair
  readonly contract: WalletContractV5R1
  readonly raw: string
}

interface TonBatchRef {
  readonly seqno: number
  /** Hash of the external message as sent, and its TEP-467 normalized hash (what ext_msg_hash may carry). */
  readonly hash: string
  readonly normalized?: string
  readonly validUntil: number
  readonly boc: string
}

const unavailable = (error: ChainError | Error, what: string) => new ChainUnavailable({ network: "ton", message: `${what}: ${error.message}` })

const isNotFound = (error: ChainError) => error.reason === "Status" && error.status === 404

export const makeTonAdapter = (chain: ChainShape, settings: ChainSettingsShape): NetworkAdapter => {
  const seed = Redacted.value(settings.masterSeed)
  const testnet = settings.globalId === -3
  const walletOf = (purpose: string): Wallet => {
    const key = keyPairFromSeed(deriveBytes(seed, `ton:${purpose}`))
    const contract = WalletContractV5R1.create({ publicKey: key.publicKey, walletId: { networkGlobalId: settings.globalId } })
    return { key, contract, raw: contract.address.toRawString() }
  }
  const depositCache = new Map<number, string>()
  const hot = walletOf("hot:0")
  const friendly = (address: Address, bounceable: boolean) => address.toString({ urlSafe: true, bounceable, testOnly: testnet })

  // Jetton masters (raw) by currency, resolving .ton names once they answer.
  const masters = new Map<string, string>()
  const jettonMasters = Effect.gen(function* () {
    for (const [currency, where] of Object.entries(settings.tonJettons)) {
      if (masters.has(currency)) continue
      if (where.endsWith(".ton")) {
        const record = yield* chain.resolveDns(where).pipe(Effect.mapError((e) => unavailable(e, `resolve ${where}`)))
        if (record.wallet === undefined) return yield* new ChainUnavailable({ network: "ton", message: `${where} has no address` })
        masters.set(currency, Address.parse(record.wallet.address).toRawString())
      } else masters.set(currency, Address.parse(where).toRawString())
    }
    return masters
  })
  const currencyOfMaster = (master: string): string | undefined => [...masters].find(([, raw]) => raw === master)?.[0]

  const canonical = (address: string): string => {
    try {
      return Address.parse(address).toRawString()
    } catch {
      return address
    }
  }

  const validateAddress: NetworkAdapter["validateAddress"] = (rawInput) =>
    Effect.gen(function* () {
      const input = rawInput.trim()
      if (input.toLowerCase().endsWith(".ton")) {
        const name = input.toLowerCase()
        const record = yield* chain
          .resolveDns(name)
          .pipe(
            Effect.catchTag("ChainError", (error): Effect.Effect<never, AddressCheckError | ChainRequestError> =>
              isNotFound(error) || (error.reason === "Status" && (error.status ?? 0) < 500)
                ? Effect.fail(new AddressCheckError({ code: "invalid_domain", message: `${name} is not registered` }))
                : Effect.fail(new ChainRequestError({ code: "chain_unavailable", message: "Name lookup failed; try again" })),
            ),
          )
        if (record.wallet === undefined) return yield* new AddressCheckError({ code: "invalid_domain", message: `${name} points to no wallet` })
        const address = Address.parse(record.wallet.address)
        return { address: friendly(address, !record.wallet.is_wallet), domain: name }
      }
      if (looksLikeDomain(input)) return yield* new AddressCheckError({ code: "invalid_web3_domain", message: "Only .ton names resolve on TON" })
      const check = checkTon(input, { testnet })
      if (!check.ok) return yield* new AddressCheckError({ code: check.code, message: check.message })
      return { address: check.address, domain: null }
    })

  // --- deposits --------------------------------------------------------------------------------

  const scanAddress = (address: string, cursor: string | null) =>
    Effect.gen(function* () {
      const raw = canonical(address)
      const after = cursor === null ? -1 : Number(cursor)
      const events = []
      let beforeLt: number | undefined
      for (let page = 0; page < MAX_PAGES; page++) {
        const result = yield* chain
          .getEvents(raw, { limit: page === 0 ? FIRST_PAGE : PAGE, ...(beforeLt !== undefined ? { beforeLt } : {}) })
          .pipe(Effect.mapError((e) => unavailable(e, "account events")))
        const fresh = result.events.filter((event) => event.lt > after)
        events.push(...fresh)
        if (fresh.length < result.events.length || result.next_from === 0 || result.events.length === 0) break
        beforeLt = result.next_from
      }
      const deposits: Array<FinalDeposit> = []
      let newest = after
      let oldestPending = Number.POSITIVE_INFINITY
      for (const event of events) {
        if (event.in_progress) {
          oldestPending = Math.min(oldestPending, event.lt)
          continue
        }
        newest = Math.max(newest, event.lt)
        event.actions.forEach((action, index) => {
          if (action.status !== "ok") return
          const txHash = `${event.event_id}:${index}`
          if (action.TonTransfer !== undefined && action.TonTransfer.recipient.address === raw && action.TonTransfer.amount > 0n) {
            deposits.push({ txHash, to: address, from: action.TonTransfer.sender.address, currency: "TON", amount: action.TonTransfer.amount })
          }
          const jetton = action.JettonTransfer ?? action.JettonMint
          if (jetton !== undefined && jetton.recipient?.address === raw && jetton.amount > 0n) {
            const currency = currencyOfMaster(canonical(jetton.jetton.address))
            const from = action.JettonTransfer?.sender?.address ?? null
            if (currency !== undefined) deposits.push({ txHash, to: address, from, currency, amount: jetton.amount })
          }
        })
      }
      // Never move past an event still in progress: its final form is read on a later scan.
      const next = Number.isFinite(oldestPending) ? Math.max(after, Math.min(newest, oldestPending - 1)) : newest
      return { deposits, cursor: String(next) }
    })

  const watchDeposits: NetworkAdapter["watchDeposits"] = ({ addresses }) =>
    Effect.gen(function* () {
      yield* jettonMasters
      const scans = yield* Effect.forEach(
        addresses,
        (watched) => Effect.map(scanAddress(watched.address, watched.cursor), (scan) => [watched.address, scan] as const),
        {
          concurrency: 8,
        },
      )
      const addressCursors = new Map<string, string>()
      const deposits: Array<FinalDeposit> = []
      for (const [address, scan] of scans) {
        deposits.push(...scan.deposits)
        addressCursors.set(address, scan.cursor)
      }
      return { deposits, cursor: null, addressCursors }
    })

  // --- withdrawals -----------------------------------------------------------------------------

  const hotState = Effect.gen(function* () {
    const account = yield* chain
      .getAccount(hot.raw)
      .pipe(Effect.catchTag("ChainError", (error) => (isNotFound(error) ? Effect.succeed(undefined) : Effect.fail(unavailable(error, "hot wallet")))))
    const active = account?.status === "active"
    const seqno = active ? yield* chain.getSeqno(hot.raw).pipe(Effect.mapError((e) => unavailable(e, "hot wallet seqno"))) : 0
    return { balance: account?.balance ?? 0n, active, seqno }
  })

  const jettonWalletOf = (master: string) =>
    Effect.gen(function* () {
      const balance = yield* chain
        .getJettonBalance(hot.raw, master)
        .pipe(Effect.catchTag("ChainError", (error) => (isNotFound(error) ? Effect.succeed(undefined) : Effect.fail(unavailable(error, "hot jetton wallet")))))
      return balance === undefined ? undefined : { wallet: balance.wallet_address.address, balance: balance.balance }
    })

  /** What the hot wallet must hold for `orders`: TON (with gas) and each jetton. */
  const needs = (orders: ReadonlyArray<WithdrawalOrder>) => {
    let ton = 0n
    const jettons = new Map<string, bigint>()
    for (const order of orders) {
      ton += GAS_PER_MESSAGE
      if (order.currency === "TON") ton += order.amount
      else {
        ton += JETTON_TRANSFER_TON
        jettons.set(order.currency, (jettons.get(order.currency) ?? 0n) + order.amount)
      }
    }
    return { ton, jettons }
  }

  const bounceFlag = (to: string): boolean => {
    try {
      const parsed = Address.parseFriendly(to)
      return parsed.isBounceable
    } catch {
      // Raw addresses carry no flag: do not bounce (the value stays with the receiver).
      return false
    }
  }

  const jettonTransferBody = (order: WithdrawalOrder, queryId: bigint): Cell => {
    const destination = Address.parse(order.to)
    const forward = order.comment === null ? null : beginCell().storeUint(0, 32).storeStringTail(order.comment).endCell()
    return beginCell()
      .storeUint(JETTON_TRANSFER, 32)
      .storeUint(queryId, 64)
      .storeCoins(order.amount)
      .storeAddress(destination)
      .storeAddress(hot.contract.address)
      .storeMaybeRef(null)
      .storeCoins(forward === null ? 0n : 1n)
      .storeMaybeRef(forward)
      .endCell()
  }

  const prepareWithdrawals: NetworkAdapter["prepareWithdrawals"] = (orders) =>
    Effect.gen(function* () {
      const known = yield* jettonMasters
      const state = yield* hotState
      const need = needs(orders)
      if (state.balance < need.ton) return yield* new HotWalletLow({ network: "ton", message: `hot wallet holds ${state.balance} nanoton, needs ${need.ton}` })
      const jettonWallets = new Map<string, string>()
      for (const [currency, amount] of need.jettons) {
        const master = known.get(currency)
        if (master === undefined) return yield* new ChainUnavailable({ network: "ton", message: `no jetton master for ${currency}` })
        const wallet = yield* jettonWalletOf(master)
        if (wallet === undefined || wallet.balance < amount) {
          return yield* new HotWalletLow({ network: "ton", message: `hot wallet holds ${wallet?.balance ?? 0n} ${currency}, needs ${amount}` })
        }
        jettonWallets.set(currency, wallet.wallet)
      }
      const messages = orders.map((order) =>
        order.currency === "TON"
          ? internal({
              to: Address.parse(order.to),
              value: order.amount,
              bounce: bounceFlag(order.to),
              ...(order.comment !== null ? { body: order.comment } : {}),
            })
          : internal({
              to: Address.parse(jettonWallets.get(order.currency)!),
              value: JETTON_TRANSFER_TON,
              bounce: true,
              body: jettonTransferBody(order, BigInt(order.id)),
            }),
      )
      const validUntil = Math.floor(Date.now() / 1000) + VALID_SECONDS
      const body = hot.contract.createTransfer({
        seqno: state.seqno,
        secretKey: hot.key.secretKey,
        sendMode: SendMode.PAY_GAS_SEPARATELY + SendMode.IGNORE_ERRORS,
        messages,
        timeout: validUntil,
      })
      const message = beginCell()
        .store(storeMessage(external({ to: hot.contract.address, body, ...(state.active ? {} : { init: hot.contract.init }) })))
        .endCell()
      // TEP-467: src addr_none, import_fee 0, no state init, body as a reference.
      const normalized = beginCell()
        .store(storeMessage(external({ to: hot.contract.address, body }), { forceRef: true }))
        .endCell()
      const ref: TonBatchRef = {
        seqno: state.seqno,
        hash: message.hash().toString("hex"),
        normalized: normalized.hash().toString("hex"),
        validUntil,
        boc: message.toBoc().toString("base64"),
      }
      return JSON.stringify(ref)
    })

  const broadcast: NetworkAdapter["broadcast"] = (refText) =>
    Effect.gen(function* () {
      const ref = JSON.parse(refText) as TonBatchRef
      return yield* chain.sendBoc(ref.boc).pipe(
        Effect.as({ _tag: "Accepted" as const, rejected: new Map<string, string>() }),
        Effect.catchTag("ChainError", (error): Effect.Effect<BroadcastResult, ChainUnavailable> => {
          if (error.reason === "Status" && /duplicate/i.test(error.message))
            return Effect.succeed({ _tag: "Accepted" as const, rejected: new Map<string, string>() })
          if (error.reason === "Status" && error.status !== undefined && error.status >= 400 && error.status < 500) {
            return Effect.succeed({ _tag: "Rejected" as const, reason: error.message })
          }
          return Effect.fail(unavailable(error, "send"))
        }),
      )
    })

  /**
   * The event of a batch: among the hot wallet's latest events by `ext_msg_hash` (the tonapi contract),
   * else by the message hash (`/v2/events/{id}`, which the devnet and some indexers accept).
   */
  const findBatchEvent = (ref: TonBatchRef) =>
    Effect.gen(function* () {
      const hashes = new Set([ref.hash, ref.normalized].filter((h): h is string => h !== undefined))
      // Page back (a busy hot wallet) but not past the batch's signing time: older events cannot be it.
      const signedAt = ref.validUntil - VALID_SECONDS - 60
      let beforeLt: number | undefined
      for (let page = 0; page < MAX_PAGES; page++) {
        const recent = yield* chain
          .getEvents(hot.raw, { limit: PAGE, ...(beforeLt !== undefined ? { beforeLt } : {}) })
          .pipe(Effect.mapError((e) => unavailable(e, "hot wallet events")))
        const mine = recent.events.find((event) => event.ext_msg_hash !== undefined && hashes.has(event.ext_msg_hash.toLowerCase()))
        if (mine !== undefined) return { event_id: mine.event_id, in_progress: mine.in_progress, actions: mine.actions }
        const oldest = recent.events.at(-1)
        if (recent.next_from === 0 || oldest === undefined || oldest.timestamp < signedAt) break
        beforeLt = recent.next_from
      }
      return yield* chain
        .getEvent(ref.hash)
        .pipe(Effect.catchTag("ChainError", (error) => (isNotFound(error) ? Effect.succeed(undefined) : Effect.fail(unavailable(error, "event")))))
    })

  const withdrawalStatus: NetworkAdapter["withdrawalStatus"] = (refText, orders) =>
    Effect.gen(function* () {
      const ref = JSON.parse(refText) as TonBatchRef
      const known = yield* jettonMasters
      const event = yield* findBatchEvent(ref)
      if (event === undefined) {
        if (Date.now() / 1000 < ref.validUntil + settings.expiryGraceSeconds) return { _tag: "Pending" } satisfies BatchStatus
        const state = yield* hotState
        // The seqno moved on: the message was executed, its event is not indexed yet.
        if (state.seqno > ref.seqno) return { _tag: "Pending" } satisfies BatchStatus
        const results = new Map<string, OrderResult>(
          orders.map((order) => [order.id, { ok: false, txHash: null, reason: "expired: the message never reached the chain" }]),
        )
        return { _tag: "Final", results } satisfies BatchStatus
      }
      if (event.in_progress) return { _tag: "Pending" } satisfies BatchStatus
      const used = new Set<number>()
      const results = new Map<string, OrderResult>()
      for (const order of orders) {
        const to = canonical(order.to)
        const index = event.actions.findIndex((action, i) => {
          if (used.has(i)) return false
          if (order.currency === "TON") {
            const t = action.TonTransfer
            return t !== undefined && t.sender.address === hot.raw && t.recipient.address === to && t.amount === order.amount
          }
          const j = action.JettonTransfer
          return (
            j !== undefined &&
            j.sender?.address === hot.raw &&
            j.recipient?.address === to &&
            j.amount === order.amount &&
            canonical(j.jetton.address) === known.get(order.currency)
          )
        })
        if (index < 0) {
          results.set(order.id, { ok: false, txHash: event.event_id, reason: "not sent: the hot wallet could not pay it" })
          continue
        }
        used.add(index)
        const ok = event.actions[index]!.status === "ok"
        results.set(order.id, { ok, txHash: event.event_id, reason: ok ? null : "the receiver bounced the transfer" })
      }
      return { _tag: "Final", results } satisfies BatchStatus
    })

  // One faucet request per few seconds: it lands at the next block, rounds in between would ask again.
  let lastFunding = 0
  const fundHotWallet: NonNullable<NetworkAdapter["fundHotWallet"]> = (orders) =>
    Effect.gen(function* () {
      if (Date.now() - lastFunding < FUNDING_COOLDOWN_MS) return
      lastFunding = Date.now()
      const known = yield* jettonMasters
      const need = needs(orders)
      const state = yield* hotState
      if (state.balance < need.ton) yield* devnetPost(settings, "/v2/devnet/faucet", { address: hot.raw, ton: (need.ton * 2n + 10n ** 10n).toString() }, "ton")
      for (const [currency, amount] of need.jettons) {
        const master = known.get(currency)
        if (master === undefined) continue
        const wallet = yield* jettonWalletOf(master)
        if (wallet === undefined || wallet.balance < amount) {
          yield* devnetPost(settings, "/v2/devnet/faucet", { address: hot.raw, jetton: master, amount: (amount * 2n + 1000n * 10n ** 6n).toString() }, "ton")
        }
      }
    })

  return {
    network: "ton",
    currencies: ["TON", ...Object.keys(settings.tonJettons)],
    maxBatch: 100,
    deriveDepositAddress: (userId) =>
      Effect.sync(() => {
        const cached = depositCache.get(userId)
        if (cached !== undefined) return cached
        const address = friendly(walletOf(`deposit:${userId}`).contract.address, false)
        depositCache.set(userId, address)
        return address
      }),
    validateAddress,
    canonical,
    systemAddresses: Effect.succeed([hot.raw]),
    watchDeposits,
    prepareWithdrawals,
    broadcast,
    withdrawalStatus,
    ...(settings.devFaucet ? { fundHotWallet } : {}),
  }
}

/** The hot wallet's address (tests fund it; tools show it). */
export const tonHotWalletAddress = (settings: ChainSettingsShape): string => {
  const key = keyPairFromSeed(deriveBytes(Redacted.value(settings.masterSeed), "ton:hot:0"))
  return WalletContractV5R1.create({ publicKey: key.publicKey, walletId: { networkGlobalId: settings.globalId } }).address.toRawString()
}
