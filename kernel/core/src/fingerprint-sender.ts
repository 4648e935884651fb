/**
 * The device fingerprint's sender (decision 0390), `@wallet/kernel/fingerprint`: the XOR codec the
 * server shares, the device uuid, the 30-day visitor record, and `sendDeviceFingerprint`. Loaded
 * lazily by `startDeviceFingerprint`; the ThumbmarkJS library loads from here only when a
 * fingerprint is due.
 */
import type { FingerprintComponent, FingerprintJson, FingerprintPayload, FingerprintSendOptions, FingerprintStorage } from "./fingerprint.ts"

export * from "./fingerprint.ts"

/** Bodies above this are refused (413). */
export const FINGERPRINT_MAX_BYTES = 65_536
/** Spec 3 §7.5: the visitor identifier lives 30 days; within them the fingerprint is not sent again for the same user. */
export const VISITOR_ID_LIFETIME_MS = 2_592_000_000
/** The spec's components, in ThumbmarkJS's names. */
export const FINGERPRINT_COMPONENTS = [
  "audio",
  "canvas",
  "fonts",
  "hardware",
  "locales",
  "math",
  "permissions",
  "plugins",
  "screen",
  "system",
  "webgl",
] as const satisfies ReadonlyArray<FingerprintComponent>
/** Local storage: the device uuid (kept) and the last fingerprint sent (visitor id, since, user). */
export const DEVICE_UUID_KEY = "wallet:device-uuid"
export const FINGERPRINT_VISITOR_KEY = "wallet:fingerprint-visitor"

type Bytes = Uint8Array<ArrayBuffer>

/** `data` XOR `key`, the key repeated over the data. Its own inverse. */
export const xorBytes = (data: Uint8Array, key: Uint8Array): Bytes => {
  if (key.length === 0) throw new Error("empty XOR key")
  const out = new Uint8Array(data.length)
  for (let i = 0; i < data.length; i++) out[i] = data[i]! ^ key[i % key.length]!
  return out
}

/** The XOR key: the user id's decimal digits as bytes. */
export const fingerprintKey = (userId: string | number): Bytes => new TextEncoder().encode(String(userId))

/** Payload -> JSON -> UTF-8 -> XOR with the user id: the body posted as `FINGERPRINT_MEDIA_TYPE`. */
export const encodeFingerprintBody = (payload: FingerprintPayload, userId: string | number): Bytes =>
  xorBytes(new TextEncoder().encode(JSON.stringify(payload)), fingerprintKey(userId))

/** The body back to a JSON value (not validated); throws when the bytes are not UTF-8 JSON under this key. */
export const decodeFingerprintBody = (body: Uint8Array, userId: string | number): unknown =>
  JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(xorBytes(body, fingerprintKey(userId))))

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

const randomUuid = (): string =>
  typeof crypto !== "undefined" && typeof crypto.randomUUID === "function"
    ? crypto.randomUUID()
    : "xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx".replace(/[xy]/g, (c) =>
        (c === "x" ? Math.floor(Math.random() * 16) : 8 + Math.floor(Math.random() * 4)).toString(16),
      )

/** The device uuid (36 characters, v4), kept in local storage; a new one when none or a malformed one is kept. */
export const deviceUuid = (storage: FingerprintStorage | undefined): string => {
  try {
    const kept = storage?.getItem(DEVICE_UUID_KEY)
    if (kept && UUID_V4.test(kept)) return kept
    const id = randomUuid()
    storage?.setItem(DEVICE_UUID_KEY, id)
    return id
  } catch {
    return randomUuid()
  }
}

/** What local storage keeps about the last fingerprint sent. */
export interface VisitorRecord {
  readonly visitorId: string
  /** When this visitor id was first seen (ms). */
  readonly since: number
  /** The user the fingerprint was last sent for. */
  readonly userId: string
}

/** The kept visitor record while its 30 days last, else undefined. */
export const readVisitor = (storage: FingerprintStorage | undefined, now: number): VisitorRecord | undefined => {
  try {
    const raw = storage?.getItem(FINGERPRINT_VISITOR_KEY)
    if (!raw) return undefined
    const record = JSON.parse(raw) as Partial<VisitorRecord>
    if (typeof record.visitorId !== "string" || typeof record.since !== "number" || typeof record.userId !== "string") return undefined
    const age = now - record.since
    return age >= 0 && age < VISITOR_ID_LIFETIME_MS ? (record as VisitorRecord) : undefined
  } catch {
    return undefined
  }
}

/** A fingerprint is due unless one was sent for this user within the visitor id's 30 days. */
export const fingerprintDue = (storage: FingerprintStorage | undefined, userId: string | number, now: number): boolean =>
  readVisitor(storage, now)?.userId !== String(userId)

/** The browser's local storage, or undefined where it is missing or refused (a sandboxed frame). */
const browserStorage = (): FingerprintStorage | undefined => {
  try {
    return typeof localStorage === "undefined" ? undefined : localStorage
  } catch {
    return undefined
  }
}

export type FingerprintData = FingerprintPayload["fingerprint"]

export type SendResult = "sent" | "fresh" | "failed"

/**
 * Sends the fingerprint when one is due: collects it, builds the payload (the visitor id is kept
 * for 30 days), posts the XOR-encoded body and records the send. Never throws: a failure goes to
 * `onProblem` and the next start tries again.
 */
export const sendDeviceFingerprint = async (options: FingerprintSendOptions & { readonly collect: () => Promise<FingerprintData> }): Promise<SendResult> => {
  try {
    const now = (options.now ?? Date.now)()
    const storage = "storage" in options ? options.storage : browserStorage()
    if (!fingerprintDue(storage, options.userId, now)) return "fresh"
    const fingerprint = await options.collect()
    const kept = readVisitor(storage, now)
    const payload: FingerprintPayload = { fingerprint, deviceUuid: deviceUuid(storage), visitorId: kept?.visitorId ?? fingerprint.thumbmark }
    await options.post(encodeFingerprintBody(payload, options.userId))
    const record: VisitorRecord = { visitorId: payload.visitorId, since: kept?.since ?? now, userId: String(options.userId) }
    storage?.setItem(FINGERPRINT_VISITOR_KEY, JSON.stringify(record))
    return "sent"
  } catch (error) {
    options.onProblem("device fingerprint not sent", error)
    return "failed"
  }
}

/** The spec's components through ThumbmarkJS (no remote logging, no API), loaded on first use. */
export const collectThumbmark = async (): Promise<FingerprintData> => {
  const { Thumbmark } = await import("@thumbmarkjs/thumbmarkjs")
  const result = await new Thumbmark({ logging: false, include: [...FINGERPRINT_COMPONENTS], timeout: 3000 }).get()
  if (!result.thumbmark) throw new Error(`no thumbmark: ${result.error?.map((e) => e.message).join("; ") ?? "unknown"}`)
  const components: Record<string, FingerprintJson> = {}
  for (const name of FINGERPRINT_COMPONENTS) {
    const value = result.components[name]
    if (value !== undefined) components[name] = value as FingerprintJson
  }
  return { thumbmark: result.thumbmark, version: result.version, components }
}
