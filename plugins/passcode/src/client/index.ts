/**
 * `@wallet/plugin-passcode/client`: what other plugins wire themselves (the screens and the kernel
 * Passcode service load through the manifest). The key vault's DeviceKeyServer over HTTP, the
 * logout cleanup and the recovery key calls; build the client with `makePasscodeClient(origin)`.
 */
export { makePasscodeClient, type PasscodeClient } from "./client.ts"
export { deleteDeviceKeys, deviceKeyServerLayer, getRecoveryKey, makeDeviceKeyServer, storeRecoveryKey, toDeviceKeyError } from "./deviceKeys.ts"
export { DEVICE_SERIAL_KEY, loadDeviceSerial } from "./deviceSerial.ts"
