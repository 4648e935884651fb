// A recording Telegram client for tests. Re-exported by ../telegram.ts.
import type { TelegramBridge, TelegramClient, TelegramKeyValue } from "./types.ts"

/** A recording client for tests: what was called, a way to emit client events, in-memory stores. */
export const recordingBridge = () => {
  const calls: Array<{ method: string; params?: Record<string, unknown> }> = []
  const listeners = new Map<string, Set<(payload: any) => void>>()
  const unsupported = new Set<string>()
  const values = { secure: new Map<string, string>(), device: new Map<string, string>(), cloud: new Map<string, string>() }
  const memory = (map: Map<string, string>): TelegramKeyValue => ({
    get: async (key) => map.get(key) ?? null,
    set: async (key, value) => (map.set(key, value), true),
    remove: async (key) => map.delete(key) || true,
  })
  const bridge: TelegramBridge = {
    postEvent: (method, params) => void calls.push({ method, params }),
    on: (event, listener) => {
      const set = listeners.get(event) ?? new Set()
      set.add(listener)
      listeners.set(event, set)
      return () => void set.delete(listener)
    },
    supports: (method) => !unsupported.has(method),
  }
  const client: TelegramClient = { ...bridge, stores: { secure: memory(values.secure), device: memory(values.device), cloud: memory(values.cloud) } }
  return {
    bridge: client,
    client,
    calls,
    unsupported,
    values,
    emit: (event: string, payload?: unknown) => [...(listeners.get(event) ?? [])].forEach((l) => l(payload)),
  }
}
