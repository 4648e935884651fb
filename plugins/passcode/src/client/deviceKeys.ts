/**
 * The key vault's `DeviceKeyServer` port over HTTP (the passcode plugin's `/api/device-keys/*`),
 * plus the logout cleanup and the recovery key. Failures map to the vault's typed errors.
 */
import { Effect, Layer } from "effect"
import { DeviceKeyServer, DeviceKeyUnavailable, ExternalIdNotFound, MESSAGES, PasscodeRejected, type DeviceKeyError } from "@wallet/kernel/keyvault"
import { DEVICE_SERIAL_HEADER, type Product, type RecoveryKey } from "../api.ts"
import type { PasscodeClient } from "./client.ts"

const REJECTED = ["passcode_wrong", "passcode_exceeded_max_attempts", "passcode_missing", "biometry_token_invalid"] as const

export const toDeviceKeyError = (error: unknown): DeviceKeyError => {
  const e = error as { _tag?: string; code?: string; message?: string; remainingAttempts?: number }
  if (e?._tag === "DeviceKeyNotFound") return new ExternalIdNotFound({ message: MESSAGES.externalIdNotFound })
  if (e?._tag === "PasscodeError" && (REJECTED as ReadonlyArray<string>).includes(e.code ?? "")) {
    return new PasscodeRejected({
      code: e.code as (typeof REJECTED)[number],
      message: e.message ?? e.code!,
      ...(e.remainingAttempts !== undefined ? { remainingAttempts: e.remainingAttempts } : {}),
    })
  }
  return new DeviceKeyUnavailable({ message: "The device key server could not be reached" })
}

export const makeDeviceKeyServer = (client: PasscodeClient, deviceSerial: () => Promise<string>): DeviceKeyServer["Service"] =>
  DeviceKeyServer.of({
    // Both need the proof and the device serial: the server checks the passcode of this device (decision 0540).
    generate: ({ proof, ...request }) =>
      Effect.promise(deviceSerial).pipe(
        Effect.flatMap((serial) =>
          client.deviceKeys.generate({ headers: { [DEVICE_SERIAL_HEADER]: serial }, payload: { ...request, ...proof, deviceSerial: serial } }),
        ),
        Effect.map((r) => ({ externalId: r.externalId, deviceEncryptionKey: r.deviceEncryptionKey })),
        Effect.mapError(toDeviceKeyError),
      ),
    get: ({ proof, ...request }) =>
      Effect.promise(deviceSerial).pipe(
        Effect.flatMap((serial) =>
          client.deviceKeys.get({ headers: { [DEVICE_SERIAL_HEADER]: serial }, payload: { ...request, ...proof, deviceSerial: serial } }),
        ),
        Effect.map((r) => ({ deviceEncryptionKey: r.deviceEncryptionKey })),
        Effect.mapError(toDeviceKeyError),
      ),
  })

export const deviceKeyServerLayer = (client: PasscodeClient, deviceSerial: () => Promise<string>) =>
  Layer.succeed(DeviceKeyServer, makeDeviceKeyServer(client, deviceSerial))

/** Logout ("delete the server records"): drops the user's device keys. */
export const deleteDeviceKeys = (client: PasscodeClient) => client.deviceKeys.deleteAll()

export const storeRecoveryKey = (client: PasscodeClient, product: Product, key: RecoveryKey) =>
  client.deviceKeys.storeRecoveryKey({ payload: { product, ...key } })
export const getRecoveryKey = (client: PasscodeClient, product: Product, emailCode: string) =>
  client.deviceKeys.getRecoveryKey({ payload: { product, emailCode } })
