/**
 * CORS for the JSON API (`/api/*`), decision 0207: only the app's own origins get
 * `Access-Control-Allow-Origin`; any other origin gets none (the browser then keeps the answer from
 * the page). The app itself calls the API same-origin (the Vite proxy in dev, one host in
 * production), which needs no CORS at all: this list is for an app served from another origin.
 * The TonConnect bridge (`/bridge/*`) keeps its own open CORS: dApps on any origin talk to it.
 */
import { Effect } from "effect"
import { HttpEffect, HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"

/** The dev app (Vite on 127.0.0.1:5173), by both of its names. */
export const DEFAULT_CORS_ORIGINS: ReadonlyArray<string> = ["http://127.0.0.1:5173", "http://localhost:5173"]

const API_PREFIX = "/api"
const ALLOWED_METHODS = "GET, HEAD, POST, PUT, PATCH, DELETE"
/** Preflights are cached by the browser this long (seconds). */
const MAX_AGE_SECONDS = "600"
/** Request headers the app sends, plus any `x-wallet-*` header (the contracts' own, e.g. the operation token). */
const ALLOWED_HEADERS = ["authorization", "content-type", "accept", "x-request-id"]
const isAllowedHeader = (name: string) => ALLOWED_HEADERS.includes(name) || /^x-wallet-[a-z0-9-]+$/.test(name)
const EXPOSED_HEADERS = "x-request-id"

/** `scheme://host[:port]` as browsers send it in `Origin`; undefined for anything else ("*", paths, "null"). */
export const normalizeOrigin = (value: string): string | undefined => {
  const trimmed = value.trim().replace(/\/+$/, "")
  if (!/^https?:\/\/[^/?#*\s]+$/i.test(trimmed)) return undefined
  try {
    const url = new URL(trimmed)
    return url.origin === "null" ? undefined : url.origin
  } catch {
    return undefined
  }
}

/** Parses a comma-separated list (the `CORS_ORIGINS` environment variable); throws on a bad entry. */
export const parseCorsOrigins = (raw: string): ReadonlyArray<string> =>
  raw
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "")
    .map((entry) => {
      const origin = normalizeOrigin(entry)
      if (origin === undefined) throw new Error(`CORS origin "${entry}" is not an http(s) origin (scheme://host[:port])`)
      return origin
    })

const isApiPath = (url: string) => url === API_PREFIX || url.startsWith(`${API_PREFIX}/`) || url.startsWith(`${API_PREFIX}?`)

/** The CORS answer headers for a request, or undefined when the request gets none. */
export const corsHeadersFor = (
  allowed: ReadonlySet<string>,
  request: { readonly method: string; readonly url: string; readonly headers: Readonly<Record<string, string | undefined>> },
): { readonly preflight: boolean; readonly headers: Record<string, string> } | undefined => {
  if (!isApiPath(request.url)) return undefined
  const origin = request.headers["origin"]
  const preflight = request.method === "OPTIONS" && request.headers["access-control-request-method"] !== undefined
  const ok = origin !== undefined && allowed.has(origin)
  if (!preflight)
    return ok ? { preflight, headers: { "access-control-allow-origin": origin, "access-control-expose-headers": EXPOSED_HEADERS, vary: "Origin" } } : undefined
  if (!ok) return { preflight, headers: { vary: "Origin" } }
  const requested = (request.headers["access-control-request-headers"] ?? "")
    .split(",")
    .map((h) => h.trim().toLowerCase())
    .filter(isAllowedHeader)
  return {
    preflight,
    headers: {
      "access-control-allow-origin": origin,
      "access-control-allow-methods": ALLOWED_METHODS,
      "access-control-allow-headers": [...new Set([...ALLOWED_HEADERS, ...requested])].join(", "),
      "access-control-max-age": MAX_AGE_SECONDS,
      vary: "Origin",
    },
  }
}

/**
 * A global router middleware: answers `/api` preflights itself (204, with the allow headers only
 * for an allowed origin) and adds `Access-Control-Allow-Origin` to every answer, errors included,
 * for an allowed origin.
 */
export const apiCorsLayer = (origins: ReadonlyArray<string>) => {
  const allowed = new Set(origins.map((origin) => normalizeOrigin(origin)).filter((origin): origin is string => origin !== undefined))
  return HttpRouter.middleware(
    (app) =>
      Effect.gen(function* () {
        const request = yield* HttpServerRequest.HttpServerRequest
        const cors = corsHeadersFor(allowed, request)
        if (cors === undefined) return yield* app
        if (cors.preflight) return HttpServerResponse.empty({ status: 204, headers: cors.headers })
        yield* HttpEffect.appendPreResponseHandler((_request, response) => Effect.succeed(HttpServerResponse.setHeaders(response, cors.headers)))
        return yield* app
      }),
    { global: true },
  )
}
