/** The device serial of a request: the body's, else the `x-wallet-device-serial` header (36 characters). */
import { Effect, Schema } from "effect"
import { DEVICE_SERIAL_HEADER, DeviceSerial, PasscodeError } from "../api.ts"

const isDeviceSerial = Schema.is(DeviceSerial)

export const serialFrom = (body: string | undefined, header: string | undefined) => {
  const serial = body ?? header
  if (serial === undefined || serial === "") {
    return Effect.fail(
      new PasscodeError({ code: "device_serial_missing", message: `A device serial is required (body deviceSerial or ${DEVICE_SERIAL_HEADER})` }),
    )
  }
  if (!isDeviceSerial(serial))
    return Effect.fail(new PasscodeError({ code: "device_serial_missing", message: "The device serial is not a 36-character device id" }))
  return Effect.succeed(serial)
}
