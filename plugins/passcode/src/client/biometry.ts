/**
 * Biometry enabling and disabling (spec 3 §4.3), with the Telegram BiometricManager, the server
 * and the popup injected so the outcomes are unit-tested.
 */
import type { TelegramBiometry } from "@wallet/kernel"

export type BiometryOutcome = "success" | "opened-bot-settings" | "rejected" | "failure"

export interface EnableBiometryDeps {
  readonly biometry: TelegramBiometry
  readonly reason: string
  /** The "Enable / Cancel" popup shown when access was refused before; true for Enable. */
  readonly askToOpenSettings: () => Promise<boolean>
  /** Server setup with the passcode: the biometry token, or undefined on failure. */
  readonly setup: () => Promise<string | undefined>
  /** Server deactivation (the flag must not claim biometry the device does not hold). */
  readonly deactivate: () => Promise<unknown>
}

/**
 * Success; opened-bot-settings; rejected (access refused on the first request, or the user chose
 * Cancel); failure (not available, server or device token errors: the server flag is turned off).
 */
export const enableBiometry = async (deps: EnableBiometryDeps): Promise<BiometryOutcome> => {
  const info = await deps.biometry.info()
  if (!info?.available) return "failure"
  if (!info.accessGranted) {
    const firstRequest = !info.accessRequested
    const asked = await deps.biometry.requestAccess(deps.reason)
    if (!asked?.accessGranted) {
      if (firstRequest) return "rejected"
      if (!(await deps.askToOpenSettings())) return "rejected"
      deps.biometry.openSettings()
      return "opened-bot-settings"
    }
  }
  const token = await deps.setup()
  if (token === undefined) return "failure"
  if ((await deps.biometry.updateToken(token, deps.reason)) === "updated") return "success"
  await deps.deactivate()
  return "failure"
}

/**
 * Disabling: the flag goes off at once, then the server, then the device token; on a server error
 * the flag comes back. Returns whether biometry is off.
 */
export const disableBiometry = async (deps: {
  readonly setFlag: (on: boolean) => void
  readonly deactivate: () => Promise<boolean>
  readonly clearToken: () => Promise<unknown>
}): Promise<boolean> => {
  deps.setFlag(false)
  if (!(await deps.deactivate())) {
    deps.setFlag(true)
    return false
  }
  await deps.clearToken()
  return true
}
