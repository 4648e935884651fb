/**
 * sendTransaction: decode and validate the dApp's payload (every message: TON with a comment, a
 * TEP-74 jetton transfer, a TEP-62 NFT transfer, any other call), then build the wallet's external
 * message (W5R1, or v4R2) and have the signer sign it.
 */
import { Address, beginCell, Cell, external, internal, type MessageRelaxed, SendMode, storeMessage, storeMessageRelaxed, storeOutList } from "@ton/core"
import { Buffer } from "buffer"
import { Effect, Schema } from "effect"
import { fromBase64, toBase64 } from "./bytes.ts"
import { ErrorCode, type TransactionPayload, TransactionPayloadFromJson } from "./protocol.ts"
import { globalIdOf, maxMessagesOf, type SignerError, type TonNetwork, type WalletSigner, type WalletVersion } from "./signer.ts"

/** Why a request is refused before or while it is handled; `code` is the protocol's error code. */
export class RequestError extends Schema.TaggedError<RequestError>()("RequestError", {
  code: Schema.Literals([ErrorCode.Unknown, ErrorCode.BadRequest, ErrorCode.UnknownApp, ErrorCode.UserDeclined, ErrorCode.NotSupported]),
  message: Schema.String,
}) {}

const bad = (message: string) => new RequestError({ code: ErrorCode.BadRequest, message })

export const OP_TEXT_COMMENT = 0
export const OP_ENCRYPTED_COMMENT = 0x2167da4b
export const OP_JETTON_TRANSFER = 0x0f8a7ea5
export const OP_NFT_TRANSFER = 0x5fcc3d14

export type MessageAction =
  | { readonly kind: "ton"; readonly comment?: string; readonly encryptedComment?: boolean }
  | {
      readonly kind: "jetton"
      readonly queryId: bigint
      /** Jetton minor units. */
      readonly jettonAmount: bigint
      /** The new owner (raw). */
      readonly recipient: string
      readonly responseDestination: string | null
      readonly forwardTonAmount: bigint
      readonly comment?: string
    }
  | {
      readonly kind: "nft"
      readonly queryId: bigint
      readonly newOwner: string
      readonly responseDestination: string | null
      readonly forwardAmount: bigint
      readonly comment?: string
    }
  | { readonly kind: "call"; readonly op: number }

export interface DecodedMessage {
  /** Destination (raw); for a jetton transfer the sender's jetton wallet, for an NFT the item. */
  readonly to: string
  /** The address as the dApp wrote it. */
  readonly toAsGiven: string
  readonly bounce: boolean
  /** Nanotons attached. */
  readonly amount: bigint
  readonly payload?: Cell
  readonly stateInit?: Cell
  readonly action: MessageAction
}

export interface TransactionRequest {
  /** Unix seconds; absent when the dApp gave none. */
  readonly validUntil?: number
  readonly network?: string
  readonly from?: string
  readonly messages: ReadonlyArray<DecodedMessage>
}

export interface WalletContext {
  readonly address: string
  readonly network: TonNetwork
  readonly version?: WalletVersion
}

const loadAddressOrNull = (slice: ReturnType<Cell["beginParse"]>): string | null => {
  const address = slice.loadMaybeAddress()
  return address ? address.toRawString() : null
}

/** A text comment in an Either-ref forward payload (or a plain comment body). */
const commentOf = (cell: Cell | null): string | undefined => {
  if (!cell) return undefined
  try {
    const slice = cell.beginParse()
    if (slice.remainingBits < 32) return undefined
    if (slice.loadUint(32) !== OP_TEXT_COMMENT) return undefined
    return slice.loadStringTail()
  } catch {
    return undefined
  }
}

/** Reads what a message body does (unknown or unreadable bodies are a plain call with their op). */
export const decodeBody = (payload: Cell | undefined): MessageAction => {
  if (!payload) return { kind: "ton" }
  const slice = payload.beginParse()
  if (slice.remainingBits < 32) return slice.remainingBits === 0 && slice.remainingRefs === 0 ? { kind: "ton" } : { kind: "call", op: -1 }
  const op = slice.loadUint(32)
  try {
    if (op === OP_TEXT_COMMENT) return { kind: "ton", comment: slice.loadStringTail() }
    if (op === OP_ENCRYPTED_COMMENT) return { kind: "ton", encryptedComment: true }
    if (op === OP_JETTON_TRANSFER) {
      const queryId = slice.loadUintBig(64)
      const jettonAmount = slice.loadCoins()
      const recipient = slice.loadAddress().toRawString()
      const responseDestination = loadAddressOrNull(slice)
      slice.loadMaybeRef()
      const forwardTonAmount = slice.loadCoins()
      const forward = slice.remainingBits > 0 && slice.loadBit() ? slice.loadRef() : slice.asCell()
      const comment = commentOf(forward)
      return { kind: "jetton", queryId, jettonAmount, recipient, responseDestination, forwardTonAmount, ...(comment !== undefined ? { comment } : {}) }
    }
    if (op === OP_NFT_TRANSFER) {
      const queryId = slice.loadUintBig(64)
      const newOwner = slice.loadAddress().toRawString()
      const responseDestination = loadAddressOrNull(slice)
      slice.loadMaybeRef()
      const forwardAmount = slice.loadCoins()
      const forward = slice.remainingBits > 0 && slice.loadBit() ? slice.loadRef() : slice.asCell()
      const comment = commentOf(forward)
      return { kind: "nft", queryId, newOwner, responseDestination, forwardAmount, ...(comment !== undefined ? { comment } : {}) }
    }
  } catch {
    return { kind: "call", op }
  }
  return { kind: "call", op }
}

const parseCell = (boc: string, what: string): Effect.Effect<Cell, RequestError> =>
  Effect.try({
    try: () => {
      const cells = Cell.fromBoc(Buffer.from(fromBase64(boc)))
      if (cells.length !== 1) throw new Error("not one root")
      return cells[0]!
    },
    catch: () => bad(`${what} is not a one-root BoC`),
  })

/** valid_until in seconds (some dApps send milliseconds). */
export const normalizeValidUntil = (value: number | string | undefined): number | undefined => {
  if (value === undefined || value === "") return undefined
  const n = Number(value)
  if (!Number.isFinite(n) || n <= 0) return undefined
  return Math.floor(n > 10_000_000_000 ? n / 1000 : n)
}

const sameAddress = (a: string, b: string): boolean => {
  try {
    return Address.parse(a).equals(Address.parse(b))
  } catch {
    return false
  }
}

/** Checks the request against the wallet and the clock (error 1 for each violation). */
export const validateTransaction = (payload: TransactionPayload, wallet: WalletContext, nowSeconds: number): Effect.Effect<TransactionRequest, RequestError> =>
  Effect.gen(function* () {
    const validUntil = normalizeValidUntil(payload.valid_until)
    if (payload.valid_until !== undefined && validUntil === undefined) return yield* bad("valid_until is not a timestamp")
    if (validUntil !== undefined && validUntil <= nowSeconds) return yield* bad("the request expired (valid_until has passed)")
    if (payload.network !== undefined && payload.network !== wallet.network) {
      return yield* bad(`wrong network: the request is for ${payload.network}, the wallet is on ${wallet.network}`)
    }
    if (payload.from !== undefined && payload.from !== "" && !sameAddress(payload.from, wallet.address)) {
      return yield* bad("wrong from: the request is for another wallet")
    }
    if (payload.messages.length === 0) return yield* bad("no messages")
    const max = maxMessagesOf(wallet.version)
    if (payload.messages.length > max) return yield* bad(`too many messages: ${payload.messages.length}, this wallet sends at most ${max}`)
    const messages: Array<DecodedMessage> = []
    for (const [index, message] of payload.messages.entries()) {
      if (message.extra_currency !== undefined && message.extra_currency !== null && Object.keys(message.extra_currency as object).length > 0) {
        return yield* bad(`message ${index}: extra currencies are not supported`)
      }
      let to: Address
      let bounce = true
      try {
        if (Address.isFriendly(message.address)) {
          const friendly = Address.parseFriendly(message.address)
          to = friendly.address
          bounce = friendly.isBounceable
        } else to = Address.parseRaw(message.address)
      } catch {
        return yield* bad(`message ${index}: invalid address`)
      }
      const amount = BigInt(message.amount)
      const payloadCell = message.payload ? yield* parseCell(message.payload, `message ${index} payload`) : undefined
      const stateInit = message.stateInit ? yield* parseCell(message.stateInit, `message ${index} stateInit`) : undefined
      messages.push({
        to: to.toRawString(),
        toAsGiven: message.address,
        bounce,
        amount,
        ...(payloadCell ? { payload: payloadCell } : {}),
        ...(stateInit ? { stateInit } : {}),
        action: decodeBody(payloadCell),
      })
    }
    return {
      ...(validUntil !== undefined ? { validUntil } : {}),
      ...(payload.network !== undefined ? { network: payload.network } : {}),
      ...(payload.from !== undefined ? { from: payload.from } : {}),
      messages,
    }
  })

/** Decodes params[0] of a sendTransaction request and validates it. */
export const decodeTransaction = (params0: unknown, wallet: WalletContext, nowSeconds: number): Effect.Effect<TransactionRequest, RequestError> =>
  Schema.decodeUnknownEffect(TransactionPayloadFromJson)(params0).pipe(
    Effect.mapError((e) => bad(`bad sendTransaction payload: ${e.message}`)),
    Effect.flatMap((payload) => validateTransaction(payload, wallet, nowSeconds)),
  )

/** StateInit `split_depth:(Maybe (## 5)) special:(Maybe TickTock) code:(Maybe ^Cell) data:(Maybe ^Cell) library:(Maybe ^Cell)`. */
const loadStateInitParts = (cell: Cell): { code: Cell | null; data: Cell | null } => {
  const slice = cell.beginParse()
  if (slice.loadBit()) slice.loadUint(5)
  if (slice.loadBit()) slice.loadUint(2)
  return { code: slice.loadMaybeRef(), data: slice.loadMaybeRef() }
}

const internalOf = (message: DecodedMessage): MessageRelaxed => {
  const { code, data } = message.stateInit ? loadStateInitParts(message.stateInit) : { code: null, data: null }
  return internal({
    to: Address.parseRaw(message.to),
    value: message.amount,
    bounce: message.bounce,
    ...(message.payload ? { body: message.payload } : {}),
    ...(message.stateInit ? { init: { ...(code ? { code } : {}), ...(data ? { data } : {}) } } : {}),
  })
}

/** W5R1 wallet_id for the default client context (workchain 0, subwallet 0): global_id XOR context. */
export const w5r1WalletId = (network: TonNetwork, workchain = 0, subwallet = 0): number => {
  const context = ((1 << 31) | ((workchain & 0xff) << 23) | (0 << 15) | (subwallet & 0x7fff)) | 0
  return globalIdOf(network) ^ context
}
/** v4R2 default subwallet id. */
export const v4r2WalletId = (workchain = 0): number => 698983191 + workchain

const SEND_MODE = SendMode.PAY_GAS_SEPARATELY + SendMode.IGNORE_ERRORS

/** The part of the external body the wallet key signs (its hash is what `signRaw` gets). */
export const signingMessage = (options: {
  readonly version: WalletVersion
  readonly network: TonNetwork
  readonly seqno: number
  readonly validUntil: number
  readonly messages: ReadonlyArray<DecodedMessage>
}): Cell => {
  const outs = options.messages.map(internalOf)
  if (options.version === "v4r2") {
    const builder = beginCell().storeUint(v4r2WalletId(), 32).storeUint(options.validUntil, 32).storeUint(options.seqno, 32).storeUint(0, 8)
    for (const out of outs) builder.storeUint(SEND_MODE, 8).storeRef(beginCell().store(storeMessageRelaxed(out)))
    return builder.endCell()
  }
  const actions = outs.map((outMsg) => ({ type: "sendMsg" as const, mode: SEND_MODE, outMsg }))
  return beginCell()
    .storeUint(0x7369676e, 32)
    .storeInt(w5r1WalletId(options.network), 32)
    .storeUint(options.validUntil, 32)
    .storeUint(options.seqno, 32)
    .storeMaybeRef(beginCell().store(storeOutList(actions)).endCell())
    .storeUint(0, 1)
    .endCell()
}

/** Puts the signature where the wallet expects it (W5R1 at the tail, v4R2 in front) and wraps the external message. */
export const externalMessage = (options: {
  readonly version: WalletVersion
  readonly wallet: string
  readonly stateInit?: string
  readonly signing: Cell
  readonly signature: Uint8Array
}): Cell => {
  const signature = Buffer.from(options.signature)
  const body =
    options.version === "v4r2"
      ? beginCell().storeBuffer(signature).storeSlice(options.signing.beginParse()).endCell()
      : beginCell().storeSlice(options.signing.beginParse()).storeBuffer(signature).endCell()
  const init = options.stateInit ? loadStateInitParts(Cell.fromBase64(options.stateInit)) : undefined
  const message = external({
    to: Address.parse(options.wallet),
    body,
    ...(init ? { init: { ...(init.code ? { code: init.code } : {}), ...(init.data ? { data: init.data } : {}) } } : {}),
  })
  return beginCell().store(storeMessage(message)).endCell()
}

/** Default lifetime of the external message when the dApp allows longer (spec: message validity 60 s). */
export const DEFAULT_VALIDITY_SECONDS = 60

export interface BuildTransferInput {
  readonly signer: WalletSigner
  readonly seqno: number
  /** Include the wallet's state init (the first transfer deploys the wallet). */
  readonly deploy: boolean
  readonly request: TransactionRequest
  readonly nowSeconds: number
}

const validUntilOf = (input: BuildTransferInput): number => {
  const cap = input.nowSeconds + DEFAULT_VALIDITY_SECONDS
  return input.request.validUntil !== undefined ? Math.min(input.request.validUntil, cap) : cap
}

/** Builds and signs the external message; the BoC goes to the chain and back to the dApp. */
export const buildSignedTransfer = (input: BuildTransferInput): Effect.Effect<{ readonly boc: string; readonly cell: Cell }, SignerError> =>
  Effect.gen(function* () {
    const version = input.signer.version ?? "v5r1"
    const signing = signingMessage({ version, network: input.signer.network, seqno: input.seqno, validUntil: validUntilOf(input), messages: input.request.messages })
    const signature = yield* input.signer.signRaw(new Uint8Array(signing.hash()))
    const cell = externalMessage({
      version,
      wallet: input.signer.address,
      signing,
      signature,
      ...(input.deploy ? { stateInit: input.signer.stateInit } : {}),
    })
    return { boc: toBase64(new Uint8Array(cell.toBoc())), cell }
  })

/** The same message with a zero signature, for emulation (the emulator skips the signature check). */
export const buildUnsignedTransfer = (input: BuildTransferInput): string => {
  const version = input.signer.version ?? "v5r1"
  const signing = signingMessage({ version, network: input.signer.network, seqno: input.seqno, validUntil: validUntilOf(input), messages: input.request.messages })
  const cell = externalMessage({
    version,
    wallet: input.signer.address,
    signing,
    signature: new Uint8Array(64),
    ...(input.deploy ? { stateInit: input.signer.stateInit } : {}),
  })
  return toBase64(new Uint8Array(cell.toBoc()))
}
