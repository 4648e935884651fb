/**
 * The Telegram client before the SDK has loaded (decision 0330). The first screen must not wait for
 * the SDK's chunk, so the service talks to this stand-in: calls are kept in order and replayed when
 * the SDK arrives, listeners subscribe to the SDK then (events come only from the SDK), store
 * requests wait for it, and the version gate is the kernel's table until the SDK's `supports` takes
 * over. It holds no transport of its own: nothing is posted or heard before the SDK is there.
 */
import type { TelegramClient, TelegramKeyValue, TelegramStores } from "../telegram.ts"
import { methodSupported } from "../telegram.ts"

export interface DeferredClient extends TelegramClient {
  /** True once the SDK is there and the queue has been replayed; false when it failed to load. */
  readonly ready: Promise<boolean>
  /** Calls waiting for the SDK (tests, diagnostics). */
  readonly pending: () => number
}

interface Subscription {
  readonly event: string
  readonly listener: (payload: any) => void
  stop?: () => void
  active: boolean
}

const isPromise = <A>(value: A | Promise<A>): value is Promise<A> => typeof (value as { then?: unknown })?.then === "function"

export const deferredClient = (
  source: TelegramClient | Promise<TelegramClient>,
  onError: (error: unknown) => void = (e) => console.warn("[telegram] the SDK failed to load", e),
): DeferredClient => {
  let client: TelegramClient | undefined
  let failed = false
  const queue: Array<readonly [string, Record<string, unknown> | undefined]> = []
  const waiting = new Set<Subscription>()

  const post = (target: TelegramClient, method: string, params?: Record<string, unknown>) => {
    try {
      target.postEvent(method, params)
    } catch (error) {
      onError(error)
    }
  }

  const arrive = (loaded: TelegramClient) => {
    client = loaded
    // Listeners first, so an answer to a replayed call is heard.
    for (const sub of waiting) if (sub.active) sub.stop = loaded.on(sub.event, sub.listener)
    waiting.clear()
    for (const [method, params] of queue.splice(0)) post(loaded, method, params)
  }

  let ready: Promise<boolean>
  if (isPromise(source)) {
    ready = source.then(
      (loaded) => {
        arrive(loaded)
        return true
      },
      (error) => {
        failed = true
        queue.length = 0
        waiting.clear()
        onError(error)
        return false
      },
    )
  } else {
    arrive(source)
    ready = Promise.resolve(true)
  }

  const store = (name: keyof TelegramStores): TelegramKeyValue => {
    const when = <A>(run: (kv: TelegramKeyValue) => Promise<A | null>): Promise<A | null> =>
      client ? run(client.stores[name]) : ready.then((ok) => (ok && client ? run(client.stores[name]) : null))
    return {
      get: (key) => when((kv) => kv.get(key)),
      set: (key, value) => when((kv) => kv.set(key, value)),
      remove: (key) => when((kv) => kv.remove(key)),
    }
  }

  return {
    ready,
    pending: () => queue.length,
    postEvent: (method, params) => {
      if (client) post(client, method, params)
      else if (!failed) queue.push([method, params])
    },
    on: (event, listener) => {
      const sub: Subscription = { event, listener, active: true }
      if (client) sub.stop = client.on(event, listener)
      else if (!failed) waiting.add(sub)
      return () => {
        sub.active = false
        waiting.delete(sub)
        sub.stop?.()
      }
    },
    supports: (method, version) => (client ? client.supports(method, version) : methodSupported(method, version)),
    stores: { secure: store("secure"), device: store("device"), cloud: store("cloud") },
  }
}
