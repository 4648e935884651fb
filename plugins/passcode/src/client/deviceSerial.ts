/**
 * The device serial (spec 3 §3, §9: a 36-character device uuid): stable per device. Kept in
 * Telegram DeviceStorage (client 9.0+) with a localStorage copy, so older clients and a client that
 * loses DeviceStorage still send the same serial. Sent as `x-wallet-device-serial`.
 */
import type { TelegramKeyValue } from "@wallet/kernel"

export const DEVICE_SERIAL_KEY = "wallet:passcode:device-serial"
const VALID = /^[0-9A-Za-z-]{36}$/

export interface DeviceSerialSources {
  readonly deviceStorage: TelegramKeyValue
  readonly local: Pick<globalThis.Storage, "getItem" | "setItem">
  readonly randomUUID: () => string
}

export const loadDeviceSerial = async (sources: DeviceSerialSources): Promise<string> => {
  const fromDevice = await sources.deviceStorage.get(DEVICE_SERIAL_KEY).catch(() => null)
  const fromLocal = sources.local.getItem(DEVICE_SERIAL_KEY)
  const serial = [fromDevice, fromLocal].find((v): v is string => typeof v === "string" && VALID.test(v)) ?? sources.randomUUID()
  if (fromLocal !== serial) sources.local.setItem(DEVICE_SERIAL_KEY, serial)
  if (fromDevice !== serial) await sources.deviceStorage.set(DEVICE_SERIAL_KEY, serial).catch(() => null)
  return serial
}
