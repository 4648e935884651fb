import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { memoryBackend } from "../storage.ts"
import { recordingBridge, Telegram } from "../telegram.ts"
import { biometricManagerFromTelegram, type TelegramEvents, vaultStoreForTelegram, vaultStoreFromBackend, vaultStoreFromTelegram } from "./adapters.ts"

/** A Telegram client double answering biometry methods with the Bot API 7.2 events. */
const fakeTelegram = (options: { supported?: boolean; available?: boolean; grant?: boolean; approve?: boolean } = {}) => {
  const listeners = new Map<string, Set<(payload: any) => void>>()
  const calls: Array<{ method: string; params?: Record<string, unknown> }> = []
  const state = { token: "", granted: false }
  // Dispatches to the live set (as a naive bridge would): the adapter must not take a stale event.
  const emit = (event: string, payload: unknown) => queueMicrotask(() => listeners.get(event)?.forEach((l) => l(payload)))
  const info = () => ({
    available: options.available ?? true,
    access_requested: true,
    access_granted: state.granted,
    token_saved: state.token !== "",
    device_id: "d",
    type: "finger",
  })
  const telegram: TelegramEvents = {
    supports: () => options.supported ?? true,
    on: (event, listener) => {
      const set = listeners.get(event) ?? new Set()
      listeners.set(event, set.add(listener))
      return () => void set.delete(listener)
    },
    call: (method, params) => {
      calls.push({ method, ...(params ? { params } : {}) })
      if (method === "web_app_biometry_get_info") emit("biometry_info_received", info())
      if (method === "web_app_biometry_request_access") {
        state.granted = options.grant ?? true
        emit("biometry_info_received", info())
      }
      if (method === "web_app_biometry_request_auth")
        emit("biometry_auth_requested", options.approve === false ? { status: "failed" } : { status: "authorized", token: state.token })
      if (method === "web_app_biometry_update_token") {
        state.token = String(params?.token ?? "")
        emit("biometry_token_updated", { status: state.token === "" ? "removed" : "updated" })
      }
      return true
    },
  }
  return { telegram, calls, state }
}

describe("keyvault adapters", () => {
  it.effect("BiometricManager over the Telegram events: info, access, token update, authenticate", () =>
    Effect.gen(function* () {
      const t = fakeTelegram()
      const bm = biometricManagerFromTelegram(t.telegram)
      assert.deepStrictEqual(yield* bm.info(), { available: true, accessGranted: false, tokenSaved: false })
      assert.isTrue(yield* bm.requestAccess("Unlock your wallet"))
      assert.isTrue(yield* bm.updateToken("kvb1.secret.token"))
      assert.deepStrictEqual(yield* bm.info(), { available: true, accessGranted: true, tokenSaved: true })
      assert.deepStrictEqual(yield* bm.authenticate("Unlock your wallet"), { authenticated: true, token: "kvb1.secret.token" })
      assert.isTrue(yield* bm.updateToken(""))
      assert.deepStrictEqual(t.calls.find((c) => c.method === "web_app_biometry_request_auth")?.params, { reason: "Unlock your wallet" })
    }),
  )

  it.effect("a refused prompt, denied access and an old client", () =>
    Effect.gen(function* () {
      assert.deepStrictEqual(yield* biometricManagerFromTelegram(fakeTelegram({ approve: false }).telegram).authenticate("x"), { authenticated: false })
      assert.isFalse(yield* biometricManagerFromTelegram(fakeTelegram({ grant: false }).telegram).requestAccess("x"))
      const old = fakeTelegram({ supported: false })
      assert.deepStrictEqual(yield* biometricManagerFromTelegram(old.telegram).info(), { available: false, accessGranted: false, tokenSaved: false })
      assert.deepStrictEqual(old.calls, [])
      assert.deepStrictEqual((yield* biometricManagerFromTelegram(fakeTelegram({ available: false }).telegram).info()).available, false)
    }),
  )

  it.effect("VaultStore over a Telegram key-value store: failures carry the spec's texts", () =>
    Effect.gen(function* () {
      const map = new Map<string, string>()
      const store = vaultStoreFromTelegram({
        get: async (k) => map.get(k) ?? null,
        set: async (k, v) => (k === "unsupported" ? null : (map.set(k, v), true)),
        remove: async (k) => map.delete(k) || true,
      })
      yield* store.set("a", "1")
      assert.strictEqual(yield* store.get("a"), "1")
      yield* store.remove("a")
      assert.isNull(yield* store.get("a"))
      assert.strictEqual((yield* Effect.flip(store.set("unsupported", "1"))).message, "Failed to save secureStorage value")
      const broken = vaultStoreFromTelegram({
        get: () => Promise.reject(new Error("x")),
        set: () => Promise.reject(new Error("x")),
        remove: () => Promise.reject(new Error("x")),
      })
      assert.strictEqual((yield* Effect.flip(broken.get("a"))).message, "Failed to get secureStorage value")
    }),
  )

  it.effect("VaultStore over localStorage: prefixed keys, a quota error fails the write", () =>
    Effect.gen(function* () {
      const backend = memoryBackend()
      const store = vaultStoreFromBackend(backend)
      yield* store.set("keyvault.blob", "v2:x")
      assert.strictEqual(backend.entries.get("wallet:keyvault.blob"), "v2:x")
      const full = vaultStoreFromBackend({
        ...backend,
        setItem: () => {
          throw new Error("QuotaExceededError")
        },
      })
      const error = yield* Effect.flip(full.set("keyvault.blob", "v2:y"))
      assert.deepStrictEqual([error._tag, error.message, error.key], ["SecureStorageFailed", "Failed to save secureStorage value", "keyvault.blob"])
    }),
  )

  describe("the vault's store on the Telegram client (decision 0330)", () => {
    const client = (version: string) => {
      const recorder = recordingBridge()
      // SecureStorage from 9.0 on, as the SDK's gate says.
      const supports = (method: string, v: string) => v >= "9.0" || !method.startsWith("web_app_secure_storage")
      const telegram = Telegram.make({ platform: "ios", version, themeParams: {} }, { ...recorder.client, supports })
      const backend = memoryBackend()
      return { recorder, backend, store: vaultStoreForTelegram(telegram, vaultStoreFromBackend(backend, "wallet:tonSpace."), { secureKeyPrefix: "tonSpace." }) }
    }

    it.effect("a 9.0 client keeps the vault in SecureStorage, not in local storage", () =>
      Effect.gen(function* () {
        const { recorder, backend, store } = client("9.0")
        yield* store.set("keyvault.blob", "v2:sealed")
        assert.strictEqual(recorder.values.secure.get("tonSpace_keyvault_blob"), "v2:sealed")
        assert.isFalse(backend.entries.has("wallet:tonSpace.keyvault.blob"))
        assert.strictEqual(yield* store.get("keyvault.blob"), "v2:sealed")
        yield* store.remove("keyvault.blob")
        assert.isFalse(recorder.values.secure.has("tonSpace_keyvault_blob"))
      }),
    )

    it.effect("an older client keeps today's local storage", () =>
      Effect.gen(function* () {
        const { recorder, backend, store } = client("8.0")
        yield* store.set("keyvault.blob", "v2:sealed")
        assert.strictEqual(backend.entries.get("wallet:tonSpace.keyvault.blob"), "v2:sealed")
        assert.strictEqual(recorder.values.secure.size, 0)
      }),
    )

    it.effect("a 9.0 client finds a vault written before the upgrade and moves it on the next write; a refused write stays local", () =>
      Effect.gen(function* () {
        const { recorder, backend, store } = client("9.0")
        backend.setItem("wallet:tonSpace.keyvault.blob", "v2:old")
        assert.strictEqual(yield* store.get("keyvault.blob"), "v2:old")
        yield* store.set("keyvault.blob", "v2:new")
        assert.strictEqual(recorder.values.secure.get("tonSpace_keyvault_blob"), "v2:new")
        assert.isFalse(backend.entries.has("wallet:tonSpace.keyvault.blob"))

        const refusing = recordingBridge()
        const telegram = Telegram.make(
          { platform: "tdesktop", version: "9.0", themeParams: {} },
          { ...refusing.client, stores: { ...refusing.client.stores, secure: { get: async () => null, set: async () => false, remove: async () => false } } },
        )
        const local = memoryBackend()
        const desktop = vaultStoreForTelegram(telegram, vaultStoreFromBackend(local, "wallet:tonSpace."))
        yield* desktop.set("keyvault.blob", "v2:sealed")
        assert.strictEqual(local.entries.get("wallet:tonSpace.keyvault.blob"), "v2:sealed")
        assert.strictEqual(yield* desktop.get("keyvault.blob"), "v2:sealed")
      }),
    )
  })
})
