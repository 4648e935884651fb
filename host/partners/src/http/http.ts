/**
 * The HTTP plumbing on node:http: the request a handler sees (path with query exactly as sent, raw
 * body bytes), replies, Sumsub's error body `{ description, code, correlationId, errorName? }`, a
 * small regex router, and body reading with a size limit that still drains what the client sends
 * (so that it reads the 413 instead of a reset connection).
 */
import type http from "node:http"

export class SumsubError extends Error {
  constructor(
    readonly code: number,
    readonly description: string,
    readonly errorName?: string,
  ) {
    super(description)
  }
}

export interface Request {
  readonly method: string
  /** path and query exactly as requested (what the signature covers) */
  readonly url: string
  readonly path: string
  readonly query: URLSearchParams
  readonly headers: http.IncomingHttpHeaders
  readonly body: Buffer
  /** the body exceeded the route's `maxBody` (it was drained; `body` is empty) */
  readonly oversize: boolean
  readonly correlationId: string
  readonly params: Readonly<Record<string, string | undefined>>
}

export interface Reply {
  readonly status: number
  readonly headers?: Readonly<Record<string, string>>
  readonly body: string | Buffer
}

export type Handler = (req: Request) => Promise<Reply>

export interface Route {
  readonly method: "GET" | "POST"
  /** named groups become `params` (URL-decoded) */
  readonly pattern: RegExp
  readonly handler: Handler
  /** bodies above this reach the handler as `oversize` (default: 1 MiB, else 413 before the handler) */
  readonly maxBody?: number
}

export const json = (value: unknown, status = 200): Reply => ({
  status,
  headers: { "content-type": "application/json; charset=utf-8" },
  body: JSON.stringify(value),
})

export const errorReply = (error: SumsubError, correlationId: string): Reply =>
  json({ description: error.description, code: error.code, correlationId, ...(error.errorName ? { errorName: error.errorName } : {}) }, error.code)

/** A path parameter of the matched route (the router guarantees the named groups it declares). */
export const param = (req: Request, name: string): string => {
  const value = req.params[name]
  if (value === undefined) throw new SumsubError(404, "not found")
  return value
}

export const header = (req: Request, name: string): string | undefined => {
  const value = req.headers[name.toLowerCase()]
  return Array.isArray(value) ? value[0] : value
}

/** The parsed JSON object of a request body, or 400. */
export const jsonBody = (req: Request): Record<string, unknown> => {
  let value: unknown
  try {
    value = JSON.parse(req.body.toString("utf8"))
  } catch {
    throw new SumsubError(400, "the request body is not valid JSON")
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new SumsubError(400, "the request body must be a JSON object")
  return value as Record<string, unknown>
}

export const match = (routes: ReadonlyArray<Route>, method: string, path: string): { route: Route; params: Record<string, string> } | undefined => {
  for (const route of routes) {
    if (route.method !== method && !(route.method === "GET" && method === "HEAD")) continue
    const found = route.pattern.exec(path)
    if (!found) continue
    const params: Record<string, string> = {}
    for (const [key, raw] of Object.entries(found.groups ?? {})) {
      try {
        params[key] = decodeURIComponent(raw)
      } catch {
        throw new SumsubError(400, `malformed path parameter ${key}`)
      }
    }
    return { route, params }
  }
  return undefined
}

/** Bodies beyond this are not even drained: the connection is dropped. */
const DRAIN_CAP = 64 * 1024 * 1024

/** The body, or `oversize` when it exceeded `limit` (the rest was read and dropped). */
export const readBody = (req: http.IncomingMessage, limit: number): Promise<Buffer | "oversize"> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    req.on("data", (chunk: Buffer) => {
      size += chunk.length
      if (size > DRAIN_CAP) {
        req.destroy()
        reject(new SumsubError(413, "the request body is too large"))
      } else if (size <= limit) chunks.push(chunk)
    })
    req.on("end", () => resolve(size > limit ? "oversize" : Buffer.concat(chunks)))
    req.on("error", reject)
  })
