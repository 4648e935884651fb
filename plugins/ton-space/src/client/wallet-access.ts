/**
 * The narrow port other plugins (TonConnect) use of the self-custody wallet: the current wallet's
 * public facts and a signature over given bytes. Imported lazily only (it pulls the TON module).
 *
 * The secret key exists only inside `signBytes`: the words come from `wordsForOperation` (the
 * passcode first), the key is derived, used for one signature and zeroed before returning. Nothing
 * here is stored, logged or sent.
 */
import { fromHex, type PasscodeShape } from "@wallet/kernel"
import type { ChainShape } from "@wallet/kernel/chain"
import type { Kernel } from "@wallet/kernel-react"
import type { WalletClass } from "../core/versions.ts"
import { wordsForOperation } from "./flows.ts"
import { chainFor, walletStore } from "./hooks.ts"
import { loadTon } from "./ton.ts"

export const WALLET_ACCESS_VERSION = 1

/** Chain network ids as TonConnect writes them. */
export type WalletNetworkId = "-239" | "-3"

export interface CurrentWallet {
  /** Raw form `0:<64 hex>`. */
  readonly address: string
  /** The user-facing (friendly, non-bounceable) form. */
  readonly friendly: string
  /** 32-byte ed25519 public key. */
  readonly publicKey: Uint8Array
  /** The wallet's StateInit as a base64 BoC. */
  readonly walletStateInit: string
  readonly version: WalletClass
  readonly network: WalletNetworkId
  /** The chain API of the wallet's network (same origin's /v2 unless the region says otherwise). */
  readonly chain: ChainShape
}

/** The wallet on this device, or null when there is none yet (or its public key is unknown). */
export const currentWallet = async (kernel: Kernel): Promise<CurrentWallet | null> => {
  const state = walletStore(kernel).get()
  if (!state.address || !state.publicKey) return null
  const ton = await loadTon()
  // @ton/core after the TON module: its entry installs the Buffer global first.
  const { beginCell, storeStateInit } = await import("@ton/core")
  const publicKey = fromHex(state.publicKey)
  const contract = ton.walletContract(Buffer.from(publicKey), state.walletClass, state.walletNetwork)
  const stateInit = beginCell().store(storeStateInit(contract.init)).endCell().toBoc().toString("base64")
  return {
    address: contract.address.toRawString(),
    friendly: state.address,
    publicKey,
    walletStateInit: stateInit,
    version: state.walletClass,
    network: state.walletNetwork === "testnet" ? "-3" : "-239",
    chain: chainFor(kernel, state.walletNetwork),
  }
}

/** Subscribes to changes of the wallet on this device (created, imported, network or version switched, logged out). */
export const onWalletChange = (kernel: Kernel, listener: () => void): (() => void) => walletStore(kernel).subscribe(listener)

export type SignOutcome =
  | { readonly ok: true; readonly signature: Uint8Array }
  /** The user closed the passcode prompt. */
  | { readonly ok: false; readonly reason: "cancelled" }
  /** No wallet, the words are not on this device, or they belong to another key. */
  | { readonly ok: false; readonly reason: "unavailable" | "mismatch" }

/**
 * A 64-byte ed25519 signature of exactly `bytes` with the current wallet's key, after the passcode
 * (`operation` names it to the Passcode service). `expectedPublicKey` guards against a wallet that
 * changed between showing a request and signing it.
 */
export const signBytes = async (
  kernel: Kernel,
  passcode: PasscodeShape,
  bytes: Uint8Array,
  options: { readonly operation?: string; readonly expectedPublicKey?: Uint8Array } = {},
): Promise<SignOutcome> => {
  const state = walletStore(kernel).get()
  if (!state.address || !state.publicKey) return { ok: false, reason: "unavailable" }
  const words = await wordsForOperation(kernel, passcode, options.operation ?? "tonconnect_sign", state.address)
  if (words === "cancelled") return { ok: false, reason: "cancelled" }
  if (!words) return { ok: false, reason: "unavailable" }
  const ton = await loadTon()
  const keys = await ton.keysOf(words)
  try {
    const expected = options.expectedPublicKey ?? fromHex(state.publicKey)
    if (!sameBytes(keys.publicKey, expected)) return { ok: false, reason: "mismatch" }
    const { sign } = await import("@ton/crypto")
    return { ok: true, signature: new Uint8Array(sign(Buffer.from(bytes), keys.secretKey)) }
  } finally {
    keys.secretKey.fill(0)
  }
}

const sameBytes = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((x, i) => x === b[i])
