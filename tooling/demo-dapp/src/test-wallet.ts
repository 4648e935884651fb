import { createPrivateKey, createPublicKey } from "node:crypto"
import { beginCell, storeStateInit } from "@ton/core"
import { WalletContractV5R1 } from "@ton/ton"

/**
 * A W5R1 wallet (mainnet id) from a 32-byte seed, for tests that play the wallet in Node:
 * raw address, friendly non-bounceable address, base64 state init and the 64-byte
 * (seed || public key) secret key the TonConnect engine's key-pair signer takes.
 */
export const testWallet = (seed: Buffer) => {
  if (seed.length !== 32) throw new Error("the seed is 32 bytes")
  const privateKey = createPrivateKey({ key: Buffer.concat([Buffer.from("302e020100300506032b657004220420", "hex"), seed]), format: "der", type: "pkcs8" })
  const publicKey = createPublicKey(privateKey).export({ format: "der", type: "spki" }).subarray(12)
  const contract = WalletContractV5R1.create({ workchain: 0, publicKey, walletId: { networkGlobalId: -239 } })
  return {
    publicKey,
    secretKey: new Uint8Array(Buffer.concat([seed, publicKey])),
    raw: contract.address.toRawString(),
    friendly: contract.address.toString({ urlSafe: true, bounceable: false }),
    stateInit: beginCell().store(storeStateInit(contract.init)).endCell().toBoc().toString("base64"),
  }
}
