/**
 * Building a send: receiver resolution, the messages (TON or TEP-74 jetton transfer with the spec's
 * forward amounts and bounce rule), emulation with the reject rules, then signing and sending.
 */
import { Effect } from "effect"
import type { ChainShape, MessageConsequences } from "@wallet/kernel/chain"
import { looksLikeDomain } from "../core/address.ts"
import type { Network } from "../core/assets.ts"
import { emulationErrorReason, emulationReject, type EmulationReason } from "../core/emulation.ts"
import type { WalletClass } from "../core/versions.ts"
import { loadAccount } from "./data.ts"
import type { TonModule } from "./ton.ts"
import type { OutMessage } from "../ton/wallet.ts"

export type ReceiverError = "invalid_address" | "invalid_domain" | "yourself"

export interface Receiver {
  readonly input: string
  readonly raw: string
  readonly isFriendly: boolean
  readonly isBounceable: boolean
  readonly domain?: string
}

/** An address (friendly or raw) or a DNS name resolved through the chain API. */
export const resolveReceiver = async (ton: TonModule, chain: ChainShape, input: string, ownRaw: string): Promise<Receiver | ReceiverError> => {
  const text = input.trim()
  if (looksLikeDomain(text)) {
    const record = await Effect.runPromise(Effect.result(chain.resolveDns(text.toLowerCase())))
    const wallet = record._tag === "Success" ? record.success.wallet : undefined
    const parsed = wallet ? ton.parseAddress(wallet.address) : null
    if (!parsed) return "invalid_domain"
    if (parsed.raw === ownRaw) return "yourself"
    // A resolved name counts as a bounceable friendly address only if the wallet is deployed.
    return { input: text, raw: parsed.raw, isFriendly: true, isBounceable: true, domain: text.toLowerCase() }
  }
  const parsed = ton.parseAddress(text)
  if (!parsed) return "invalid_address"
  if (parsed.raw === ownRaw) return "yourself"
  return { input: text, raw: parsed.raw, isFriendly: parsed.isFriendly, isBounceable: parsed.isBounceable }
}

export interface SendRequest {
  readonly kind: "ton" | "jetton" | "nft" | "extra"
  /** Minor units of TON, the jetton or the extra currency (NFT: unused). */
  readonly amount: bigint
  readonly comment?: string
  readonly receiver: Receiver
  /** Jetton: the sender's jetton wallet. */
  readonly jettonWallet?: string
  /** NFT: the item. */
  readonly nftAddress?: string
  /** Extra currency: its id. */
  readonly extraCurrencyId?: number
}

export interface WalletRef {
  readonly raw: string
  readonly walletClass: WalletClass
  readonly network: Network
  readonly publicKey: Buffer
}

/**
 * The internal messages. TON: bounce only to a friendly bounceable address of an active account
 * (an uninit account would bounce the money back). Jetton (spec 2 §5, §7): 0.05 TON attached to
 * our jetton wallet, forward amount 1 nano, bounce only when the recipient address is friendly
 * and bounceable.
 */
export const buildMessages = async (ton: TonModule, chain: ChainShape, wallet: WalletRef, request: SendRequest): Promise<ReadonlyArray<OutMessage>> => {
  const to = ton.parseAddress(request.receiver.raw)!.address
  if (request.kind === "ton" || request.kind === "extra") {
    const account = await Effect.runPromise(loadAccount(chain, request.receiver.raw).pipe(Effect.orElseSucceed(() => undefined)))
    const bounce = request.receiver.isFriendly && request.receiver.isBounceable && account?.status === "active"
    const body = request.comment ? { body: ton.commentBody(request.comment) } : {}
    if (request.kind === "extra") return [extraCurrencyMessage({ to, id: request.extraCurrencyId!, amount: request.amount, bounce, ...body })]
    return [{ to, value: request.amount, bounce, ...body }]
  }
  const own = ton.parseAddress(wallet.raw)!.address
  if (request.kind === "nft") {
    // TEP-62 transfer to the item: 0.05 TON for its gas, forward 1 nano, excess back to us.
    return [
      {
        to: ton.parseAddress(request.nftAddress!)!.address,
        value: ton.JETTON_ATTACHED_TON,
        bounce: true,
        body: ton.nftTransferBody({ queryId: ton.randomQueryId(), newOwner: to, responseDestination: own }),
      },
    ]
  }
  const jettonWallet = ton.parseAddress(request.jettonWallet!)!.address
  return [
    {
      to: jettonWallet,
      value: ton.JETTON_ATTACHED_TON,
      bounce: request.receiver.isFriendly && request.receiver.isBounceable,
      body: ton.jettonTransferBody({
        queryId: ton.randomQueryId(),
        amount: request.amount,
        destination: to,
        responseDestination: own,
        ...(request.comment ? { comment: request.comment } : {}),
      }),
    },
  ]
}

/**
 * An extra-currency transfer (ADR 0630): a plain internal message whose currency collection carries
 * `amount` of currency `id` and no TON (the wallet pays the forward fee separately), bounce by the
 * TON rule. No contract is involved: the chain itself moves extra currencies.
 */
export const extraCurrencyMessage = (args: {
  readonly to: OutMessage["to"]
  readonly id: number
  readonly amount: bigint
  readonly bounce: boolean
  readonly body?: OutMessage["body"]
}): OutMessage => {
  if (!Number.isInteger(args.id) || args.id <= 0 || args.id > 0xffff_ffff) throw new Error("Invalid extra currency id")
  if (args.amount <= 0n) throw new Error("Extra currency amount must be positive")
  return {
    to: args.to,
    value: EXTRA_CURRENCY_ATTACHED_TON,
    bounce: args.bounce,
    extraCurrency: { [args.id]: args.amount },
    ...(args.body ? { body: args.body } : {}),
  }
}

/** TON attached to an extra-currency transfer: none (fees are paid separately by the send mode). */
export const EXTRA_CURRENCY_ATTACHED_TON = 0n

export const walletSeqno = async (chain: ChainShape, raw: string) => {
  const account = await Effect.runPromise(loadAccount(chain, raw))
  const deployed = account.status === "active"
  const seqno = deployed ? await Effect.runPromise(chain.getSeqno(raw)) : 0
  return { seqno, deployed, balance: account.balance }
}

export type EmulationOutcome =
  | { readonly ok: true; readonly consequences: MessageConsequences; readonly fee: bigint }
  | { readonly ok: false; readonly reason: EmulationReason }

/** Emulates with a placeholder signature (the API ignores it) so the passcode is asked only to send. */
export const emulateSend = async (ton: TonModule, chain: ChainShape, wallet: WalletRef, request: SendRequest): Promise<EmulationOutcome> => {
  const [messages, state] = await Promise.all([buildMessages(ton, chain, wallet, request), walletSeqno(chain, wallet.raw)])
  const unsigned = ton.signTransfer({
    keys: { publicKey: wallet.publicKey, secretKey: Buffer.alloc(64) },
    walletClass: wallet.walletClass,
    network: wallet.network,
    seqno: state.seqno,
    deployed: state.deployed,
    messages,
  })
  const result = await Effect.runPromise(Effect.result(chain.emulate(unsigned.boc)))
  if (result._tag === "Failure") return { ok: false, reason: emulationErrorReason(result.failure) }
  const reason = emulationReject(result.success, { expectedActions: 1 })
  if (reason) return { ok: false, reason }
  const extra = result.success.event.extra
  return { ok: true, consequences: result.success, fee: extra < 0n ? -extra : 0n }
}

/** Signs with the real key and sends; the message hash identifies the pending item. */
export const signAndSend = async (ton: TonModule, chain: ChainShape, wallet: WalletRef, request: SendRequest, words: ReadonlyArray<string>) => {
  const [keys, messages, state] = await Promise.all([ton.keysOf(words), buildMessages(ton, chain, wallet, request), walletSeqno(chain, wallet.raw)])
  const signed = ton.signTransfer({ keys, walletClass: wallet.walletClass, network: wallet.network, seqno: state.seqno, deployed: state.deployed, messages })
  await Effect.runPromise(chain.sendBoc(signed.boc))
  return signed
}
