/**
 * What the engine needs from a wallet: its address, public key, state init, network, version and a
 * way to sign bytes with its ed25519 key. The ton-space plugin implements it over its KeyVault (the
 * passcode prompt lives behind `signRaw`); tests use `keyPairSigner`.
 */
import { Effect, Schema } from "effect"
import nacl from "tweetnacl"

/** Chain network ids as TonConnect writes them. */
export type TonNetwork = "-239" | "-3"
export type WalletVersion = "v5r1" | "v4r2"

export class SignerError extends Schema.TaggedError<SignerError>()("SignerError", {
  /** The user backed out (wrong passcode given up, biometry cancelled): answered as "user declined" (300). */
  cancelled: Schema.Boolean,
  message: Schema.String,
}) {}

export interface WalletSigner {
  /** Raw form `0:<64 hex>`. */
  readonly address: string
  /** 32-byte ed25519 public key. */
  readonly publicKey: Uint8Array
  /** The wallet's StateInit as a base64 BoC. */
  readonly stateInit: string
  readonly network: TonNetwork
  /** v5r1 when absent. */
  readonly version?: WalletVersion
  /** 64-byte ed25519 signature of exactly these bytes. */
  readonly signRaw: (bytes: Uint8Array) => Effect.Effect<Uint8Array, SignerError>
}

/** Messages per external message: W5R1 255, v4R2 4 (PROTOCOLS.md "Wallet contracts"). */
export const maxMessagesOf = (version: WalletVersion | undefined): number => (version === "v4r2" ? 4 : 255)

export const globalIdOf = (network: TonNetwork): -239 | -3 => (network === "-3" ? -3 : -239)

/** A signer over an ed25519 secret key held in memory (tests and tooling; the app signs through the KeyVault). */
export const keyPairSigner = (options: {
  readonly secretKey: Uint8Array
  readonly address: string
  readonly stateInit: string
  readonly network: TonNetwork
  readonly version?: WalletVersion
}): WalletSigner => {
  const pair = nacl.sign.keyPair.fromSecretKey(options.secretKey)
  return {
    address: options.address,
    publicKey: pair.publicKey,
    stateInit: options.stateInit,
    network: options.network,
    ...(options.version ? { version: options.version } : {}),
    signRaw: (bytes) => Effect.sync(() => nacl.sign.detached(bytes, pair.secretKey)),
  }
}
