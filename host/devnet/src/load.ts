// Load helpers for benchmarks and other packages' tests: deterministic W5R1 wallets and signed transfers.
import { type Address, SendMode, beginCell, external, internal, storeMessage } from "@ton/core"
import { keyPairFromSeed, type KeyPair } from "@ton/crypto"
import { WalletContractV5R1 } from "@ton/ton"
import type { GlobalId } from "./devnet.ts"

export interface LoadWallet {
  readonly key: KeyPair
  readonly contract: WalletContractV5R1
  readonly address: Address
  readonly raw: string
  seqno: number
}

export const loadWallet = (index: number, globalId: GlobalId = -239): LoadWallet => {
  const seed = Buffer.alloc(32)
  seed.writeUInt32BE(index + 1, 0)
  seed.write("devnet-load", 4)
  const key = keyPairFromSeed(seed)
  const contract = WalletContractV5R1.create({ publicKey: key.publicKey, walletId: { networkGlobalId: globalId } })
  return { key, contract, address: contract.address, raw: contract.address.toRawString(), seqno: 0 }
}

/** A signed external (base64 BoC) sending `value` nanotons with a text comment; attaches the state init on seqno 0. */
export const signedTransfer = (w: LoadWallet, to: Address, value: bigint, comment: string): string => {
  const body = w.contract.createTransfer({
    seqno: w.seqno,
    secretKey: w.key.secretKey,
    sendMode: SendMode.PAY_GAS_SEPARATELY,
    messages: [internal({ to, value, bounce: false, body: comment })],
  })
  return beginCell()
    .store(storeMessage(external({ to: w.address, body, ...(w.seqno === 0 ? { init: w.contract.init } : {}) })))
    .endCell()
    .toBoc()
    .toString("base64")
}
