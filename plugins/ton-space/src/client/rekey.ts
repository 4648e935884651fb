/**
 * The TON space's `beforePasscodeChange` hook (manifest `hooks`, loaded only when the passcode
 * changes or is reset; decision 0530): the words sealed in the KeyVault get a slot for the new
 * passcode before the server forgets the current one.
 */
import type { PasscodeChangeHookModule } from "@wallet/kernel"
import type { Kernel } from "@wallet/kernel-react"
import { rekeyVault, sealedUnderPasscode as sealed } from "./vault.ts"

type Hook = PasscodeChangeHookModule<Kernel>

const beforePasscodeChange: Hook["default"] = async (input, kernel) => {
  await rekeyVault(kernel, input)
}
export default beforePasscodeChange

/** A reset cannot re-key (the current passcode is unknown): the reset screen warns when this is true. */
export const sealedUnderPasscode: NonNullable<Hook["sealedUnderPasscode"]> = (kernel) => sealed(kernel)
