/**
 * The TON side's heavy code: mnemonics, keys, wallet contracts and signed transfers (@ton/core,
 * @ton/crypto, @ton/ton wallets). Loaded only through `import()` when the TON space opens; the
 * first screen never carries it. Secrets stay in this module's callers' memory: nothing here logs.
 */
export { BUFFER_INSTALLED } from "./buffer-shim.ts"
import { Address, beginCell, Cell, external, internal, SendMode, storeMessage, type MessageRelaxed } from "@ton/core"
import { mnemonicNew, mnemonicToPrivateKey, mnemonicValidate, type KeyPair } from "@ton/crypto"
import { WalletContractV3R1 } from "@ton/ton/dist/wallets/WalletContractV3R1.js"
import { WalletContractV3R2 } from "@ton/ton/dist/wallets/WalletContractV3R2.js"
import { WalletContractV4 } from "@ton/ton/dist/wallets/WalletContractV4.js"
import { WalletContractV5Beta } from "@ton/ton/dist/wallets/WalletContractV5Beta.js"
import { WalletContractV5R1 } from "@ton/ton/dist/wallets/WalletContractV5R1.js"
import type { Network } from "../core/assets.ts"

export { Address, Cell }

export const MNEMONIC_WORDS = 24
/** Spec 2 §9: default message validity 60 s. */
export const MESSAGE_VALIDITY_SECONDS = 60
/** TEP-74 transfer; spec 2 §7: forward fee amount 0.05 TON attached, forward amount 1 nano. */
export const JETTON_TRANSFER_OP = 0x0f8a7ea5
export const JETTON_ATTACHED_TON = 50_000_000n
export const JETTON_FORWARD_TON = 1n
export const NFT_TRANSFER_OP = 0x5fcc3d14

import { DEFAULT_WALLET_CLASS, maxMessages, WALLET_CLASSES, type WalletClass } from "../core/versions.ts"
export { DEFAULT_WALLET_CLASS, maxMessages, WALLET_CLASSES, type WalletClass }

export const GLOBAL_ID: Record<Network, -239 | -3> = { mainnet: -239, testnet: -3 }

export const newMnemonic = (): Promise<Array<string>> => mnemonicNew(MNEMONIC_WORDS)
export const isValidMnemonic = (words: ReadonlyArray<string>): Promise<boolean> =>
  words.length === MNEMONIC_WORDS ? mnemonicValidate([...words]) : Promise.resolve(false)
export const keysOf = (words: ReadonlyArray<string>): Promise<KeyPair> => mnemonicToPrivateKey([...words])

type AnyWallet = WalletContractV5R1 | WalletContractV5Beta | WalletContractV4 | WalletContractV3R2 | WalletContractV3R1

export const walletContract = (publicKey: Buffer, walletClass: WalletClass, network: Network): AnyWallet => {
  switch (walletClass) {
    case "v5r1":
      return WalletContractV5R1.create({ publicKey, walletId: { networkGlobalId: GLOBAL_ID[network] } })
    case "v5beta":
      return WalletContractV5Beta.create({ publicKey, walletId: { networkGlobalId: GLOBAL_ID[network] } })
    case "v4r2":
      return WalletContractV4.create({ workchain: 0, publicKey })
    case "v3r2":
      return WalletContractV3R2.create({ workchain: 0, publicKey })
    case "v3r1":
      return WalletContractV3R1.create({ workchain: 0, publicKey })
  }
}

/** The user's own wallet is shown non-bounceable (UQ… on mainnet, 0Q… test-only on testnet). */
export const friendly = (address: Address, network: Network, bounceable = false) =>
  address.toString({ urlSafe: true, bounceable, testOnly: network === "testnet" })

export interface WalletIdentity {
  readonly walletClass: WalletClass
  readonly address: string
  readonly raw: string
}

export const identityOf = (publicKey: Buffer, walletClass: WalletClass, network: Network): WalletIdentity => {
  const contract = walletContract(publicKey, walletClass, network)
  return { walletClass, address: friendly(contract.address, network), raw: contract.address.toRawString() }
}

/** Every version's address of one key, newest first. */
export const identitiesOf = (publicKey: Buffer, network: Network): ReadonlyArray<WalletIdentity> =>
  WALLET_CLASSES.map((walletClass) => identityOf(publicKey, walletClass, network))

export interface ParsedAddress {
  readonly address: Address
  readonly raw: string
  readonly isFriendly: boolean
  readonly isBounceable: boolean
  readonly isTestOnly: boolean
}

/** Friendly or raw address; null when neither (spec 2 §5 'Invalid address'). */
export const parseAddress = (input: string): ParsedAddress | null => {
  const text = input.trim()
  try {
    if (Address.isFriendly(text)) {
      const parsed = Address.parseFriendly(text)
      return { address: parsed.address, raw: parsed.address.toRawString(), isFriendly: true, isBounceable: parsed.isBounceable, isTestOnly: parsed.isTestOnly }
    }
    if (Address.isRaw(text)) {
      const address = Address.parseRaw(text)
      return { address, raw: address.toRawString(), isFriendly: false, isBounceable: true, isTestOnly: false }
    }
  } catch {
    return null
  }
  return null
}

export const sameAddress = (a: string, b: string) => {
  const pa = parseAddress(a)
  const pb = parseAddress(b)
  return pa !== null && pb !== null && pa.address.equals(pb.address)
}

export const commentBody = (comment: string): Cell => beginCell().storeUint(0, 32).storeStringTail(comment).endCell()

export const jettonTransferBody = (args: {
  readonly queryId: bigint
  readonly amount: bigint
  readonly destination: Address
  readonly responseDestination: Address
  readonly forwardTonAmount?: bigint
  readonly comment?: string
}): Cell => {
  const body = beginCell()
    .storeUint(JETTON_TRANSFER_OP, 32)
    .storeUint(args.queryId, 64)
    .storeCoins(args.amount)
    .storeAddress(args.destination)
    .storeAddress(args.responseDestination)
    .storeBit(false)
    .storeCoins(args.forwardTonAmount ?? JETTON_FORWARD_TON)
  if (args.comment) return body.storeBit(true).storeRef(commentBody(args.comment)).endCell()
  return body.storeBit(false).endCell()
}

export const nftTransferBody = (args: {
  readonly queryId: bigint
  readonly newOwner: Address
  readonly responseDestination: Address
  readonly forwardAmount?: bigint
}): Cell =>
  beginCell()
    .storeUint(NFT_TRANSFER_OP, 32)
    .storeUint(args.queryId, 64)
    .storeAddress(args.newOwner)
    .storeAddress(args.responseDestination)
    .storeBit(false)
    .storeCoins(args.forwardAmount ?? JETTON_FORWARD_TON)
    .storeBit(false)
    .endCell()

export interface OutMessage {
  readonly to: Address
  readonly value: bigint
  readonly bounce: boolean
  readonly body?: Cell
  /** Extra currencies carried by the message (id -> minor units): the message's currency dictionary (ADR 0630). */
  readonly extraCurrency?: Readonly<Record<number, bigint>>
}

export interface SignedTransfer {
  /** The external message, base64 BoC (what POST /v2/blockchain/message takes). */
  readonly boc: string
  /** Hash of the external message (hex): the pending item's id. */
  readonly messageHash: string
  readonly validUntil: number
}

/**
 * Signs a transfer of `messages` from the wallet (the state init goes along while it is not
 * deployed). `sendMode` pays fees separately and ignores errors, like every wallet app.
 */
export const signTransfer = (args: {
  readonly keys: KeyPair
  readonly walletClass: WalletClass
  readonly network: Network
  readonly seqno: number
  readonly deployed: boolean
  readonly messages: ReadonlyArray<OutMessage>
  readonly now?: number
}): SignedTransfer => {
  if (args.messages.length === 0 || args.messages.length > maxMessages(args.walletClass)) throw new Error("Unexpected messages count")
  const wallet = walletContract(args.keys.publicKey, args.walletClass, args.network)
  const validUntil = Math.floor((args.now ?? Date.now()) / 1000) + MESSAGE_VALIDITY_SECONDS
  const messages: Array<MessageRelaxed> = args.messages.map((m) =>
    internal({
      to: m.to,
      value: m.value,
      bounce: m.bounce,
      ...(m.body ? { body: m.body } : {}),
      ...(m.extraCurrency ? { extracurrency: { ...m.extraCurrency } } : {}),
    }),
  )
  const body = (wallet as WalletContractV4).createTransfer({
    seqno: args.seqno,
    secretKey: args.keys.secretKey,
    messages,
    sendMode: SendMode.PAY_GAS_SEPARATELY + SendMode.IGNORE_ERRORS,
    timeout: validUntil,
  })
  const message = external({ to: wallet.address, body, ...(args.deployed ? {} : { init: wallet.init }) })
  const cell = beginCell().store(storeMessage(message)).endCell()
  return { boc: cell.toBoc().toString("base64"), messageHash: cell.hash().toString("hex"), validUntil }
}

export const randomQueryId = (): bigint => {
  const bytes = new Uint8Array(8)
  crypto.getRandomValues(bytes)
  return bytes.reduce((acc, b) => (acc << 8n) | BigInt(b), 0n) & ((1n << 63n) - 1n)
}
