/**
 * Production adapters of the vault's ports over the kernel's Telegram service and key-value stores:
 * Telegram's BiometricManager (Bot API 7.2 events) and a VaultStore over Telegram's DeviceStorage /
 * SecureStorage-like key-value API or localStorage.
 */
import { Effect } from "effect"
import type { KeyValueBackend } from "../storage.ts"
import type { Telegram, TelegramKeyValue } from "../telegram.ts"
import { MESSAGES, SecureStorageFailed } from "./errors.ts"
import { BiometricManager, VaultStore } from "./ports.ts"

/** What the adapter needs of the Telegram service. */
export type TelegramEvents = Pick<Telegram["Service"], "supports" | "call" | "on">

/** A status request answers within seconds; a biometric prompt waits for the user. */
export const BIOMETRY_INFO_TIMEOUT_MS = 5_000
export const BIOMETRY_PROMPT_TIMEOUT_MS = 120_000

interface BiometryInfoPayload {
  readonly available: boolean
  readonly access_requested?: boolean
  readonly access_granted?: boolean
  readonly token_saved?: boolean
}

/** Posts `method` and resolves with the first `event` payload, or null (unsupported, timeout). */
const ask = <A>(telegram: TelegramEvents, method: string, params: Record<string, unknown>, event: string, timeoutMs: number) =>
  Effect.callback<A | null>((resume) => {
    if (!telegram.supports(method)) return resume(Effect.succeed(null))
    let stop = () => {}
    let cancelled = false
    const timer = setTimeout(() => {
      stop()
      resume(Effect.succeed(null))
    }, timeoutMs)
    // Subscribe after the current dispatch ends: a caller resumed synchronously by an earlier event
    // of the same name must not receive that (stale) event as the answer.
    queueMicrotask(() => {
      if (cancelled) return
      stop = telegram.on(event, (payload: A) => {
        clearTimeout(timer)
        stop()
        resume(Effect.succeed(payload))
      })
      telegram.call(method, params)
    })
    return Effect.sync(() => {
      cancelled = true
      clearTimeout(timer)
      stop()
    })
  })

export const biometricManagerFromTelegram = (telegram: TelegramEvents) => {
  const toInfo = (payload: BiometryInfoPayload | null) => ({
    available: payload?.available === true,
    accessGranted: payload?.available === true && payload.access_granted === true,
    tokenSaved: payload?.available === true && payload.token_saved === true,
  })
  return BiometricManager.of({
    info: () =>
      ask<BiometryInfoPayload>(telegram, "web_app_biometry_get_info", {}, "biometry_info_received", BIOMETRY_INFO_TIMEOUT_MS).pipe(Effect.map(toInfo)),
    requestAccess: (reason) =>
      ask<BiometryInfoPayload>(telegram, "web_app_biometry_request_access", { reason }, "biometry_info_received", BIOMETRY_PROMPT_TIMEOUT_MS).pipe(
        Effect.map((payload) => toInfo(payload).accessGranted),
      ),
    authenticate: (reason) =>
      ask<{ status: "authorized" | "failed"; token?: string }>(
        telegram,
        "web_app_biometry_request_auth",
        { reason },
        "biometry_auth_requested",
        BIOMETRY_PROMPT_TIMEOUT_MS,
      ).pipe(Effect.map((payload) => (payload?.status === "authorized" ? { authenticated: true, token: payload.token ?? "" } : { authenticated: false }))),
    updateToken: (token) =>
      ask<{ status: "updated" | "removed" | "failed" }>(
        telegram,
        "web_app_biometry_update_token",
        { token },
        "biometry_token_updated",
        BIOMETRY_PROMPT_TIMEOUT_MS,
      ).pipe(Effect.map((payload) => payload?.status === (token === "" ? "removed" : "updated"))),
  })
}

/** A VaultStore over a Telegram key-value store (null answers mean the client lacks it). */
export const vaultStoreFromTelegram = (kv: TelegramKeyValue) => {
  const write = (key: string, run: () => Promise<boolean | null>) =>
    Effect.tryPromise({ try: run, catch: () => new SecureStorageFailed({ message: MESSAGES.saveFailed, key }) }).pipe(
      Effect.flatMap((ok) => (ok === true ? Effect.void : Effect.fail(new SecureStorageFailed({ message: MESSAGES.saveFailed, key })))),
    )
  return VaultStore.of({
    get: (key) => Effect.tryPromise({ try: () => kv.get(key), catch: () => new SecureStorageFailed({ message: MESSAGES.getFailed, key }) }),
    set: (key, value) => write(key, () => kv.set(key, value)),
    remove: (key) => write(key, () => kv.remove(key)),
  })
}

/** A VaultStore over localStorage (or the kernel's memory backend); a quota error fails the write. */
export const vaultStoreFromBackend = (backend: KeyValueBackend, prefix = "wallet:") =>
  VaultStore.of({
    get: (key) => Effect.try({ try: () => backend.getItem(prefix + key), catch: () => new SecureStorageFailed({ message: MESSAGES.getFailed, key }) }),
    set: (key, value) =>
      Effect.try({ try: () => backend.setItem(prefix + key, value), catch: () => new SecureStorageFailed({ message: MESSAGES.saveFailed, key }) }),
    remove: (key) => Effect.try({ try: () => backend.removeItem(prefix + key), catch: () => new SecureStorageFailed({ message: MESSAGES.saveFailed, key }) }),
  })

/** What the vault needs of the Telegram service to pick its store. */
export type TelegramSecureStorage = Pick<Telegram["Service"], "supports" | "secureStorage">

/**
 * Where the self-custody vault lives (decision 0330): Telegram SecureStorage (the OS keychain /
 * keystore) on a client that has it (9.0+), else `fallback` (today's local storage). On a 9.0 client
 * a vault still in the fallback (written before the upgrade) is read from there and moved into
 * SecureStorage on its next write; a client that refuses SecureStorage (a desktop 9.0 client answers
 * "unsupported") keeps using the fallback, so the words are never lost to a failed write.
 */
export const vaultStoreForTelegram = (
  telegram: TelegramSecureStorage,
  fallback: VaultStore["Service"],
  options: { readonly secureKeyPrefix?: string } = {},
) => {
  if (!telegram.supports("web_app_secure_storage_save_key") || !telegram.supports("web_app_secure_storage_get_key")) return fallback
  // SecureStorage keys: letters, digits, "_" and "-" only (as CloudStorage's).
  const secureKey = (key: string) => `${options.secureKeyPrefix ?? ""}${key}`.replace(/[^\w-]/g, "_")
  const backing = vaultStoreFromTelegram(telegram.secureStorage)
  const secure = VaultStore.of({
    get: (key) => backing.get(secureKey(key)),
    set: (key, value) => backing.set(secureKey(key), value),
    remove: (key) => backing.remove(secureKey(key)),
  })
  return VaultStore.of({
    get: (key) =>
      secure.get(key).pipe(
        Effect.catch(() => Effect.succeed(null)),
        Effect.flatMap((value) => (value !== null ? Effect.succeed(value) : fallback.get(key))),
      ),
    set: (key, value) =>
      secure.set(key, value).pipe(
        Effect.flatMap(() => fallback.remove(key).pipe(Effect.catch(() => Effect.void))),
        Effect.catch(() => fallback.set(key, value)),
      ),
    remove: (key) => Effect.all([secure.remove(key).pipe(Effect.catch(() => Effect.void)), fallback.remove(key)], { discard: true }),
  })
}
