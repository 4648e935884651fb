/**
 * Session records sealed at rest (decision 0750): each value the engine stores (the dApp session
 * secret keys with their bookkeeping) is encrypted with AES-GCM-256 under a device key that is not in
 * the same storage: a non-extractable WebCrypto key in IndexedDB, or a key in Telegram's
 * SecureStorage (the OS keychain / keystore) when the client has it. A dump of local storage alone
 * then reveals nothing but how many sessions a wallet has.
 *
 * Stored value: `{"sealed":1,"k":<key id>,"sessions":<count>,"iv":<b64url 12 bytes>,"ct":<b64url>}`;
 * ct = AES-GCM(key, iv, value, aad "wallet/tonconnect/sealed/v1|<key id>|<storage key>"), so a
 * record moved to another wallet's key, or edited, does not open. Plain records of older versions
 * are sealed on first read. Without any device key (no WebCrypto: a page served over plain http)
 * nothing is persisted: sessions live until the page closes, never in plain storage.
 */
import { Effect } from "effect"
import type { KeyValueStore } from "./session.ts"

// Light on purpose: the listener (first-screen hook) reads `storedSessionCount` without the engine.

/** Where a sealing key lives: "tg" Telegram SecureStorage, "idb" IndexedDB (the ids are stored in records). */
export type SealKeyId = "tg" | "idb"

/** The device keys that seal session records. Implementations never throw. */
export interface SealingKeys {
  /** The key new records are sealed with (created on first use); null when this device can keep none. */
  readonly current: () => Promise<{ readonly id: SealKeyId; readonly key: CryptoKey } | null>
  /** The key a stored record names: null when it is gone for good, "unavailable" when it cannot be read now. */
  readonly get: (id: SealKeyId) => Promise<CryptoKey | null | "unavailable">
}

const SEALED_VERSION = 1
const IV_BYTES = 12

interface Envelope {
  readonly sealed: typeof SEALED_VERSION
  readonly k: SealKeyId
  readonly sessions: number
  readonly iv: string
  readonly ct: string
}

const toB64url = (bytes: Uint8Array) => {
  let binary = ""
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000))
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "")
}
const fromB64url = (text: string) => Uint8Array.from(atob(text.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0))

const parseEnvelope = (raw: string): Envelope | undefined => {
  try {
    const value = JSON.parse(raw) as Partial<Envelope> | null
    if (value === null || typeof value !== "object" || value.sealed !== SEALED_VERSION) return undefined
    if ((value.k !== "tg" && value.k !== "idb") || typeof value.iv !== "string" || typeof value.ct !== "string") return undefined
    return { sealed: SEALED_VERSION, k: value.k, sessions: typeof value.sessions === "number" ? value.sessions : 0, iv: value.iv, ct: value.ct }
  } catch {
    return undefined
  }
}

/** Whether a stored value is a sealed record (the listener counts its sessions without opening it). */
export const isSealedRecord = (raw: string): boolean => parseEnvelope(raw) !== undefined

/** The session count a stored value announces: sealed records say it, plain (legacy) ones show it. */
export const storedSessionCount = (raw: string | null): number => {
  if (raw === null) return 0
  const envelope = parseEnvelope(raw)
  if (envelope) return envelope.sessions
  try {
    const state = JSON.parse(raw) as { sessions?: unknown } | null
    return Array.isArray(state?.sessions) ? state.sessions.length : 0
  } catch {
    return 0
  }
}

const sessionCountOf = (plain: string): number => {
  try {
    const state = JSON.parse(plain) as { sessions?: unknown } | null
    return Array.isArray(state?.sessions) ? state.sessions.length : 0
  } catch {
    return 0
  }
}

const aadFor = (id: SealKeyId, storageKey: string) => new TextEncoder().encode(`wallet/tonconnect/sealed/v${SEALED_VERSION}|${id}|${storageKey}`)

const subtle = (): SubtleCrypto | undefined => globalThis.crypto?.subtle

export interface SealedStoreOptions {
  /** Reports what went wrong, with no key material and no stored value. */
  readonly onProblem?: (message: string) => void
}

/**
 * Seals every value written to `inner` and opens it on read. Keys a record could not be opened with
 * for now ("unavailable") are not overwritten during this page: the sessions are back on the next
 * start instead of being replaced by an empty state.
 */
export const sealedStore = (inner: KeyValueStore, keys: SealingKeys, options: SealedStoreOptions = {}): KeyValueStore => {
  const onProblem = options.onProblem ?? (() => {})
  const locked = new Set<string>()

  const seal = async (storageKey: string, value: string): Promise<string | undefined> => {
    const crypto = subtle()
    const current = crypto ? await keys.current() : null
    if (!crypto || current === null) return undefined
    const iv = globalThis.crypto.getRandomValues(new Uint8Array(IV_BYTES))
    const ct = new Uint8Array(
      await crypto.encrypt({ name: "AES-GCM", iv, additionalData: aadFor(current.id, storageKey) }, current.key, new TextEncoder().encode(value)),
    )
    const envelope: Envelope = { sealed: SEALED_VERSION, k: current.id, sessions: sessionCountOf(value), iv: toB64url(iv), ct: toB64url(ct) }
    return JSON.stringify(envelope)
  }

  const write = async (storageKey: string, value: string): Promise<void> => {
    if (locked.has(storageKey)) {
      onProblem("tonconnect: sealed sessions could not be opened now; changes are kept in memory only")
      return
    }
    let sealed: string | undefined
    try {
      sealed = await seal(storageKey, value)
    } catch {
      sealed = undefined
    }
    if (sealed === undefined) {
      // Never plain: without a device key the sessions live in memory until the page closes.
      await Effect.runPromise(inner.remove(storageKey))
      onProblem("tonconnect: no device key to seal sessions with; they are kept in memory only")
      return
    }
    await Effect.runPromise(inner.set(storageKey, sealed))
  }

  const read = async (storageKey: string): Promise<string | null> => {
    const raw = await Effect.runPromise(inner.get(storageKey))
    if (raw === null) return null
    const envelope = parseEnvelope(raw)
    if (envelope === undefined) {
      // A plain record of an older version: seal it now (or drop it from storage when we cannot).
      await write(storageKey, raw)
      return raw
    }
    const crypto = subtle()
    const key = crypto ? await keys.get(envelope.k) : "unavailable"
    if (key === "unavailable") {
      locked.add(storageKey)
      onProblem("tonconnect: the key of the stored sessions is not available now")
      return null
    }
    if (key === null || !crypto) {
      onProblem("tonconnect: the key of the stored sessions is gone; they cannot be opened")
      return null
    }
    try {
      const plain = await crypto.decrypt(
        { name: "AES-GCM", iv: fromB64url(envelope.iv), additionalData: aadFor(envelope.k, storageKey) },
        key,
        fromB64url(envelope.ct),
      )
      return new TextDecoder("utf-8", { fatal: true }).decode(plain)
    } catch {
      onProblem("tonconnect: stored sessions did not open (altered or sealed for another wallet)")
      return null
    }
  }

  return {
    get: (storageKey) => Effect.promise(() => read(storageKey).catch(() => null)),
    set: (storageKey, value) => Effect.promise(() => write(storageKey, value).catch(() => onProblem("tonconnect: could not store sessions"))),
    remove: (storageKey) =>
      Effect.suspend(() => {
        locked.delete(storageKey)
        return inner.remove(storageKey)
      }),
  }
}
