/**
 * sendTransaction: decode and validate the dApp's payload (every message: TON with a comment, a
 * TEP-74 jetton transfer, a TEP-62 NFT transfer, any other call), then build the wallet's external
 * message with @ton/ton's wallet contracts (W5R1, or v4R2: `createTransfer`) and have the signer sign it.
 */
import { Address, beginCell, Cell, external, internal, loadStateInit, type MessageRelaxed, SendMode, storeMessage } from "@ton/core"
import { WalletContractV4 } from "@ton/ton/dist/wallets/WalletContractV4.js"
import { WalletContractV5R1 } from "@ton/ton/dist/wallets/WalletContractV5R1.js"
import { Base64, SEND_TRANSACTION_ERROR_CODES as RPC } from "@tonconnect/protocol"
import { Buffer } from "buffer"
import { Effect, Schema } from "effect"
import { base64Bytes } from "./bytes.ts"
import { type TransactionPayload, TransactionPayloadFromJson } from "./protocol.ts"
import { globalIdOf, maxMessagesOf, SignerError, type TonNetwork, type WalletSigner, type WalletVersion } from "./signer.ts"

/**
 * An RPC answer's error code. SEND_TRANSACTION_ERROR_CODES is used for signData and disconnect
 * answers too: SIGN_DATA_ERROR_CODES and DISCONNECT_ERROR_CODES give the same names the same numbers.
 */
export type RpcErrorCode = RPC

/** Why a request is refused before or while it is handled; `code` is the protocol's error code. */
export class RequestError extends Schema.TaggedError<RequestError>()("RequestError", {
  code: Schema.Enum(RPC),
  message: Schema.String,
}) {}

const bad = (message: string) => new RequestError({ code: RPC.BAD_REQUEST_ERROR, message })

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
      const cells = Cell.fromBoc(Buffer.from(base64Bytes(boc)))
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

const internalOf = (message: DecodedMessage): MessageRelaxed =>
  internal({
    to: Address.parseRaw(message.to),
    value: message.amount,
    bounce: message.bounce,
    ...(message.payload ? { body: message.payload } : {}),
    ...(message.stateInit ? { init: loadStateInit(message.stateInit.beginParse()) } : {}),
  })

const SEND_MODE = SendMode.PAY_GAS_SEPARATELY + SendMode.IGNORE_ERRORS

/** The standard wallet contract (@ton/ton) of the signer's key: W5R1 (the network's wallet id, workchain 0, subwallet 0) or v4R2. */
export const walletContractOf = (signer: Pick<WalletSigner, "publicKey" | "network" | "version">): WalletContractV5R1 | WalletContractV4 => {
  const publicKey = Buffer.from(signer.publicKey)
  return signer.version === "v4r2"
    ? WalletContractV4.create({ workchain: 0, publicKey })
    : WalletContractV5R1.create({ publicKey, walletId: { networkGlobalId: globalIdOf(signer.network) } })
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

/**
 * The external message through the wallet contract's own `createTransfer`: `sign` gets the
 * signing cell (the key signs its hash) and gives the 64-byte signature.
 */
const transfer = (input: BuildTransferInput, sign: (signing: Cell) => Promise<Buffer>): Promise<Cell> => {
  const contract = walletContractOf(input.signer)
  const args = { seqno: input.seqno, sendMode: SEND_MODE, timeout: validUntilOf(input), messages: input.request.messages.map(internalOf), signer: sign }
  const body = contract instanceof WalletContractV4 ? contract.createTransfer(args) : contract.createTransfer(args)
  return body.then((cell) => {
    const message = external({ to: contract.address, body: cell, ...(input.deploy ? { init: contract.init } : {}) })
    return beginCell().store(storeMessage(message)).endCell()
  })
}

/** The signer's address must be the standard contract of its key, or the message would go to another wallet. */
const checkWallet = (signer: WalletSigner): Effect.Effect<void, SignerError> =>
  Effect.suspend(() =>
    sameAddress(walletContractOf(signer).address.toRawString(), signer.address)
      ? Effect.void
      : Effect.fail(new SignerError({ cancelled: false, message: "the wallet is not the standard contract of its key" })),
  )

/** Builds and signs the external message; the BoC goes to the chain and back to the dApp. */
export const buildSignedTransfer = (input: BuildTransferInput): Effect.Effect<{ readonly boc: string; readonly cell: Cell }, SignerError> =>
  Effect.gen(function* () {
    yield* checkWallet(input.signer)
    let failure: SignerError | undefined
    const cell = yield* Effect.tryPromise({
      try: () =>
        transfer(input, (signing) =>
          Effect.runPromise(
            input.signer.signRaw(new Uint8Array(signing.hash())).pipe(
              Effect.tapError((e) => Effect.sync(() => void (failure = e))),
              Effect.map((signature) => Buffer.from(signature)),
            ),
          ),
        ),
      catch: () => failure ?? new SignerError({ cancelled: false, message: "the transfer could not be signed" }),
    })
    return { boc: Base64.encode(new Uint8Array(cell.toBoc())), cell }
  })

/** The same message with a zero signature, for emulation (the emulator skips the signature check). */
export const buildUnsignedTransfer = (input: BuildTransferInput): Effect.Effect<string> =>
  Effect.promise(() => transfer(input, async () => Buffer.alloc(64))).pipe(Effect.map((cell) => Base64.encode(new Uint8Array(cell.toBoc()))))
