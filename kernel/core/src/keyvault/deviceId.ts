/**
 * Device id (spec 2 section 4 "Device id"): read from three stores, the first one found is chosen;
 * when none has it, a new one is created and written back to all. A 36-character uuid (spec 3).
 */
import { Effect } from "effect"

export interface DeviceIdStore {
  readonly get: (key: string) => Effect.Effect<string | null, unknown>
  readonly set: (key: string, value: string) => Effect.Effect<unknown, unknown>
}

export const DEVICE_ID_KEY = "deviceId"
const isDeviceId = (value: string | null): value is string => value !== null && /^[0-9A-Za-z-]{36}$/.test(value)

/** Reading or writing one store may fail (old client, quota): that store is skipped. */
export const resolveDeviceId = (
  stores: ReadonlyArray<DeviceIdStore>,
  key: string = DEVICE_ID_KEY,
  create: () => string = () => globalThis.crypto.randomUUID(),
) =>
  Effect.gen(function* () {
    for (const store of stores) {
      const value = yield* store.get(key).pipe(Effect.orElseSucceed(() => null))
      if (isDeviceId(value)) return value
    }
    const id = create()
    for (const store of stores) yield* store.set(key, id).pipe(Effect.ignore)
    return id
  })
