import { WalletContractV5R1 } from "@ton/ton"

/**
 * The fixed devnet address "Send 0.1 TON" pays: the W5R1 (mainnet id) wallet of the public key
 * 0x07 × 32. Nobody holds its key; it only receives. Non-bounceable, as it starts undeployed.
 */
export const demoReceiver = (): { readonly friendly: string; readonly raw: string } => {
  const address = WalletContractV5R1.create({ workchain: 0, publicKey: Buffer.alloc(32, 7), walletId: { networkGlobalId: -239 } }).address
  return { friendly: address.toString({ urlSafe: true, bounceable: false }), raw: address.toRawString() }
}
