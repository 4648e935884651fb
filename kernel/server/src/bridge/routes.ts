/**
 * The bridge's HTTP routes, mounted at `/bridge` (outside the JSON API under `/api`):
 *
 * - `GET /bridge/events?client_id=A[,B]&last_event_id=N` (or the `Last-Event-ID` header): an SSE
 *   stream of `id: <n>` / `data: {"from":..,"message":..}` events for those client ids, replaying
 *   the unexpired messages after N first, plus `event: heartbeat` every `heartbeatMs`.
 * - `POST /bridge/message?client_id=A&to=B&ttl=T&topic=X[&trace_id=..]` with a base64 body; a
 *   trace id is passed on in the event data as `trace_id`.
 *
 * Errors are `{"message": "...", "statusCode": n}` with 400 (bad client id, ttl, last event id,
 * topic or body), 413 (body too large) and 429 (too many connections, stream opens or posts from one
 * address).
 * Every answer allows any origin: dApps call the bridge from their own pages.
 */
import { type Cause, Effect, Layer, Option, Queue, Stream } from "effect"
import { HttpRouter, type HttpServerRequest, HttpServerResponse } from "effect/http"
import { type BridgeEvent, BridgeHub, type BridgeHubShape, clientAddress, isClientId } from "./Bridge.ts"

export const BRIDGE_PREFIX = "/bridge"

const corsHeaders = {
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "GET, POST, OPTIONS",
  "access-control-allow-headers": "Content-Type, Last-Event-ID",
  "access-control-max-age": "86400",
} as const

const reply = (statusCode: number, message: string) => HttpServerResponse.jsonUnsafe({ message, statusCode }, { status: statusCode, headers: corsHeaders })

const BASE64 = /^[A-Za-z0-9+/_-]+={0,2}$/
const DIGITS = /^\d{1,18}$/
const TRACE_ID = /^[A-Za-z0-9-]{1,64}$/

const queryOf = (request: HttpServerRequest.HttpServerRequest) => new URL(request.url, "http://bridge.invalid").searchParams
const ipOf = (hub: BridgeHubShape, request: HttpServerRequest.HttpServerRequest) =>
  clientAddress(
    Option.getOrElse(request.remoteAddress, () => "unknown"),
    request.headers["x-forwarded-for"],
    hub.trustedProxies,
  )

/** One SSE event per message: `id` then a single `data` line. */
export const formatEvent = (event: BridgeEvent): string =>
  `id: ${event.id}\ndata: ${JSON.stringify(event.traceId === undefined ? { from: event.from, message: event.message } : { from: event.from, message: event.message, trace_id: event.traceId })}\n\n`
export const HEARTBEAT = "event: heartbeat\ndata: heartbeat\n\n"

/** Parses `a,b,...` into lower-case client ids; undefined when any is not 64 hex characters. */
export const parseClientIds = (raw: string | null, max: number): ReadonlyArray<string> | undefined => {
  if (raw === null) return undefined
  const ids = [...new Set(raw.split(",").map((part) => part.trim().toLowerCase()))]
  if (ids.length === 0 || ids.length > max || !ids.every(isClientId)) return undefined
  return ids
}

const events = (hub: BridgeHubShape, request: HttpServerRequest.HttpServerRequest) =>
  Effect.gen(function* () {
    const query = queryOf(request)
    const clientIds = parseClientIds(query.get("client_id"), hub.limits.maxClientIdsPerConnection)
    if (clientIds === undefined) {
      return reply(400, `client_id must be up to ${hub.limits.maxClientIdsPerConnection} comma-separated ids of 64 hex characters`)
    }
    const rawLast = query.get("last_event_id") ?? request.headers["last-event-id"] ?? ""
    if (rawLast !== "" && !DIGITS.test(rawLast.trim())) return reply(400, "last_event_id must be a non-negative integer")
    const ip = ipOf(hub, request)
    if (!(yield* hub.takeStreamToken(ip))) return reply(429, "too many requests")
    if (!(yield* hub.openConnection(ip))) return reply(429, "too many connections from this address")

    const body = Stream.unwrap(
      Effect.gen(function* () {
        yield* Effect.addFinalizer(() => hub.closeConnection(ip))
        const wake = yield* Queue.sliding<void, Cause.Done>(1)
        // Node's server stops listening as soon as it starts closing: end the stream then.
        const socket = (request.source as { readonly socket?: { readonly server?: { readonly listening?: boolean }; end?: () => void } }).socket
        const isServing = () => socket?.server?.listening !== false
        // A keep-alive socket left idle after close() began would hold the close for its timeout.
        yield* Effect.addFinalizer(() => Effect.sync(() => (isServing() ? undefined : socket?.end?.())))
        yield* Effect.acquireRelease(hub.subscribe(clientIds, wake, isServing), () => hub.unsubscribe(clientIds, wake))
        // The first read replays what is stored after the cursor.
        Queue.offerUnsafe(wake, undefined)
        let cursor = rawLast === "" ? 0n : BigInt(rawLast.trim())
        const drain = Effect.gen(function* () {
          let out = ""
          while (true) {
            const batch = yield* hub.read(clientIds, cursor)
            for (const event of batch) {
              out += formatEvent(event)
              cursor = event.id
            }
            if (batch.length < 500) return out
          }
        }).pipe(Effect.orDie)
        const messages = Stream.fromQueue(wake).pipe(
          Stream.mapEffect(() => drain),
          Stream.filter((chunk) => chunk !== ""),
        )
        const heartbeats = Stream.tick(hub.limits.heartbeatMs).pipe(Stream.map(() => HEARTBEAT))
        return Stream.merge(messages, heartbeats, { haltStrategy: "left" }).pipe(Stream.encodeText)
      }),
    )
    return HttpServerResponse.stream(body, {
      contentType: "text/event-stream",
      headers: { ...corsHeaders, "cache-control": "no-cache, no-transform", connection: "keep-alive", "x-accel-buffering": "no" },
    })
  })

const message = (hub: BridgeHubShape, request: HttpServerRequest.HttpServerRequest) =>
  Effect.gen(function* () {
    const { limits } = hub
    const query = queryOf(request)
    const from = parseClientIds(query.get("client_id"), 1)
    if (from === undefined) return reply(400, "client_id must be 64 hex characters")
    const to = parseClientIds(query.get("to"), 1)
    if (to === undefined) return reply(400, "to must be 64 hex characters")
    const rawTtl = query.get("ttl") ?? ""
    const ttl = DIGITS.test(rawTtl) ? Number(rawTtl) : Number.NaN
    if (!Number.isInteger(ttl) || ttl < 1 || ttl > limits.maxTtlSeconds) return reply(400, `ttl must be an integer from 1 to ${limits.maxTtlSeconds}`)
    const topic = query.get("topic") ?? undefined
    if (topic !== undefined && topic.length > limits.maxTopicLength) return reply(400, `topic must be at most ${limits.maxTopicLength} characters`)
    const traceId = query.get("trace_id") ?? undefined
    if (traceId !== undefined && !TRACE_ID.test(traceId)) return reply(400, "trace_id must be up to 64 letters, digits or dashes")
    if (!(yield* hub.takePostToken(ipOf(hub, request)))) return reply(429, "too many requests")
    const declared = Number(request.headers["content-length"] ?? "0")
    if (declared > limits.maxBodyBytes) return reply(413, `body must be at most ${limits.maxBodyBytes} bytes`)
    const text = yield* Effect.result(request.text)
    if (text._tag === "Failure") return reply(413, `body must be at most ${limits.maxBodyBytes} bytes`)
    const body = text.success.trim()
    if (Buffer.byteLength(body) > limits.maxBodyBytes) return reply(413, `body must be at most ${limits.maxBodyBytes} bytes`)
    if (!BASE64.test(body)) return reply(400, "the body must be the base64 message")
    yield* Effect.orDie(hub.post({ from: from[0]!, to: to[0]!, message: body, ttlSeconds: ttl, topic, traceId }))
    return reply(200, "OK")
  })

const preflight = HttpServerResponse.empty({ status: 204, headers: corsHeaders })

/** The routes plus the hub they share; needs `SqlClient` and `ServerConfig` (and uses `PgClient`). */
export const bridgeRoutes = HttpRouter.use((router) =>
  Effect.gen(function* () {
    // Route handlers run in the server's request context: they close over the hub instead.
    const hub = yield* BridgeHub
    yield* router.add("GET", `${BRIDGE_PREFIX}/events`, (request) => events(hub, request))
    yield* router.add("POST", `${BRIDGE_PREFIX}/message`, (request) => message(hub, request))
    yield* router.add("OPTIONS", `${BRIDGE_PREFIX}/*`, preflight)
  }),
).pipe(Layer.provide(BridgeHub.layer))
