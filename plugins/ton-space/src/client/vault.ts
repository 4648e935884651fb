/**
 * The KeyVault of the TON space (`@wallet/kernel/keyvault`, loaded lazily with this module): the
 * words sealed under the passcode and the server's device key (docs/decisions/0600, 0611). The
 * device key endpoints are the passcode plugin's (`/api/device-keys/*`, decision 0602); the device
 * serial is the one the passcode plugin keeps (`wallet:passcode:device-serial`).
 */
import { Effect, Layer, ManagedRuntime, Redacted, Schema } from "effect"
import { Http, serverBiometryToken, type HttpError } from "@wallet/kernel"
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
  vaultStoreForTelegram,
  type DeviceKeyError,
} from "@wallet/kernel/keyvault"
import type { Kernel } from "@wallet/kernel-react"

export const DEVICE_SERIAL_KEY = "wallet:passcode:device-serial"
const deviceSerial = () => window.localStorage.getItem(DEVICE_SERIAL_KEY) ?? undefined

const Generated = Schema.Struct({ externalId: Schema.String, deviceEncryptionKey: Schema.String })
const BiometrySetup = Schema.Struct({ biometryToken: Schema.String })
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
    // A new device key needs the proof too, checked against this device's passcode (decision 0540).
    generate: (request) => {
      const h = headers()
      return http
        .json(Generated, `${origin}/api/device-keys/generate`, {
          method: "POST",
          ...(h ? { headers: h } : {}),
          body: {
            address: request.address,
            transportPublicKey: request.transportPublicKey,
            ...request.proof,
            ...(h ? { deviceSerial: h["x-wallet-device-serial"] } : {}),
          },
        })
        .pipe(Effect.mapError(toDeviceKeyError))
    },
    get: (request) => {
      const h = headers()
      return http
        .json(Got, `${origin}/api/device-keys/get`, {
          method: "POST",
          ...(h ? { headers: h } : {}),
          body: {
            externalId: request.externalId,
            address: request.address,
            transportPublicKey: request.transportPublicKey,
            ...request.proof,
            ...(h ? { deviceSerial: h["x-wallet-device-serial"] } : {}),
          },
        })
        .pipe(Effect.mapError(toDeviceKeyError))
    },
  })
}

const quietLogger = VaultLogger.of({
  info: () => undefined,
  report: (event, fields) => console.warn(`[keyvault] ${event}`, fields ?? {}),
})

const kernelHttp = (kernel: Kernel): Promise<Http["Service"]> =>
  kernel.runtime.runPromise(
    Effect.gen(function* () {
      return yield* Http
    }),
  )

let runtime: ManagedRuntime.ManagedRuntime<KeyVault, never> | undefined
const vaultRuntime = async (kernel: Kernel) => {
  if (runtime) return runtime
  const http = await kernelHttp(kernel)
  const deps = Layer.mergeAll(
    Layer.succeed(DeviceKeyServer, deviceKeyServerHttp(http, window.location.origin)),
    // Telegram SecureStorage on clients 9.0+, local storage before (decision 0330).
    Layer.succeed(
      VaultStore,
      vaultStoreForTelegram(
        kernel.telegram,
        vaultStoreFromBackend(
          { getItem: (k) => localStorage.getItem(k), setItem: (k, v) => localStorage.setItem(k, v), removeItem: (k) => localStorage.removeItem(k) },
          "wallet:tonSpace.",
        ),
        { secureKeyPrefix: "tonSpace." },
      ),
    ),
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

/**
 * Opens the vault with a verified passcode or biometry; the words, or null when this device has no
 * vault for the address. `token`: what the Passcode service's biometry proof carries (the prompt
 * already ran, none is shown again); without it the vault prompts itself.
 */
export const openWords = async (
  kernel: Kernel,
  address: string,
  proof: { readonly passcode: string } | { readonly biometry: true; readonly token?: string },
): Promise<ReadonlyArray<string> | null> =>
  run(kernel, (vault) =>
    Effect.gen(function* () {
      const status = yield* vault.status()
      if (status.version === 0 || status.address !== address) return null
      const credentials =
        "passcode" in proof
          ? yield* vault.unlockWithPasscode(proof.passcode)
          : yield* vault.unlockWithBiometry(proof.token === undefined ? {} : { token: proof.token })
      return Redacted.value(credentials.mnemonic)
    }),
  )

/** Whether this device's vault holds the words of `address` (and has a biometry slot). */
export const vaultStatusFor = (kernel: Kernel, address: string) =>
  run(kernel, (vault) =>
    vault.status().pipe(Effect.map((s) => ({ sealed: s.version !== 0 && s.version !== "corrupt" && s.address === address, biometry: s.biometry }))),
  )

/** What adding the biometry slot needs (injected, so the order is unit-tested). */
export interface BiometrySlotSteps {
  /** Biometry is on for this bot on this device (available, access granted, a token saved). */
  readonly enabledOnDevice: () => Promise<boolean>
  /** The passcode plugin's biometry setup with the verified passcode: a new server token (the old one stops working). */
  readonly setup: () => Promise<string>
  /** `KeyVault.enableBiometry` with that server token: false when the device refused the token. */
  readonly enable: (serverToken: string) => Promise<boolean>
  /** Biometry off on the server. */
  readonly deactivate: () => Promise<unknown>
}

/**
 * Adds the vault's biometry slot (decision 0520): a new secret joins the server's biometry token in
 * the BiometricManager token (`kvb1.<secret>.<server token>`), and the data key is wrapped under it.
 * - `token` given (a biometry proof whose token opened no slot): its server part is kept;
 * - else, when biometry is on for this device, a new server token from the setup; if the slot then
 *   fails, biometry is turned off on the server (spec 3 §4.3: a failure sets deviceBiometrySet false)
 *   so the server never expects a token the device may not hold.
 * Resolves whether a slot was added.
 */
export const addBiometrySlotWith = async (steps: BiometrySlotSteps, token?: string): Promise<boolean> => {
  if (token !== undefined) return steps.enable(serverBiometryToken(token))
  if (!(await steps.enabledOnDevice())) return false
  const server = await steps.setup()
  const added = await steps.enable(server).catch(() => false)
  if (!added) await steps.deactivate().catch(() => undefined)
  return added
}

export const addBiometrySlot = async (kernel: Kernel, passcode: string, token?: string): Promise<boolean> => {
  const serial = deviceSerial()
  const origin = window.location.origin
  const http = await kernelHttp(kernel)
  const post = (path: string) =>
    new Request(`${origin}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ deviceSerial: serial, passcode }),
    })
  return addBiometrySlotWith(
    {
      enabledOnDevice: async () => {
        const info = await kernel.telegram.biometry.info()
        return serial !== undefined && info?.available === true && info.accessGranted && info.tokenSaved
      },
      setup: async () =>
        (
          await kernel.runtime.runPromise(
            http.json(BiometrySetup, `${origin}/api/passcode/biometry/setup`, { method: "POST", body: { deviceSerial: serial, passcode } }),
          )
        ).biometryToken,
      enable: (serverToken) =>
        run(kernel, (vault) =>
          vault.enableBiometry({ passcode, serverBiometryToken: serverToken }).pipe(
            Effect.as(true),
            Effect.catchTag("BiometryFailed", (error) => {
              quietLogger.report("biometry.slot_failed", { reason: error.message })
              return Effect.succeed(false)
            }),
          ),
        ),
      deactivate: () => kernel.runtime.runPromise(Effect.ignore(http.execute(post("/api/passcode/biometry/deactivate")))),
    },
    token,
  )
}

export const vaultAddress = (kernel: Kernel) => run(kernel, (vault) => vault.status().pipe(Effect.map((s) => (s.version === 0 ? undefined : s.address))))

/**
 * Logout step 2: the blob and every slot. The BiometricManager token stays: it is also the passcode
 * plugin's biometry (its server part), and its vault secret opens nothing without the blob (0530).
 */
export const clearVault = (kernel: Kernel) => run(kernel, (vault) => vault.clear({ biometryToken: "keep" }))

/** Whether this device's vault has words the passcode opens (a passcode slot, or a legacy v1 blob). */
export const sealedUnderPasscode = (kernel: Kernel) =>
  run(kernel, (vault) => vault.status().pipe(Effect.map((s) => s.version === 1 || (s.version === 2 && s.passcodeSlots > 0))))

/**
 * The passcode change's hook (decision 0530): a slot for `next` beside the one for `current`, while
 * the server still accepts `current`. No vault (or none the passcode opens): nothing to do.
 */
export const rekeyVault = (kernel: Kernel, input: PasscodeChange): Promise<"rekeyed" | "no-vault"> =>
  rekeyWith({ sealed: () => sealedUnderPasscode(kernel), change: (change) => run(kernel, (vault) => vault.changePasscode(change)) }, input)

export interface PasscodeChange {
  readonly current: string
  readonly next: string
}

/** The hook's order, with the vault injected (unit-tested): a slot for `next` only when the passcode opens a vault here; failures reject (the runner reports them). */
export const rekeyWith = async (
  steps: { readonly sealed: () => Promise<boolean>; readonly change: (input: PasscodeChange) => Promise<void> },
  input: PasscodeChange,
): Promise<"rekeyed" | "no-vault"> => {
  if (!(await steps.sealed())) return "no-vault"
  await steps.change(input)
  return "rekeyed"
}

/** Logout step 1 ("delete the server records"): the user's device keys. A server without the endpoint has none. */
export const deleteServerRecords = async (kernel: Kernel) => {
  const http = await kernelHttp(kernel)
  const outcome = await kernel.runtime.runPromise(
    Effect.result(http.execute(new Request(`${window.location.origin}/api/device-keys/delete`, { method: "POST" }))),
  )
  if (outcome._tag === "Failure" && outcome.failure.status !== 404)
    throw new Error(`device keys not deleted (${outcome.failure.status ?? outcome.failure.code})`)
}
