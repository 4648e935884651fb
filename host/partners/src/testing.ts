/**
 * Test helpers (not shipped behaviour): a webhook receiver on node:http, signed and SDK calls
 * against a running sandbox, a movable clock, tiny images, and shortcuts that take an applicant
 * through the SDK flow.
 */
import http from "node:http"
import type { AddressInfo } from "node:net"
import { DEV_SUMSUB } from "./config.ts"
import { sumsubSignature } from "./http/signature.ts"

/** A 1×1 PNG. */
export const TINY_PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64")
/** The start of a JPEG (its signature is all the sandbox checks). */
export const TINY_JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0xff, 0xd9])

export interface Clock {
  readonly now: () => number
  advance(ms: number): void
  reset(): void
}

export const movableClock = (): Clock => {
  let offset = 0
  return {
    now: () => Date.now() + offset,
    advance: (ms) => {
      offset += ms
    },
    reset: () => {
      offset = 0
    },
  }
}

export interface Received {
  readonly headers: http.IncomingHttpHeaders
  readonly body: string
  readonly json: { applicantId: string; type: string; reviewStatus: string; reviewResult?: { reviewAnswer: string } } & Record<string, unknown>
}

export interface Receiver {
  readonly url: string
  readonly received: Received[]
  /** status to answer for the n-th request (0-based); default 200 */
  respond: (n: number, body: Received) => number
  forApplicant(applicantId: string): Received[]
  close(): Promise<void>
}

export const startReceiver = async (): Promise<Receiver> => {
  const received: Received[] = []
  const receiver: Receiver = {
    url: "",
    received,
    respond: () => 200,
    forApplicant: (id) => received.filter((r) => r.json.applicantId === id),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on("data", (c: Buffer) => chunks.push(c))
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8")
      const entry: Received = { headers: req.headers, body, json: JSON.parse(body) as Received["json"] }
      const n = received.length
      received.push(entry)
      res.writeHead(receiver.respond(n, entry)).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return Object.assign(receiver, { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhook` })
}

export interface Answer<T = Record<string, unknown>> {
  readonly status: number
  readonly headers: Headers
  readonly json: T
}

const answer = async <T>(res: Response): Promise<Answer<T>> => {
  const text = await res.text()
  const isJson = (res.headers.get("content-type") ?? "").startsWith("application/json")
  return { status: res.status, headers: res.headers, json: (isJson && text ? JSON.parse(text) : null) as T }
}

export interface SignOptions {
  readonly appToken?: string
  readonly secretKey?: string
  /** unix seconds; default now */
  readonly ts?: number
  readonly now?: () => number
  /** sign this body instead of the one sent */
  readonly signedBody?: string
}

/** A call to the signed server API, signed as the wallet's server signs it. */
export const signed = async <T = Record<string, unknown>>(
  base: string,
  method: string,
  path: string,
  body?: unknown,
  options: SignOptions = {},
): Promise<Answer<T>> => {
  const raw = body === undefined ? "" : JSON.stringify(body)
  const ts = options.ts ?? Math.floor((options.now ?? Date.now)() / 1000)
  const sig = sumsubSignature(options.secretKey ?? DEV_SUMSUB.secretKey, ts, method, path, options.signedBody ?? raw)
  const res = await fetch(`${base}${path}`, {
    method,
    headers: {
      "X-App-Token": options.appToken ?? DEV_SUMSUB.appToken,
      "X-App-Access-Ts": String(ts),
      "X-App-Access-Sig": sig,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    ...(body === undefined ? {} : { body: raw }),
  })
  return answer<T>(res)
}

/** A call to the SDK API, as the frame page makes it. */
export const sdk = async <T = Record<string, unknown>>(
  base: string,
  token: string,
  method: string,
  path: string,
  body?: Uint8Array | Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<Answer<T>> => {
  const isJson = body !== undefined && !(body instanceof Uint8Array)
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { "X-Access-Token": token, ...(isJson ? { "content-type": "application/json" } : {}), ...headers },
    ...(body === undefined ? {} : { body: body instanceof Uint8Array ? new Uint8Array(body) : JSON.stringify(body) }),
  })
  return answer<T>(res)
}

export const issueToken = async (
  base: string,
  userId: string,
  levelName = "basic-kyc-level",
  extra: Record<string, unknown> = {},
  now?: () => number,
): Promise<string> => {
  const res = await signed<{ token: string }>(base, "POST", "/resources/accessTokens/sdk", { userId, levelName, ...extra }, now ? { now } : {})
  if (res.status !== 200) throw new Error(`access token: ${res.status} ${JSON.stringify(res.json)}`)
  return res.json.token
}

let users = 0
export const uniqueUser = (): string => `user-${process.pid}-${Date.now()}-${++users}`

export interface Session {
  readonly token: string
  readonly userId: string
  readonly applicantId: string
}

/** A token for a new user and an SDK session with it: the applicant exists afterwards. */
export const openSession = async (base: string, levelName = "basic-kyc-level", now?: () => number): Promise<Session> => {
  const userId = uniqueUser()
  const token = await issueToken(base, userId, levelName, {}, now)
  const res = await sdk<{ applicantId: string }>(base, token, "POST", "/resources/sdk/session", { sessionId: `session-${userId}` })
  if (res.status !== 200) throw new Error(`session: ${res.status} ${JSON.stringify(res.json)}`)
  return { token, userId, applicantId: res.json.applicantId }
}

export const uploadDoc = (base: string, s: Session, idDocType: string, bytes: Uint8Array = TINY_PNG, contentType = "image/png") =>
  sdk(base, s.token, "POST", `/resources/sdk/applicants/${s.applicantId}/idDoc?idDocType=${idDocType}`, bytes, { "content-type": contentType })

/** Uploads a passport and a selfie and submits: the applicant is pending. */
export const submitted = async (base: string, levelName?: string): Promise<Session> => {
  const s = await openSession(base, levelName)
  for (const type of ["PASSPORT", "SELFIE"]) {
    const up = await uploadDoc(base, s, type)
    if (up.status !== 200) throw new Error(`upload ${type}: ${up.status} ${JSON.stringify(up.json)}`)
  }
  const res = await sdk(base, s.token, "POST", `/resources/sdk/applicants/${s.applicantId}/submit`)
  if (res.status !== 200) throw new Error(`submit: ${res.status} ${JSON.stringify(res.json)}`)
  return s
}

export const review = (base: string, applicantId: string, result: Record<string, unknown>) =>
  signed(base, "POST", `/resources/applicants/${applicantId}/status/testCompleted`, result)
