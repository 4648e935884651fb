/**
 * Connect links (PROTOCOLS.md, spec 2 section 5 "Connect links"): the universal link
 * `https://…?v=2&id=<hex>&r=<ConnectRequest JSON>&ret=…`, the same query on `tc://`, the route's
 * search params, and Telegram's `startapp=tonconnect-…` with its character encoding.
 */
import { Effect, Schema } from "effect"
import { isHex } from "./bytes.ts"
import { type ConnectRequest, ConnectRequestFromJson } from "./protocol.ts"

/** The spec's message when r, v or id is missing. */
export const MISSING_PARAMS_MESSAGE = "Ton Connect search params is not available"

export const STARTAPP_PREFIX = "tonconnect-"

export class ConnectLinkError extends Schema.TaggedError<ConnectLinkError>()("ConnectLinkError", {
  reason: Schema.Literals(["MissingParams", "Version", "ClientId", "Request", "NotALink"]),
  message: Schema.String,
  /** The dApp's client id when it was readable: the engine can tell the dApp the request was bad (code 1). */
  clientId: Schema.optionalKey(Schema.String),
}) {}

export type ReturnStrategy = "back" | "none" | { readonly url: string }

export interface ConnectLink {
  readonly version: 2
  /** The dApp's session public key (client id), 64 lowercase hex chars. */
  readonly clientId: string
  readonly request: ConnectRequest
  readonly ret: ReturnStrategy
  readonly traceId?: string
}

/** The raw parameters as strings (a route's search, a URL's query). */
export interface ConnectParams {
  readonly v?: string | number | undefined
  readonly id?: string | undefined
  readonly r?: string | undefined
  readonly ret?: string | undefined
  readonly trace_id?: string | undefined
}

/** Telegram start param text back to a query string (inverse of the dApp SDK's packing). */
export const decodeStartParam = (encoded: string): string =>
  encoded.replaceAll("--", "%").replaceAll("__", "=").replaceAll("-", "&").replaceAll("%5F", "_").replaceAll("%2D", "-").replaceAll("%2E", ".")

/** A query string into the Telegram start param alphabet (what a dApp SDK does; used by tests and the QR flow). */
export const encodeStartParam = (query: string): string =>
  query.replaceAll(".", "%2E").replaceAll("-", "%2D").replaceAll("_", "%5F").replaceAll("&", "-").replaceAll("=", "__").replaceAll("%", "--")

const parseReturn = (ret: string | undefined): ReturnStrategy => {
  if (ret === undefined || ret === "" || ret === "back") return "back"
  if (ret === "none") return "none"
  try {
    const url = new URL(ret)
    if (url.protocol === "https:" || url.protocol === "http:" || url.protocol === "tg:") return { url: url.toString() }
  } catch {
    // not a URL: fall back
  }
  return "back"
}

/** Checks and decodes the connect parameters (the spec's check first: r, v and id are required). */
export const parseConnectParams = (params: ConnectParams): Effect.Effect<ConnectLink, ConnectLinkError> =>
  Effect.gen(function* () {
    const { v, id, r } = params
    if (v === undefined || v === "" || id === undefined || id === "" || r === undefined || r === "") {
      return yield* new ConnectLinkError({ reason: "MissingParams", message: MISSING_PARAMS_MESSAGE })
    }
    const version = Number(v)
    if (!Number.isFinite(version)) return yield* new ConnectLinkError({ reason: "MissingParams", message: MISSING_PARAMS_MESSAGE })
    if (!isHex(id, 32)) return yield* new ConnectLinkError({ reason: "ClientId", message: "id is not a 32-byte hex client id" })
    const clientId = id.toLowerCase()
    if (version !== 2) return yield* new ConnectLinkError({ reason: "Version", message: `unsupported protocol version ${version}`, clientId })
    const request = yield* Schema.decodeUnknownEffect(ConnectRequestFromJson)(r).pipe(
      Effect.mapError((e) => new ConnectLinkError({ reason: "Request", message: `bad connect request: ${e.message}`, clientId })),
    )
    if (!request.items.some((item) => item.name === "ton_addr")) {
      return yield* new ConnectLinkError({ reason: "Request", message: "the connect request has no ton_addr item", clientId })
    }
    let manifest: URL
    try {
      manifest = new URL(request.manifestUrl)
    } catch {
      return yield* new ConnectLinkError({ reason: "Request", message: "manifestUrl is not a URL", clientId })
    }
    if (manifest.protocol !== "https:" && manifest.protocol !== "http:") {
      return yield* new ConnectLinkError({ reason: "Request", message: "manifestUrl must be http(s)", clientId })
    }
    const traceId = params.trace_id
    return { version: 2, clientId, request, ret: parseReturn(params.ret), ...(traceId ? { traceId } : {}) } satisfies ConnectLink
  })

const fromQuery = (query: URLSearchParams): ConnectParams => ({
  v: query.get("v") ?? undefined,
  id: query.get("id") ?? undefined,
  r: query.get("r") ?? undefined,
  ret: query.get("ret") ?? undefined,
  trace_id: query.get("trace_id") ?? undefined,
})

/**
 * Any connect link: `tc://?…`, a universal link `https://…?v=…`, a `t.me/…?startapp=tonconnect-…`
 * link, or a bare start param `tonconnect-…`.
 */
export const parseConnectLink = (input: string): Effect.Effect<ConnectLink, ConnectLinkError> =>
  Effect.suspend(() => {
    const text = input.trim()
    if (text.startsWith(STARTAPP_PREFIX)) return parseConnectParams(fromQuery(new URLSearchParams(decodeStartParam(text.slice(STARTAPP_PREFIX.length)))))
    let url: URL
    try {
      url = new URL(text)
    } catch {
      return Effect.fail(new ConnectLinkError({ reason: "NotALink", message: "not a TonConnect link" }))
    }
    const startapp = url.searchParams.get("startapp")
    if (startapp !== null && startapp.startsWith(STARTAPP_PREFIX)) {
      return parseConnectParams(fromQuery(new URLSearchParams(decodeStartParam(startapp.slice(STARTAPP_PREFIX.length)))))
    }
    if (url.protocol !== "tc:" && url.protocol !== "https:" && url.protocol !== "http:") {
      return Effect.fail(new ConnectLinkError({ reason: "NotALink", message: "not a TonConnect link" }))
    }
    return parseConnectParams(fromQuery(url.searchParams))
  })

/** Whether a scanned or pasted text looks like a TonConnect link (the QR scanner's router). */
export const isConnectLink = (input: string): boolean => {
  const text = input.trim()
  if (text.startsWith(STARTAPP_PREFIX) || text.startsWith("tc://")) return true
  try {
    const url = new URL(text)
    return (url.searchParams.get("startapp") ?? "").startsWith(STARTAPP_PREFIX) || (url.searchParams.has("id") && url.searchParams.has("r"))
  } catch {
    return false
  }
}
