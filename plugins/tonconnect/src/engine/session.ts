/**
 * Sessions: one SessionCrypto key pair (@tonconnect/protocol; nacl box) per connected dApp (the wallet's client id is its public key in
 * hex), kept per wallet address and network in an injected string store, with the bridge cursor
 * (last event id), the next wallet event id and the last dApp request id.
 */
import { type KeyValueBackend, STORAGE_PREFIX } from "@wallet/kernel"
import { Effect, Schema } from "effect"
import { Base64, hexToByteArray, SessionCrypto } from "@tonconnect/protocol"
import { base64Bytes, isHex } from "./bytes.ts"
import type { AppInfo } from "./manifest.ts"
import type { TonNetwork } from "./signer.ts"

/** A device key-value store (Telegram DeviceStorage / SecureStorage, localStorage, a map in tests). */
export interface KeyValueStore {
  readonly get: (key: string) => Effect.Effect<string | null>
  readonly set: (key: string, value: string) => Effect.Effect<void>
  readonly remove: (key: string) => Effect.Effect<void>
}

/**
 * Over the kernel's synchronous backend (`localStorage` in the mini-app). Keys get the same
 * `wallet:` prefix as the kernel's stores; a failed write (quota) is reported and dropped: the
 * session then lives until the app closes.
 */
export const keyValueStoreFrom = (backend: KeyValueBackend, onProblem: (message: string) => void = () => {}): KeyValueStore => ({
  get: (key) => Effect.sync(() => backend.getItem(`${STORAGE_PREFIX}${key}`)),
  set: (key, value) =>
    Effect.sync(() => {
      try {
        backend.setItem(`${STORAGE_PREFIX}${key}`, value)
      } catch {
        onProblem(`tonconnect: could not store ${key}`)
      }
    }),
  remove: (key) => Effect.sync(() => backend.removeItem(`${STORAGE_PREFIX}${key}`)),
})

export const memoryStore = (map: Map<string, string> = new Map()): KeyValueStore => ({
  get: (key) => Effect.sync(() => map.get(key) ?? null),
  set: (key, value) => Effect.sync(() => void map.set(key, value)),
  remove: (key) => Effect.sync(() => void map.delete(key)),
})

const StoredApp = Schema.Struct({
  manifestUrl: Schema.String,
  url: Schema.String,
  name: Schema.String,
  iconUrl: Schema.String,
  shortHost: Schema.String,
  domain: Schema.String,
})

export const StoredSession = Schema.Struct({
  /** The wallet's client id for this dApp (hex public key). */
  id: Schema.String,
  secretKey: Schema.String,
  dappClientId: Schema.String,
  app: StoredApp,
  /** The id the next wallet event gets; strictly increasing per session. */
  nextEventId: Schema.Number,
  /** The highest dApp request id handled; older or repeated ids are ignored. */
  lastRequestId: Schema.Number,
  connectedAt: Schema.Number,
})
export type StoredSession = typeof StoredSession.Type

export const StoredState = Schema.Struct({
  version: Schema.Literal(1),
  /** The bridge's last event id seen (one SSE connection carries every session of this wallet). */
  lastEventId: Schema.optionalKey(Schema.String),
  sessions: Schema.Array(StoredSession),
})
export type StoredState = typeof StoredState.Type
const StoredStateJson = Schema.fromJsonString(StoredState)

export const emptyState: StoredState = { version: 1, sessions: [] }

/** Storage key of a wallet's sessions: per wallet address and network. */
export const sessionsKey = (network: TonNetwork, address: string): string => `tonconnect:v1:${network}:${address}`

export const loadState = (store: KeyValueStore, key: string): Effect.Effect<StoredState> =>
  store.get(key).pipe(
    Effect.map((raw) => {
      if (raw === null) return emptyState
      const decoded = Schema.decodeUnknownOption(StoredStateJson)(raw)
      return decoded._tag === "Some" ? decoded.value : emptyState
    }),
  )

export const saveState = (store: KeyValueStore, key: string, state: StoredState): Effect.Effect<void> =>
  state.sessions.length === 0 && state.lastEventId === undefined ? store.remove(key) : store.set(key, JSON.stringify(state))

/** What screens show about a connected app. */
export interface SessionInfo {
  readonly id: string
  readonly app: Omit<AppInfo, "termsOfUseUrl" | "privacyPolicyUrl">
  readonly connectedAt: number
}

export const sessionInfo = (session: StoredSession): SessionInfo => ({ id: session.id, app: session.app, connectedAt: session.connectedAt })

/** A fresh session key pair (SessionCrypto's nacl box pair, hex; `id` is the public key, the wallet's client id). */
export const newSessionKeys = (): { readonly id: string; readonly secretKey: string } => {
  const pair = new SessionCrypto().stringifyKeypair()
  return { id: pair.publicKey, secretKey: pair.secretKey }
}

/** The stored record as SessionCrypto's key pair (its `stringifyKeypair` format: hex public and secret key). */
const cryptoOf = (session: { readonly id: string; readonly secretKey: string }): SessionCrypto =>
  new SessionCrypto({ publicKey: session.id, secretKey: session.secretKey })

/** nonce || box(message, nonce, peer, mine) in base64, for the bridge (SessionCrypto.encrypt). */
export const encryptFor = (session: { readonly id: string; readonly secretKey: string }, to: string, message: string): string =>
  Base64.encode(cryptoOf(session).encrypt(message, hexToByteArray(to)))

/** Why a bridge message was not opened; never carries key material or the message. */
export class UndecryptableMessage extends Error {
  constructor() {
    super("tonconnect: a bridge message did not decrypt")
    this.name = "UndecryptableMessage"
  }
}

/**
 * Opens a bridge message from `from`: the ONE call site of `SessionCrypto.decrypt`. Its own error
 * message spells out the session's secret key (and the ciphertext), so whatever it throws is
 * dropped here and replaced by `UndecryptableMessage`, which says nothing about keys.
 */
export const openMessage = (session: { readonly id: string; readonly secretKey: string }, from: string, base64: string): string => {
  try {
    if (!isHex(from, 32)) throw new UndecryptableMessage()
    const bytes = base64Bytes(base64)
    if (bytes.length <= NONCE_LENGTH + 16) throw new UndecryptableMessage()
    return cryptoOf(session).decrypt(bytes, hexToByteArray(from))
  } catch {
    // Deliberately not chained as `cause`: the library's error text holds the secret key.
    throw new UndecryptableMessage()
  }
}

const NONCE_LENGTH = 24

/** `openMessage`, undefined when the message does not open. */
export const decryptFrom = (session: { readonly id: string; readonly secretKey: string }, from: string, base64: string): string | undefined => {
  try {
    return openMessage(session, from, base64)
  } catch {
    return undefined
  }
}
