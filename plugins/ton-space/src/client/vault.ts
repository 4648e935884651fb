/**
 * The KeyVault of the TON space (`@wallet/kernel/keyvault`, loaded lazily with this module): the
 * words sealed under the passcode and the server's device key (docs/decisions/0600, 0611). The
 * device key endpoints are the passcode plugin's (`/api/device-keys/*`, decision 0602); the device
 * serial is the one the passcode plugin keeps (`wallet:passcode:device-serial`).
 */
import { Effect, Layer, ManagedRuntime, Redacted, Schema } from "effect"
import { Http, type HttpError } from "@wallet/kernel"
import {
  DeviceKeyServer,
  DeviceKeyUnavailable,
  ExternalIdNotFound,
  KeyVault,
  MESSAGES,
  PasscodeRejected,
  VaultLogger,
  VaultStore,
  BiometricManager,
  biometricManagerFromTelegram,
  toCredentials,
  vaultStoreFromBackend,
  type DeviceKeyError,
} from "@wallet/kernel/keyvault"
import type { Kernel } from "@wallet/kernel-react"

export const DEVICE_SERIAL_KEY = "wallet:passcode:device-serial"
const deviceSerial = () => window.localStorage.getItem(DEVICE_SERIAL_KEY) ?? undefined

const Generated = Schema.Struct({ externalId: Schema.String, deviceEncryptionKey: Schema.String })
const Got = Schema.Struct({ deviceEncryptionKey: Schema.String })

export const toDeviceKeyError = (error: HttpError): DeviceKeyError => {
  const code = error.serverCode
  if (code === "external_id_not_found") return new ExternalIdNotFound({ message: MESSAGES.externalIdNotFound })
  if (code === "passcode_wrong" || code === "passcode_exceeded_max_attempts" || code === "passcode_missing" || code === "biometry_token_invalid") {
    const remaining = (error.body as { remainingAttempts?: unknown } | undefined)?.remainingAttempts
    return new PasscodeRejected({ code, message: error.message, ...(typeof remaining === "number" ? { remainingAttempts: remaining } : {}) })
  }
  return new DeviceKeyUnavailable({ message: `device key request failed (${error.status ?? error.code})` })
}

/** DeviceKeyServer over the kernel's Http policy (bearer token, retries). */
const deviceKeyServerHttp = (http: Http["Service"], origin: string) => {
  const headers = () => {
    const serial = deviceSerial()
    return serial ? { "x-wallet-device-serial": serial } : undefined
  }
  return DeviceKeyServer.of({
    generate: (request) =>
      http.json(Generated, `${origin}/api/device-keys/generate`, { method: "POST", body: request }).pipe(Effect.mapError(toDeviceKeyError)),
    get: (request) => {
      const h = headers()
      return http
        .json(Got, `${origin}/api/device-keys/get`, {
          method: "POST",
          ...(h ? { headers: h } : {}),
          body: { externalId: request.externalId, address: request.address, transportPublicKey: request.transportPublicKey, ...request.proof, ...(h ? { deviceSerial: h["x-wallet-device-serial"] } : {}) },
        })
        .pipe(Effect.mapError(toDeviceKeyError))
    },
  })
}

const quietLogger = VaultLogger.of({
  info: () => undefined,
  report: (event, fields) => console.warn(`[keyvault] ${event}`, fields ?? {}),
})

let runtime: ManagedRuntime.ManagedRuntime<KeyVault, never> | undefined
const vaultRuntime = async (kernel: Kernel) => {
  if (runtime) return runtime
  const http: Http["Service"] = await kernel.runtime.runPromise(Effect.gen(function* () {
    return yield* Http
  }))
  const deps = Layer.mergeAll(
    Layer.succeed(DeviceKeyServer, deviceKeyServerHttp(http, window.location.origin)),
    Layer.succeed(VaultStore, vaultStoreFromBackend({ getItem: (k) => localStorage.getItem(k), setItem: (k, v) => localStorage.setItem(k, v), removeItem: (k) => localStorage.removeItem(k) }, "wallet:tonSpace.")),
    Layer.succeed(BiometricManager, biometricManagerFromTelegram(kernel.telegram)),
    Layer.succeed(VaultLogger, quietLogger),
  )
  runtime = ManagedRuntime.make(KeyVault.layer({ keepServerSlot: false }).pipe(Layer.provide(deps)))
  return runtime
}

const run = async <A, E>(kernel: Kernel, f: (vault: KeyVault["Service"]) => Effect.Effect<A, E>) => {
  const rt = await vaultRuntime(kernel)
  return rt.runPromise(
    Effect.gen(function* () {
      return yield* f(yield* KeyVault)
    }),
  )
}

/** Seals the words under the passcode (the server keeps the device key for this address). */
export const sealWords = (kernel: Kernel, address: string, words: ReadonlyArray<string>, privateKeyHex: string, passcode: string) =>
  run(kernel, (vault) => vault.create({ credentials: toCredentials({ address, mnemonic: [...words], privateKey: privateKeyHex }), passcode }))

/** Opens the vault with a verified passcode or biometry; the words, or null when this device has no vault for the address. */
export const openWords = async (kernel: Kernel, address: string, proof: { readonly passcode: string } | { readonly biometry: true }): Promise<ReadonlyArray<string> | null> =>
  run(kernel, (vault) =>
    Effect.gen(function* () {
      const status = yield* vault.status()
      if (status.version === 0 || status.address !== address) return null
      const credentials = "passcode" in proof ? yield* vault.unlockWithPasscode(proof.passcode) : yield* vault.unlockWithBiometry()
      return Redacted.value(credentials.mnemonic)
    }),
  )

export const vaultAddress = (kernel: Kernel) => run(kernel, (vault) => vault.status().pipe(Effect.map((s) => (s.version === 0 ? undefined : s.address))))

/** Logout step 2: the blob and every slot. */
export const clearVault = (kernel: Kernel) => run(kernel, (vault) => vault.clear())

/** Logout step 1 ("delete the server records"): the user's device keys. A server without the endpoint has none. */
export const deleteServerRecords = async (kernel: Kernel) => {
  const http: Http["Service"] = await kernel.runtime.runPromise(
    Effect.gen(function* () {
      return yield* Http
    }),
  )
  const outcome = await kernel.runtime.runPromise(
    Effect.result(http.execute(new Request(`${window.location.origin}/api/device-keys/delete`, { method: "POST" }))),
  )
  if (outcome._tag === "Failure" && outcome.failure.status !== 404) throw new Error(`device keys not deleted (${outcome.failure.status ?? outcome.failure.code})`)
}
