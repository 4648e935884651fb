/**
 * Test doubles of the vault's ports, recording everything the vault sends out, so tests can scan
 * it for secrets: a map store, a device key server with passcode attempts, a BiometricManager and
 * a logger. Used by the vault's own tests and by anyone testing code that needs a KeyVault.
 */
import { Effect, Layer } from "effect"
import { KEY_BYTES, randomBytes, rsaWrap } from "./crypto.ts"
import { DeviceKeyUnavailable, ExternalIdNotFound, MESSAGES, PasscodeRejected, SecureStorageFailed } from "./errors.ts"
import { BiometricManager, type DeviceKeyProof, DeviceKeyServer, type LogFields, VaultLogger, VaultStore } from "./ports.ts"
import { KeyVault, type KeyVaultOptions } from "./vault.ts"

export const makeMemoryStore = (entries: Record<string, string> = {}) => {
  const map = new Map(Object.entries(entries))
  const writes: Array<{ key: string; value: string }> = []
  let failWrites = false
  const service = VaultStore.of({
    get: (key) => Effect.sync(() => map.get(key) ?? null),
    set: (key, value) =>
      Effect.suspend(() => {
        if (failWrites) return Effect.fail(new SecureStorageFailed({ message: MESSAGES.saveFailed, key }))
        writes.push({ key, value })
        map.set(key, value)
        return Effect.void
      }),
    remove: (key) => Effect.sync(() => void map.delete(key)),
  })
  return { service, map, writes, setFailWrites: (fail: boolean) => void (failWrites = fail) }
}

export interface FakeDeviceKeyServerOptions {
  /** The passcode the server verifies. */
  readonly passcode: string
  readonly maxAttempts?: number
  /** The server biometry token (as the passcode plugin's biometry setup would return). */
  readonly biometryToken?: string
}

/**
 * Keeps device keys per externalId and counts passcode attempts like the passcode plugin (0500,
 * 0540): one counter, checked by `generate` and `get` alike.
 */
export const makeFakeDeviceKeyServer = (options: FakeDeviceKeyServerOptions) => {
  const maxAttempts = options.maxAttempts ?? 5
  const keys = new Map<string, { address: string; key: Uint8Array<ArrayBuffer> }>()
  const requests: Array<unknown> = []
  const state = { passcode: options.passcode, failedAttempts: 0, reachable: true, counter: 0 }
  const checkProof = (proof: DeviceKeyProof) =>
    Effect.gen(function* () {
      if (state.failedAttempts >= maxAttempts)
        return yield* new PasscodeRejected({ code: "passcode_exceeded_max_attempts", message: "Passcode attempts exceeded", remainingAttempts: 0 })
      if ("biometryToken" in proof) {
        if (options.biometryToken === undefined || proof.biometryToken !== options.biometryToken)
          return yield* new PasscodeRejected({ code: "biometry_token_invalid", message: "The biometry token is not valid for this device" })
      } else if (proof.passcode !== state.passcode) {
        state.failedAttempts++
        return yield* new PasscodeRejected({
          code: "passcode_wrong",
          message: "Wrong passcode",
          remainingAttempts: Math.max(0, maxAttempts - state.failedAttempts),
        })
      }
      state.failedAttempts = 0
    })
  const service = DeviceKeyServer.of({
    generate: (request) =>
      Effect.gen(function* () {
        requests.push({ method: "generate", ...request })
        if (!state.reachable) return yield* new DeviceKeyUnavailable({ message: "Unable to reach the server" })
        yield* checkProof(request.proof)
        const externalId = `ext-${++state.counter}`
        const key = randomBytes(KEY_BYTES)
        keys.set(externalId, { address: request.address, key })
        return { externalId, deviceEncryptionKey: yield* Effect.promise(() => rsaWrap(request.transportPublicKey, key)) }
      }),
    get: (request) =>
      Effect.gen(function* () {
        requests.push({ method: "get", ...request })
        if (!state.reachable) return yield* new DeviceKeyUnavailable({ message: "Unable to reach the server" })
        const entry = keys.get(request.externalId)
        if (!entry || entry.address !== request.address) return yield* new ExternalIdNotFound({ message: MESSAGES.externalIdNotFound })
        yield* checkProof(request.proof)
        return { deviceEncryptionKey: yield* Effect.promise(() => rsaWrap(request.transportPublicKey, entry.key)) }
      }),
  })
  return { service, keys, requests, state }
}

export const makeFakeBiometricManager = (initial: { available?: boolean; accessGranted?: boolean; grantOnRequest?: boolean } = {}) => {
  const state = {
    available: initial.available ?? true,
    accessGranted: initial.accessGranted ?? true,
    grantOnRequest: initial.grantOnRequest ?? true,
    token: "",
    /** What the user does at the next prompt. */
    nextPrompt: "approve" as "approve" | "cancel",
    updateFails: false,
  }
  const service = BiometricManager.of({
    info: () => Effect.sync(() => ({ available: state.available, accessGranted: state.accessGranted, tokenSaved: state.token !== "" })),
    requestAccess: () => Effect.sync(() => (state.accessGranted = state.accessGranted || state.grantOnRequest)),
    authenticate: () => Effect.sync(() => (state.nextPrompt === "approve" ? { authenticated: true, token: state.token } : { authenticated: false })),
    updateToken: (token) =>
      Effect.sync(() => {
        if (state.updateFails) return false
        state.token = token
        return true
      }),
  })
  return { service, state }
}

export const makeRecordingLogger = () => {
  const entries: Array<{ level: "info" | "report"; event: string; fields: LogFields }> = []
  const service = VaultLogger.of({
    info: (event, fields = {}) => void entries.push({ level: "info", event, fields }),
    report: (event, fields = {}) => void entries.push({ level: "report", event, fields }),
  })
  return { service, entries }
}

/** All four doubles and a KeyVault layer over them. */
export const makeTestVault = (options: {
  passcode: string
  maxAttempts?: number
  biometryToken?: string
  store?: Record<string, string>
  vault?: KeyVaultOptions
}) => {
  const store = makeMemoryStore(options.store)
  const server = makeFakeDeviceKeyServer(options)
  const biometry = makeFakeBiometricManager()
  const logger = makeRecordingLogger()
  const deps = Layer.mergeAll(
    Layer.succeed(VaultStore, store.service),
    Layer.succeed(DeviceKeyServer, server.service),
    Layer.succeed(BiometricManager, biometry.service),
    Layer.succeed(VaultLogger, logger.service),
  )
  const layer = KeyVault.layer(options.vault).pipe(Layer.provide(deps))
  return { store, server, biometry, logger, layer }
}
