/**
 * The device keys that seal TonConnect session records (decision 0750): Telegram SecureStorage (the
 * OS keychain / keystore, clients 9.0+ on phones) when the client has it, else a non-extractable
 * AES-GCM key in IndexedDB. Neither is readable from local storage, where the sealed records are.
 * No passcode is involved, so the `afterStart` listener resumes after a reload by itself.
 */
import { fromBase64Url, toBase64 } from "@wallet/kernel"
import type { SealingKeys, SealKeyId } from "../engine/sealed-store.ts"

/** The SecureStorage item and the IndexedDB record holding the key. */
export const SECURE_STORAGE_KEY = "tonconnect_seal_v1"
const DB_NAME = "wallet-tonconnect"
const DB_STORE = "keys"
const DB_RECORD = "seal-v1"
const TELEGRAM_TIMEOUT_MS = 10_000

/** A key source: the stored key, null when there is none, "unavailable" when it cannot be read now. */
export interface KeySource {
  readonly load: () => Promise<CryptoKey | null | "unavailable">
  /** Creates and stores a key (or returns the one another tab stored first); null when it cannot. */
  readonly create: () => Promise<CryptoKey | null>
}

/** The part of the kernel's Telegram service SecureStorage needs. */
export interface TelegramPort {
  readonly supports: (method: string) => boolean
  readonly call: (method: string, params?: Record<string, unknown>) => boolean
  readonly on: (event: string, listener: (payload: any) => void) => () => void
}

const AES = { name: "AES-GCM", length: 256 } as const

let requestCounter = 0

/** A SecureStorage request: resolves with the answer event's payload, or null (failed, timed out). */
const secureRequest = (
  telegram: TelegramPort,
  method: string,
  params: Record<string, unknown>,
  answer: string,
  timeoutMs: number,
): Promise<Record<string, unknown> | null> =>
  new Promise((resolve) => {
    const reqId = `tc-seal-${Date.now()}-${++requestCounter}`
    const stops: Array<() => void> = []
    const finish = (value: Record<string, unknown> | null) => {
      stops.forEach((stop) => stop())
      clearTimeout(timer)
      resolve(value)
    }
    const timer = setTimeout(() => finish(null), timeoutMs)
    stops.push(
      telegram.on(answer, (payload: Record<string, unknown> | undefined) => payload?.req_id === reqId && finish(payload)),
      telegram.on("secure_storage_failed", (payload: Record<string, unknown> | undefined) => payload?.req_id === reqId && finish(null)),
    )
    if (!telegram.call(method, { req_id: reqId, ...params })) finish(null)
  })

const importRaw = async (raw: Uint8Array<ArrayBuffer>): Promise<CryptoKey> => {
  try {
    return await crypto.subtle.importKey("raw", raw, AES, false, ["encrypt", "decrypt"])
  } finally {
    raw.fill(0)
  }
}

/** A stored 256-bit key, or undefined when the text is not base64 of 32 bytes. */
const fromBase64 = (text: string): Uint8Array<ArrayBuffer> | undefined => {
  try {
    const bytes = fromBase64Url(text)
    return bytes.length === 32 ? bytes : undefined
  } catch {
    return undefined
  }
}

/** Telegram SecureStorage: a raw 256-bit key, imported as a non-extractable WebCrypto key. */
export const secureStorageKeys = (telegram: TelegramPort, timeoutMs = TELEGRAM_TIMEOUT_MS): KeySource & { readonly supported: boolean } => {
  const supported = telegram.supports("web_app_secure_storage_get_key") && telegram.supports("web_app_secure_storage_save_key")
  return {
    supported,
    load: async () => {
      if (!supported || !globalThis.crypto?.subtle) return "unavailable"
      const answer = await secureRequest(telegram, "web_app_secure_storage_get_key", { key: SECURE_STORAGE_KEY }, "secure_storage_key_received", timeoutMs)
      if (answer === null) return "unavailable"
      if (typeof answer.value !== "string" || answer.value === "") return null
      const raw = fromBase64(answer.value)
      return raw ? importRaw(raw).catch(() => null) : null
    },
    create: async () => {
      if (!supported || !globalThis.crypto?.subtle) return null
      const raw = crypto.getRandomValues(new Uint8Array(32))
      const saved = await secureRequest(
        telegram,
        "web_app_secure_storage_save_key",
        { key: SECURE_STORAGE_KEY, value: toBase64(raw) },
        "secure_storage_key_saved",
        timeoutMs,
      )
      if (saved === null) {
        raw.fill(0)
        return null
      }
      return importRaw(raw).catch(() => null)
    },
  }
}

const openDb = (factory: IDBFactory): Promise<IDBDatabase> =>
  new Promise((resolve, reject) => {
    const request = factory.open(DB_NAME, 1)
    request.onupgradeneeded = () => void request.result.createObjectStore(DB_STORE)
    request.onsuccess = () => resolve(request.result)
    request.onerror = () => reject(request.error ?? new Error("indexedDB open failed"))
    request.onblocked = () => reject(new Error("indexedDB open blocked"))
  })

/** IndexedDB: a non-extractable AES-GCM key (the browser keeps it; page code can use it, never read it). */
export const indexedDbKeys = (factory: IDBFactory | undefined = globalThis.indexedDB): KeySource => ({
  load: async () => {
    if (!factory || !globalThis.crypto?.subtle) return "unavailable"
    try {
      const db = await openDb(factory)
      try {
        const value = await new Promise<unknown>((resolve, reject) => {
          const request = db.transaction(DB_STORE, "readonly").objectStore(DB_STORE).get(DB_RECORD)
          request.onsuccess = () => resolve(request.result)
          request.onerror = () => reject(request.error)
        })
        return value instanceof CryptoKey ? value : null
      } finally {
        db.close()
      }
    } catch {
      return "unavailable"
    }
  },
  create: async () => {
    if (!factory || !globalThis.crypto?.subtle) return null
    try {
      const fresh = await crypto.subtle.generateKey(AES, false, ["encrypt", "decrypt"])
      const db = await openDb(factory)
      try {
        // One transaction: a key another tab stored first wins, so both tabs seal with the same one.
        return await new Promise<CryptoKey>((resolve, reject) => {
          const transaction = db.transaction(DB_STORE, "readwrite")
          const store = transaction.objectStore(DB_STORE)
          let result: CryptoKey = fresh
          const existing = store.get(DB_RECORD)
          existing.onsuccess = () => {
            if (existing.result instanceof CryptoKey) result = existing.result
            else store.put(fresh, DB_RECORD)
          }
          transaction.oncomplete = () => resolve(result)
          transaction.onerror = () => reject(transaction.error)
          transaction.onabort = () => reject(transaction.error)
        })
      } finally {
        db.close()
      }
    } catch {
      return null
    }
  },
})

/**
 * SecureStorage first (when the client has it and answers), else IndexedDB. A key found or created
 * is kept for the page; a failure is retried on the next write.
 */
export const sealingKeys = (sources: { readonly secure?: KeySource & { readonly supported: boolean }; readonly idb: KeySource }): SealingKeys => {
  const known = new Map<SealKeyId, CryptoKey>()
  let current: Promise<{ readonly id: SealKeyId; readonly key: CryptoKey } | null> | undefined
  const loadOrCreate = async (id: SealKeyId, source: KeySource): Promise<CryptoKey | null> => {
    const loaded = known.get(id) ?? (await source.load())
    if (loaded === "unavailable") return null
    const key = loaded ?? (await source.create())
    if (key) known.set(id, key)
    return key
  }
  const pick = async () => {
    if (sources.secure?.supported) {
      const key = await loadOrCreate("tg", sources.secure)
      if (key) return { id: "tg" as const, key }
    }
    const key = await loadOrCreate("idb", sources.idb)
    return key ? { id: "idb" as const, key } : null
  }
  return {
    current: () => {
      current ??= pick().then((picked) => {
        if (picked === null) current = undefined
        return picked
      })
      return current
    },
    get: async (id) => {
      const cached = known.get(id)
      if (cached) return cached
      const source = id === "tg" ? sources.secure : sources.idb
      if (!source) return null
      if (id === "tg" && !sources.secure?.supported) return null
      const loaded = await source.load().catch(() => "unavailable" as const)
      if (loaded !== null && loaded !== "unavailable") known.set(id, loaded)
      return loaded
    },
  }
}
