/**
 * One passcode session per kernel, shared by the lazily loaded service and the route screens: the
 * typed client, the device serial, the unlock window (time in localStorage, passcode in memory
 * only) and the biometry helpers.
 */
import { Effect } from "effect"
import { serverBiometryToken } from "@wallet/kernel"
import type { Kernel } from "@wallet/kernel-react"
import type { PasscodeInfo, PasscodeType, Product } from "../api.ts"
import { failureCode, makePasscodeClient, type PasscodeClient } from "./client.ts"
import { loadDeviceSerial } from "./deviceSerial.ts"
import { enableBiometry, type BiometryOutcome } from "./biometry.ts"
import { isUnlocked, STATUS_TIMEOUT_MS, unlockUntil } from "./rules.ts"

export const UNLOCK_UNTIL_KEY = "wallet:passcode:unlock-until"
export const NS = "passcode"

export type Result<A> = { readonly ok: true; readonly value: A } | { readonly ok: false; readonly code: string; readonly error: unknown }

export interface PasscodeSession {
  readonly kernel: Kernel
  readonly t: (key: string, options?: Record<string, unknown>) => string
  readonly serial: () => Promise<string>
  /** Runs one call of the typed client; failures become catalogue codes. */
  readonly call: <A>(f: (client: PasscodeClient, serial: string) => Effect.Effect<A, unknown, never>) => Promise<Result<A>>
  /** The device's passcode status, or undefined when it did not arrive within 5 s. */
  readonly info: () => Promise<PasscodeInfo | undefined>
  readonly language: () => string
  readonly unlocked: () => boolean
  readonly rememberedPasscode: () => string | undefined
  /** Opens the unlock window for `unlockDuration` seconds (zero or less clears it). */
  readonly markVerified: (passcode: string | undefined, unlockDuration: number) => void
  readonly forget: () => void
  readonly biometry: BiometryHelpers
}

export type { BiometryOutcome }

export interface BiometryHelpers {
  /** Whether the device offers biometry to this bot (available and not refused). */
  readonly available: () => Promise<{ readonly available: boolean; readonly type: "face" | "finger" | "unknown" }>
  /** The stored token after a successful prompt. */
  readonly token: () => Promise<string | undefined>
  /** Spec 3 §4.3 biometry enabling outcomes. */
  readonly enable: (passcode: string) => Promise<BiometryOutcome>
  /** Off on the server (the device token is cleared by `disableBiometry`). */
  readonly disable: (credential: { readonly passcode: string } | { readonly biometryToken: string }) => Promise<boolean>
}

const sessions = new WeakMap<Kernel, PasscodeSession>()

export const passcodeSession = (kernel: Kernel): PasscodeSession => {
  const existing = sessions.get(kernel)
  if (existing) return existing
  const t = (key: string, options?: Record<string, unknown>) => kernel.i18n.t(`${NS}:${key}`, options)
  let client: Promise<PasscodeClient> | undefined
  const getClient = () => (client ??= kernel.runtime.runPromise(makePasscodeClient(window.location.origin)))
  let serial: Promise<string> | undefined
  const getSerial = () =>
    (serial ??= loadDeviceSerial({ deviceStorage: kernel.telegram.deviceStorage, local: window.localStorage, randomUUID: () => crypto.randomUUID() }))
  let memoryPasscode: string | undefined
  const call = async <A>(f: (client: PasscodeClient, serial: string) => Effect.Effect<A, unknown, never>): Promise<Result<A>> => {
    const [c, s] = await Promise.all([getClient(), getSerial()])
    const exit = await Effect.runPromise(Effect.result(f(c, s)))
    return exit._tag === "Success" ? { ok: true, value: exit.success } : { ok: false, code: failureCode(exit.failure), error: exit.failure }
  }
  const readUntil = () => {
    const raw = Number(window.localStorage.getItem(UNLOCK_UNTIL_KEY))
    return Number.isFinite(raw) && raw > 0 ? raw : null
  }
  const biometryReason = () => t("biometry.reason")
  const session: PasscodeSession = {
    kernel,
    t,
    serial: getSerial,
    call,
    language: () => kernel.i18n.language(),
    info: async () => {
      const answer = call((c, s) => c.passcode.info({ headers: { "x-wallet-device-serial": s } }))
      const timeout = new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), STATUS_TIMEOUT_MS))
      const result = await Promise.race([answer, timeout])
      return result?.ok ? result.value : undefined
    },
    unlocked: () => isUnlocked(readUntil(), Date.now()),
    rememberedPasscode: () => (isUnlocked(readUntil(), Date.now()) ? memoryPasscode : undefined),
    markVerified: (passcode, unlockDuration) => {
      const until = unlockUntil(Date.now(), unlockDuration)
      if (until === null) {
        window.localStorage.removeItem(UNLOCK_UNTIL_KEY)
        memoryPasscode = undefined
      } else {
        window.localStorage.setItem(UNLOCK_UNTIL_KEY, String(until))
        memoryPasscode = passcode ?? memoryPasscode
      }
    },
    forget: () => {
      window.localStorage.removeItem(UNLOCK_UNTIL_KEY)
      memoryPasscode = undefined
    },
    biometry: {
      available: async () => {
        const info = await kernel.telegram.biometry.info()
        return { available: info?.available === true, type: info?.type ?? "unknown" }
      },
      token: async () => {
        const info = await kernel.telegram.biometry.info()
        if (!info?.available || !info.accessGranted || !info.tokenSaved) return undefined
        const auth = await kernel.telegram.biometry.authenticate(biometryReason())
        return auth?.authorized && auth.token ? auth.token : undefined
      },
      enable: (passcode) =>
        enableBiometry({
          biometry: kernel.telegram.biometry,
          reason: biometryReason(),
          askToOpenSettings: async () =>
            (await kernel.telegram.popup({
              title: t("biometry.accessTitle"),
              message: t("biometry.accessText"),
              buttons: [
                { id: "enable", type: "default", text: t("biometry.enable") },
                { id: "cancel", type: "cancel" },
              ],
            })) === "enable",
          setup: async () => {
            const setup = await call((c, s) => c.passcode.setupBiometry({ payload: { deviceSerial: s, passcode } }))
            return setup.ok ? setup.value.biometryToken : undefined
          },
          deactivate: () => call((c, s) => c.passcode.deactivateBiometry({ payload: { deviceSerial: s, passcode } })),
        }),
      disable: async (credential) => {
        const sent = "biometryToken" in credential ? { biometryToken: serverBiometryToken(credential.biometryToken) } : credential
        return (await call((c, s) => c.passcode.deactivateBiometry({ payload: { deviceSerial: s, ...sent } }))).ok
      },
    },
  }
  sessions.set(kernel, session)
  return session
}

export type { PasscodeInfo, PasscodeType, Product }
