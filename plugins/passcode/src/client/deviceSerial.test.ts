import { describe, expect, it } from "vitest"
import { DEVICE_SERIAL_KEY, loadDeviceSerial } from "./deviceSerial.ts"

const memory = (initial: Record<string, string> = {}) => {
  const map = new Map(Object.entries(initial))
  return {
    map,
    kv: {
      get: async (k: string) => map.get(k) ?? null,
      set: async (k: string, v: string) => (map.set(k, v), true),
      remove: async (k: string) => map.delete(k),
    },
    local: { getItem: (k: string) => map.get(k) ?? null, setItem: (k: string, v: string) => void map.set(k, v) },
  }
}
const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`

describe("device serial", () => {
  it("creates one serial and keeps it in both stores; later loads return the same", async () => {
    const device = memory()
    const local = memory()
    let n = 0
    const sources = { deviceStorage: device.kv, local: local.local, randomUUID: () => uuid(++n) }
    const first = await loadDeviceSerial(sources)
    expect(first).toHaveLength(36)
    expect(await loadDeviceSerial(sources)).toBe(first)
    expect(device.map.get(DEVICE_SERIAL_KEY)).toBe(first)
    expect(local.map.get(DEVICE_SERIAL_KEY)).toBe(first)
    expect(n).toBe(1)
  })

  it("falls back to localStorage when the client has no DeviceStorage, and restores DeviceStorage from it", async () => {
    const local = memory({ [DEVICE_SERIAL_KEY]: uuid(7) })
    const none = { get: async () => null, set: async () => null, remove: async () => null }
    expect(await loadDeviceSerial({ deviceStorage: none, local: local.local, randomUUID: () => uuid(9) })).toBe(uuid(7))
    const device = memory()
    expect(await loadDeviceSerial({ deviceStorage: device.kv, local: local.local, randomUUID: () => uuid(9) })).toBe(uuid(7))
    expect(device.map.get(DEVICE_SERIAL_KEY)).toBe(uuid(7))
  })
})
