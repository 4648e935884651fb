/**
 * A minimal SSE reader over `fetch` for tests and benchmarks of the bridge (Node has no
 * EventSource): parses `id`, `event` and `data` lines and hands events out in order.
 */
export interface SseEvent {
  readonly id: string | undefined
  /** "message" unless the stream named it (heartbeats are "heartbeat"). */
  readonly event: string
  readonly data: string
}

export interface SseConnection {
  readonly status: number
  readonly headers: Headers
  /** The next event that is not a heartbeat (or any event with `includeHeartbeats`). */
  next(options?: { readonly includeHeartbeats?: boolean }): Promise<SseEvent>
  /** Every event received so far that nobody took with `next`. */
  pending(): ReadonlyArray<SseEvent>
  close(): void
  /** The raw body when the answer was not an event stream. */
  readonly errorBody: string | undefined
}

export const openSse = async (url: string, init: { readonly headers?: Record<string, string> } = {}): Promise<SseConnection> => {
  const controller = new AbortController()
  const response = await fetch(url, { signal: controller.signal, ...(init.headers ? { headers: init.headers } : {}) })
  if (!(response.headers.get("content-type") ?? "").startsWith("text/event-stream")) {
    const errorBody = await response.text()
    return {
      status: response.status,
      headers: response.headers,
      errorBody,
      next: () => Promise.reject(new Error(`not an event stream (${response.status}): ${errorBody}`)),
      pending: () => [],
      close: () => controller.abort(),
    }
  }
  const queue: Array<SseEvent> = []
  const waiters: Array<() => void> = []
  let ended: Error | undefined
  const notify = () => {
    for (const waiter of waiters.splice(0)) waiter()
  }
  const reader = response.body!.getReader()
  const decoder = new TextDecoder()
  let buffer = ""
  void (async () => {
    try {
      while (true) {
        const { value, done } = await reader.read()
        if (done) break
        buffer += decoder.decode(value, { stream: true })
        let end: number
        while ((end = buffer.indexOf("\n\n")) >= 0) {
          const block = buffer.slice(0, end)
          buffer = buffer.slice(end + 2)
          let id: string | undefined
          let event = "message"
          const data: Array<string> = []
          for (const line of block.split("\n")) {
            if (line.startsWith(":")) continue
            const colon = line.indexOf(":")
            const field = colon < 0 ? line : line.slice(0, colon)
            const text = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "")
            if (field === "id") id = text
            else if (field === "event") event = text
            else if (field === "data") data.push(text)
          }
          queue.push({ id, event, data: data.join("\n") })
        }
        notify()
      }
      ended = new Error("event stream ended")
    } catch (error) {
      ended = error instanceof Error ? error : new Error(String(error))
    }
    notify()
  })()
  const next = async (options: { readonly includeHeartbeats?: boolean } = {}): Promise<SseEvent> => {
    while (true) {
      const index = queue.findIndex((event) => options.includeHeartbeats === true || event.event !== "heartbeat")
      if (index >= 0) return queue.splice(index, 1)[0]!
      if (ended !== undefined) throw ended
      await new Promise<void>((resolve) => waiters.push(resolve))
    }
  }
  return {
    status: response.status,
    headers: response.headers,
    errorBody: undefined,
    next,
    pending: () => [...queue],
    close: () => controller.abort(),
  }
}
