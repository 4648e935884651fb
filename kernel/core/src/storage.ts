import { Context, Data, Effect, Layer } from "effect"
import type { Check } from "./check.ts"

/** Where persisted stores live: localStorage in the mini-app, a map in tests. */
export interface KeyValueBackend {
  readonly getItem: (key: string) => string | null
  readonly setItem: (key: string, value: string) => void
  readonly removeItem: (key: string) => void
}

export class StorageWriteError extends Data.TaggedError("StorageWriteError")<{ readonly key: string; readonly cause: unknown }> {}

/**
 * A versioned persisted store. `migrations[n]` turns data of version n-1 into version n; stored data
 * older than `version` is migrated on load, newer or undecodable data is replaced by `initial`.
 */
export interface StoreDefinition<A> {
  readonly key: string
  readonly version: number
  /**
   * Checks stored data on load. A kernel `Check` stores the value as is; an Effect Schema goes
   * through `schemaCheck` from `@wallet/kernel/schema` (decode and encode), off the first screen.
   */
  readonly schema: StoreCheck<A>
  readonly initial: A
  readonly migrations?: Readonly<Record<number, (previous: unknown) => unknown>>
}

/** A `Check` that may also say how to encode a value for storage (identity when absent). */
export type StoreCheck<A> = Check<A> & { readonly encode?: (value: A) => unknown }

export const defineStore = <A>(definition: StoreDefinition<A>): StoreDefinition<A> => definition

interface Envelope {
  readonly v: number
  readonly data: unknown
}

export const STORAGE_PREFIX = "wallet:"

export class Storage extends Context.Service<
  Storage,
  {
    readonly load: <A>(store: StoreDefinition<A>) => Effect.Effect<A>
    readonly save: <A>(store: StoreDefinition<A>, value: A) => Effect.Effect<void, StorageWriteError>
    readonly update: <A>(store: StoreDefinition<A>, f: (value: A) => A) => Effect.Effect<A, StorageWriteError>
    readonly clear: <A>(store: StoreDefinition<A>) => Effect.Effect<void>
  }
>()("wallet/Storage") {
  static readonly make = (backend: KeyValueBackend, onProblem: (message: string, cause?: unknown) => void = () => {}) => {
    const read = <A>(store: StoreDefinition<A>): A => {
      const raw = backend.getItem(STORAGE_PREFIX + store.key)
      if (raw === null) return store.initial
      let envelope: Envelope
      try {
        envelope = JSON.parse(raw) as Envelope
      } catch (cause) {
        onProblem(`store '${store.key}' holds invalid JSON`, cause)
        return store.initial
      }
      if (typeof envelope?.v !== "number" || envelope.v > store.version) {
        onProblem(`store '${store.key}' has unknown version ${String(envelope?.v)}`)
        return store.initial
      }
      let data = envelope.data
      for (let v = envelope.v + 1; v <= store.version; v++) {
        const migrate = store.migrations?.[v]
        if (!migrate) {
          onProblem(`store '${store.key}' has no migration to version ${v}`)
          return store.initial
        }
        data = migrate(data)
      }
      const decoded = store.schema.run(data)
      if (!decoded.ok) {
        onProblem(`store '${store.key}' does not match its schema`)
        return store.initial
      }
      return decoded.value
    }
    const write = <A>(store: StoreDefinition<A>, value: A) =>
      Effect.try({
        try: () => {
          const data = store.schema.encode ? store.schema.encode(value) : value
          backend.setItem(STORAGE_PREFIX + store.key, JSON.stringify({ v: store.version, data } satisfies Envelope))
        },
        catch: (cause) => new StorageWriteError({ key: store.key, cause }),
      }).pipe(Effect.tapError((e) => Effect.sync(() => onProblem(`failed to write store '${e.key}'`, e.cause))))
    return Storage.of({
      load: (store) => Effect.sync(() => read(store)),
      save: write,
      update: (store, f) =>
        Effect.suspend(() => {
          const next = f(read(store))
          return write(store, next).pipe(Effect.as(next))
        }),
      clear: (store) => Effect.sync(() => backend.removeItem(STORAGE_PREFIX + store.key)),
    })
  }

  static readonly layerLocalStorage = Layer.sync(Storage, () =>
    Storage.make(globalThis.localStorage, (message, cause) => console.warn(`[storage] ${message}`, cause ?? "")),
  )

  static readonly layerTest = (entries: Record<string, string> = {}) => {
    const map = new Map(Object.entries(entries))
    return Layer.succeed(
      Storage,
      Storage.make({
        getItem: (k) => map.get(k) ?? null,
        setItem: (k, v) => void map.set(k, v),
        removeItem: (k) => void map.delete(k),
      }),
    )
  }
}

/** An in-memory backend, also usable where localStorage is unavailable. */
export const memoryBackend = (entries: Record<string, string> = {}): KeyValueBackend & { readonly entries: Map<string, string> } => {
  const map = new Map(Object.entries(entries))
  return { entries: map, getItem: (k) => map.get(k) ?? null, setItem: (k, v) => void map.set(k, v), removeItem: (k) => void map.delete(k) }
}
