import { methodSupported, recordingBridge, Telegram } from "@wallet/kernel"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { sealedStore } from "../engine/sealed-store.ts"
import { loadState, memoryStore, newSessionKeys, saveState } from "../engine/session.ts"
import { indexedDbKeys, SECURE_STORAGE_KEY, sealingKeys, secureStorageKeys, type KeySource } from "./seal-keys.ts"

/** A Telegram client with SecureStorage: "ok" keeps values, "unsupported" fails like Telegram Desktop, "silent" never answers. */
const client = (version: string, secure: "ok" | "unsupported" | "silent" = "ok", stored = new Map<string, string>()) => {
  const recorder = recordingBridge()
  const bridge = {
    ...recorder.bridge,
    supports: methodSupported,
    postEvent: (method: string, params?: Record<string, unknown>) => {
      recorder.bridge.postEvent(method, params)
      const reqId = params?.req_id
      queueMicrotask(() => {
        if (secure === "silent") return
        if (secure === "unsupported") return recorder.emit("secure_storage_failed", { req_id: reqId, error: "UNSUPPORTED" })
        if (method === "web_app_secure_storage_save_key") {
          stored.set(String(params?.key), String(params?.value))
          recorder.emit("secure_storage_key_saved", { req_id: reqId })
        }
        if (method === "web_app_secure_storage_get_key")
          recorder.emit("secure_storage_key_received", { req_id: reqId, value: stored.get(String(params?.key)) ?? null })
      })
    },
  }
  return { telegram: Telegram.make({ platform: "ios", version, themeParams: {} }, bridge), calls: recorder.calls, stored }
}

/** IndexedDB stand-in: one non-extractable key. */
const memoryIdb = (): KeySource & { created: number } => {
  let key: CryptoKey | undefined
  const source = {
    created: 0,
    load: async () => key ?? null,
    create: async () => {
      source.created++
      key ??= await crypto.subtle.generateKey({ name: "AES-GCM", length: 256 }, false, ["encrypt", "decrypt"])
      return key
    },
  }
  return source
}

const KEY = "tonconnect:v1:-239:0:aa"
const state = () => {
  const s = newSessionKeys()
  return {
    version: 1 as const,
    sessions: [
      {
        id: s.id,
        secretKey: s.secretKey,
        dappClientId: "cd".repeat(32),
        app: { manifestUrl: "https://d/m", url: "https://d", name: "D", iconUrl: "https://d/i", shortHost: "d", domain: "d" },
        nextEventId: 1,
        lastRequestId: -1,
        connectedAt: 1,
      },
    ],
  }
}

describe("the device keys that seal TonConnect sessions", () => {
  it("uses Telegram SecureStorage on a 9.0 client: the key lives in the keychain, and the next page opens the records", async () => {
    const storage = new Map<string, string>()
    const first = client("9.0")
    const idb = memoryIdb()
    const keys = sealingKeys({ secure: secureStorageKeys(first.telegram), idb })
    expect((await keys.current())?.id).toBe("tg")
    expect(idb.created).toBe(0)
    const value = first.stored.get(SECURE_STORAGE_KEY)!
    expect(atob(value)).toHaveLength(32)

    const written = state()
    await Effect.runPromise(saveState(sealedStore(memoryStore(storage), keys), KEY, written))
    expect(JSON.parse(storage.get(KEY)!)).toMatchObject({ sealed: 1, k: "tg" })
    expect(storage.get(KEY)).not.toContain(written.sessions[0]!.secretKey)

    // A reload: a new page asks the same client for the key.
    const next = client("9.0", "ok", first.stored)
    const reopened = sealingKeys({ secure: secureStorageKeys(next.telegram), idb: memoryIdb() })
    expect(await Effect.runPromise(loadState(sealedStore(memoryStore(storage), reopened), KEY))).toEqual(written)
    expect(next.calls.map((c) => c.method)).toEqual(["web_app_secure_storage_get_key"])
  })

  it("falls back to IndexedDB on older clients and on clients that refuse SecureStorage", async () => {
    const old = client("8.0")
    const keys = sealingKeys({ secure: secureStorageKeys(old.telegram), idb: memoryIdb() })
    expect((await keys.current())?.id).toBe("idb")
    expect(old.calls).toEqual([])

    const desktop = client("9.1", "unsupported")
    const fallback = sealingKeys({ secure: secureStorageKeys(desktop.telegram), idb: memoryIdb() })
    expect((await fallback.current())?.id).toBe("idb")
  })

  it("a SecureStorage key that does not answer is 'unavailable' (records stay untouched), not 'gone'", async () => {
    const silent = client("9.0", "silent")
    const keys = sealingKeys({ secure: secureStorageKeys(silent.telegram, 20), idb: memoryIdb() })
    expect(await keys.get("tg")).toBe("unavailable")
    expect((await keys.current())?.id).toBe("idb")
  })

  it("keeps nothing where there is no IndexedDB", async () => {
    const source = indexedDbKeys(undefined)
    expect(await source.load()).toBe("unavailable")
    expect(await source.create()).toBeNull()
    expect(await sealingKeys({ idb: source }).current()).toBeNull()
  })
})
