/**
 * The wallet's side of the TonConnect HTTP bridge: `POST <bridge>/message?client_id&to&ttl` with
 * a base64 body, and `GET <bridge>/events?client_id=a,b&last_event_id=n` read as an event stream
 * over fetch (works in Node and in the mini-app; EventSource cannot be aborted per request), with
 * reconnects that resume from the last event id.
 */
import { Effect, Schema } from "effect"

export class BridgeError extends Schema.TaggedError<BridgeError>()("BridgeError", {
  message: Schema.String,
  status: Schema.optionalKey(Schema.Number),
}) {}

export interface BridgeEvent {
  /** The bridge's event id (a cursor for `last_event_id`). */
  readonly id: string | undefined
  /** The raw `data` of the event: `{"from","message"[,"trace_id"]}`. */
  readonly data: string
}

export interface BridgeListener {
  close(): void
}

export interface BridgeClientOptions {
  /** e.g. https://wallet.example/bridge (no trailing slash needed). */
  readonly url: string
  readonly fetch?: typeof globalThis.fetch
  /** Message lifetime in seconds, 1..300 (default 300). */
  readonly ttlSeconds?: number
  /** Reconnect delays in ms; the last repeats (default 500, 1000, 2000, 5000). */
  readonly reconnectDelaysMs?: ReadonlyArray<number>
}

export interface BridgeClient {
  readonly send: (from: string, to: string, body: string, options?: { readonly topic?: string; readonly traceId?: string }) => Effect.Effect<void, BridgeError>
  /**
   * Listens for messages to `clientIds`, starting after `lastEventId`. `onEvent` is awaited before
   * the next event is handed over, so a cursor saved there never runs ahead of the handling.
   */
  readonly listen: (
    clientIds: ReadonlyArray<string>,
    lastEventId: string | undefined,
    onEvent: (event: BridgeEvent) => Promise<void>,
    onProblem?: (message: string) => void,
  ) => BridgeListener
}

export const makeBridgeClient = (options: BridgeClientOptions): BridgeClient => {
  const base = options.url.replace(/\/+$/, "")
  const doFetch = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(input, init))
  const ttl = Math.max(1, Math.min(300, options.ttlSeconds ?? 300))
  const delays = options.reconnectDelaysMs ?? [500, 1000, 2000, 5000]

  const send: BridgeClient["send"] = (from, to, body, sendOptions = {}) =>
    Effect.gen(function* () {
      const url = new URL(`${base}/message`)
      url.searchParams.set("client_id", from)
      url.searchParams.set("to", to)
      url.searchParams.set("ttl", String(ttl))
      if (sendOptions.topic) url.searchParams.set("topic", sendOptions.topic)
      if (sendOptions.traceId) url.searchParams.set("trace_id", sendOptions.traceId)
      const response = yield* Effect.tryPromise({
        try: (signal) => doFetch(url, { method: "POST", body, headers: { "content-type": "text/plain" }, signal }),
        catch: (e) => new BridgeError({ message: `bridge unreachable: ${e instanceof Error ? e.message : "network error"}` }),
      })
      if (!response.ok) {
        const text = yield* Effect.promise(() => response.text().catch(() => ""))
        return yield* new BridgeError({ message: `bridge refused the message: HTTP ${response.status} ${text.slice(0, 200)}`, status: response.status })
      }
      yield* Effect.promise(() => response.body?.cancel().catch(() => undefined) ?? Promise.resolve())
    })

  const listen: BridgeClient["listen"] = (clientIds, lastEventId, onEvent, onProblem = () => {}) => {
    const controller = new AbortController()
    let cursor = lastEventId
    let attempt = 0
    const run = async () => {
      while (!controller.signal.aborted) {
        try {
          const url = new URL(`${base}/events`)
          url.searchParams.set("client_id", clientIds.join(","))
          if (cursor !== undefined) url.searchParams.set("last_event_id", cursor)
          const response = await doFetch(url, { headers: { accept: "text/event-stream" }, signal: controller.signal })
          if (!response.ok || !response.body) throw new Error(`bridge events: HTTP ${response.status}`)
          attempt = 0
          const reader = response.body.getReader()
          const decoder = new TextDecoder()
          let buffer = ""
          while (true) {
            const { value, done } = await reader.read()
            if (done) break
            buffer += decoder.decode(value, { stream: true }).replace(/\r\n?/g, "\n")
            let end: number
            while ((end = buffer.indexOf("\n\n")) >= 0) {
              const block = buffer.slice(0, end)
              buffer = buffer.slice(end + 2)
              let id: string | undefined
              let event = "message"
              const data: Array<string> = []
              for (const line of block.split("\n")) {
                if (line === "" || line.startsWith(":")) continue
                const colon = line.indexOf(":")
                const field = colon < 0 ? line : line.slice(0, colon)
                const text = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "")
                if (field === "id") id = text
                else if (field === "event") event = text
                else if (field === "data") data.push(text)
              }
              if (event !== "message" || data.length === 0) continue
              await onEvent({ id, data: data.join("\n") })
              if (id !== undefined) cursor = id
            }
          }
        } catch (error) {
          if (controller.signal.aborted) return
          onProblem(error instanceof Error ? error.message : String(error))
        }
        if (controller.signal.aborted) return
        const delay = delays[Math.min(attempt, delays.length - 1)] ?? 1000
        attempt++
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, delay)
          controller.signal.addEventListener("abort", () => (clearTimeout(timer), resolve()), { once: true })
        })
      }
    }
    void run()
    return { close: () => controller.abort() }
  }

  return { send, listen }
}
