import { afterEach, describe, expect, it, vi } from "vitest"
import { startDeviceFingerprint, type FingerprintPayload } from "./fingerprint.ts"
import {
  DEVICE_UUID_KEY,
  FINGERPRINT_COMPONENTS,
  FINGERPRINT_VISITOR_KEY,
  VISITOR_ID_LIFETIME_MS,
  collectThumbmark,
  decodeFingerprintBody,
  deviceUuid,
  encodeFingerprintBody,
  fingerprintKey,
  sendDeviceFingerprint,
  xorBytes,
  type FingerprintData,
} from "./fingerprint-sender.ts"

// The library never runs under unit tests: a stub records the options it gets.
const thumbmarkCalls = vi.hoisted(() => [] as Array<unknown>)
vi.mock("@thumbmarkjs/thumbmarkjs", () => ({
  Thumbmark: class {
    constructor(readonly options: unknown) {
      thumbmarkCalls.push(options)
    }
    get() {
      return Promise.resolve({
        thumbmark: "0123456789abcdef0123456789abcdef",
        version: "1.11.0",
        info: {},
        components: { audio: { sampleHash: 1.5 }, fonts: { Arial: 120 }, speech: { hash: "x" }, webrtc: { hash: "y" } },
      })
    }
  },
}))

const memoryStorage = () => {
  const map = new Map<string, string>()
  return { map, getItem: (key: string) => map.get(key) ?? null, setItem: (key: string, value: string) => void map.set(key, value) }
}

const data: FingerprintData = {
  thumbmark: "ffeeddccbbaa99887766554433221100",
  version: "1.11.0",
  components: { screen: { is_touchscreen: false, resolution: "1920x1080" }, locales: { languages: "en-US", timezone: "UTC" } },
}

const payload: FingerprintPayload = { fingerprint: data, deviceUuid: "4d2f0a3e-1c7b-4a8e-9f00-000000000001", visitorId: data.thumbmark }

describe("XOR codec", () => {
  it("round-trips a payload with the user id as the key, and the bytes are not the JSON", () => {
    const body = encodeFingerprintBody(payload, 7_000_000_123)
    expect(new TextDecoder().decode(body)).not.toContain("thumbmark")
    expect(body.length).toBe(new TextEncoder().encode(JSON.stringify(payload)).length)
    expect(decodeFingerprintBody(body, 7_000_000_123)).toEqual(payload)
    expect(decodeFingerprintBody(body, "7000000123")).toEqual(payload)
  })

  it("repeats the key over the data and is its own inverse", () => {
    const key = fingerprintKey(42)
    expect([...key]).toEqual([0x34, 0x32])
    expect([...xorBytes(new Uint8Array([0, 0, 0, 1, 0xff]), key)]).toEqual([0x34, 0x32, 0x34, 0x33, 0xff ^ 0x34])
    const bytes = new Uint8Array([1, 2, 3, 250, 0])
    expect([...xorBytes(xorBytes(bytes, key), key)]).toEqual([...bytes])
    expect(() => xorBytes(bytes, new Uint8Array())).toThrow()
  })

  it("does not decode under another user's key", () => {
    const body = encodeFingerprintBody(payload, 1001)
    expect(() => decodeFingerprintBody(body, 1002)).toThrow()
  })
})

describe("device uuid", () => {
  it("is a 36-character v4 uuid kept in local storage", () => {
    const storage = memoryStorage()
    const first = deviceUuid(storage)
    expect(first).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    expect(first).toHaveLength(36)
    expect(storage.map.get(DEVICE_UUID_KEY)).toBe(first)
    expect(deviceUuid(storage)).toBe(first)
  })

  it("replaces a malformed kept value", () => {
    const storage = memoryStorage()
    storage.setItem(DEVICE_UUID_KEY, "not-a-uuid")
    const id = deviceUuid(storage)
    expect(id).toHaveLength(36)
    expect(storage.map.get(DEVICE_UUID_KEY)).toBe(id)
  })
})

describe("sendDeviceFingerprint", () => {
  const setup = () => {
    const storage = memoryStorage()
    const clock = { now: Date.UTC(2026, 2, 1) }
    const posted: Array<Uint8Array> = []
    const problems: Array<string> = []
    let collected = 0
    const options = (userId: number, post?: (body: Uint8Array) => Promise<unknown>) => ({
      userId,
      storage,
      now: () => clock.now,
      post: post ?? (async (body: Uint8Array) => void posted.push(body)),
      onProblem: (message: string) => void problems.push(message),
      collect: async () => {
        collected++
        return data
      },
    })
    return { storage, clock, posted, problems, options, collected: () => collected }
  }

  it("posts the encoded payload once, then not again within 30 days for the same user", async () => {
    const { clock, posted, options, collected, storage } = setup()
    expect(await sendDeviceFingerprint(options(555))).toBe("sent")
    expect(posted).toHaveLength(1)
    const sent = decodeFingerprintBody(posted[0]!, 555) as FingerprintPayload
    expect(sent.fingerprint).toEqual(data)
    expect(sent.deviceUuid).toBe(storage.map.get(DEVICE_UUID_KEY))
    expect(sent.visitorId).toBe(data.thumbmark)

    clock.now += VISITOR_ID_LIFETIME_MS - 1
    expect(await sendDeviceFingerprint(options(555))).toBe("fresh")
    expect(posted).toHaveLength(1)
    expect(collected()).toBe(1)
  })

  it("sends again after 30 days with a new visitor id window", async () => {
    const { clock, posted, options, storage } = setup()
    await sendDeviceFingerprint(options(555))
    clock.now += VISITOR_ID_LIFETIME_MS
    expect(await sendDeviceFingerprint(options(555))).toBe("sent")
    expect(posted).toHaveLength(2)
    expect(JSON.parse(storage.map.get(FINGERPRINT_VISITOR_KEY)!)).toMatchObject({ since: clock.now, userId: "555" })
  })

  it("sends again when the user changes, keeping the device uuid and the visitor id", async () => {
    const { clock, posted, options } = setup()
    await sendDeviceFingerprint(options(555))
    clock.now += 1000
    expect(await sendDeviceFingerprint(options(777))).toBe("sent")
    const first = decodeFingerprintBody(posted[0]!, 555) as FingerprintPayload
    const second = decodeFingerprintBody(posted[1]!, 777) as FingerprintPayload
    expect(second.deviceUuid).toBe(first.deviceUuid)
    expect(second.visitorId).toBe(first.visitorId)
  })

  it("reports a failed post silently and tries again next time", async () => {
    const { options, problems, posted } = setup()
    const failing = options(555, () => Promise.reject(new Error("HTTP 500")))
    await expect(sendDeviceFingerprint(failing)).resolves.toBe("failed")
    expect(problems).toEqual(["device fingerprint not sent"])
    expect(await sendDeviceFingerprint(options(555))).toBe("sent")
    expect(posted).toHaveLength(1)
  })

  it("reports a failed collection silently", async () => {
    const { options, problems, posted } = setup()
    const result = await sendDeviceFingerprint({ ...options(555), collect: () => Promise.reject(new Error("no canvas")) })
    expect(result).toBe("failed")
    expect(problems).toHaveLength(1)
    expect(posted).toHaveLength(0)
  })
})

describe("collectThumbmark", () => {
  it("asks the library for the spec's components only, without its remote logging, and keeps only those", async () => {
    thumbmarkCalls.length = 0
    const collected = await collectThumbmark()
    expect(thumbmarkCalls).toEqual([expect.objectContaining({ logging: false, include: [...FINGERPRINT_COMPONENTS] })])
    expect(collected).toEqual({
      thumbmark: "0123456789abcdef0123456789abcdef",
      version: "1.11.0",
      components: { audio: { sampleHash: 1.5 }, fonts: { Arial: 120 } },
    })
  })
})

describe("startDeviceFingerprint", () => {
  afterEach(() => vi.useRealTimers())

  it("waits before loading the sender, then sends once; never throws", async () => {
    vi.useFakeTimers()
    const storage = memoryStorage()
    const posted: Array<Uint8Array> = []
    const results: Array<string> = []
    const done = new Promise<void>((resolve) =>
      startDeviceFingerprint({
        userId: 99,
        storage,
        now: () => Date.UTC(2026, 2, 1),
        post: async (body) => void posted.push(body),
        onProblem: () => {},
        onResult: (result) => {
          results.push(result)
          resolve()
        },
        delayMs: 1000,
      }),
    )
    await vi.advanceTimersByTimeAsync(999)
    expect(posted).toHaveLength(0)
    expect(results).toEqual([])
    // The delay is over: the sender chunk and the stubbed library load (promises, no timers).
    await vi.advanceTimersByTimeAsync(1)
    await done
    expect(results).toEqual(["sent"])
    expect(posted).toHaveLength(1)
    expect((decodeFingerprintBody(posted[0]!, 99) as FingerprintPayload).fingerprint.thumbmark).toBe("0123456789abcdef0123456789abcdef")
  })
})
