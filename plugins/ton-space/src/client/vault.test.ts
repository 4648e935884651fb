import { describe, expect, it } from "vitest"
import { HttpError } from "@wallet/kernel"
import { toDeviceKeyError } from "./vault.ts"

const failed = (status: number, body: unknown) => new HttpError({ code: "ERR_BAD_RESPONSE", message: `HTTP ${status}`, status, body })

describe("device key errors from the passcode plugin's endpoints", () => {
  it("maps a wrong passcode with the attempts left", () => {
    const error = toDeviceKeyError(failed(403, { _tag: "PasscodeError", code: "passcode_wrong", message: "Wrong passcode", remainingAttempts: 2 }))
    expect(error._tag).toBe("PasscodeRejected")
    expect(error).toMatchObject({ code: "passcode_wrong", remainingAttempts: 2 })
  })
  it("maps exhausted attempts and a bad biometry token", () => {
    expect(toDeviceKeyError(failed(403, { code: "passcode_exceeded_max_attempts", message: "x" }))).toMatchObject({ _tag: "PasscodeRejected", code: "passcode_exceeded_max_attempts" })
    expect(toDeviceKeyError(failed(403, { code: "biometry_token_invalid", message: "x" }))).toMatchObject({ _tag: "PasscodeRejected", code: "biometry_token_invalid" })
  })
  it("maps an unknown externalId to the vault's 'externalId not found'", () => {
    expect(toDeviceKeyError(failed(404, { _tag: "DeviceKeyNotFound", code: "external_id_not_found", message: "x" }))).toMatchObject({ _tag: "ExternalIdNotFound", message: "externalId not found" })
  })
  it("anything else means the device key is unavailable", () => {
    expect(toDeviceKeyError(failed(503, undefined))._tag).toBe("DeviceKeyUnavailable")
    expect(toDeviceKeyError(new HttpError({ code: "ERR_NETWORK", message: "offline" }))._tag).toBe("DeviceKeyUnavailable")
  })
})
