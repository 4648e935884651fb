import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { hasStoredSessions } from "../listener.ts"
import { Base64, hexToByteArray } from "@tonconnect/protocol"
import { sealedStore, storedSessionCount, type SealingKeys, type SealKeyId } from "./sealed-store.ts"
import { keyValueStoreFrom, loadState, newSessionKeys, saveState, sessionsKey, type StoredState } from "./session.ts"

const aesKey = () => crypto.subtle.generateKey({ name: "AES-GCM", length: 256 }, false, ["encrypt", "decrypt"])

/** Device keys in memory; `state` lets a test lose a key or make it unavailable for a while. */
const memoryKeys = async (id: SealKeyId = "idb") => {
  const keys = new Map<SealKeyId, CryptoKey>([[id, await aesKey()]])
  const state = { unavailable: false, none: false }
  const sealing: SealingKeys = {
    current: async () => (state.none ? null : { id, key: keys.get(id)! }),
    get: async (which) => (state.unavailable ? "unavailable" : (keys.get(which) ?? null)),
  }
  return { sealing, keys, state }
}

/** localStorage as the app has it: a Map behind the kernel's backend, with the `wallet:` prefix. */
const localStorageLike = () => {
  const items = new Map<string, string>()
  const store = keyValueStoreFrom({ getItem: (k) => items.get(k) ?? null, setItem: (k, v) => void items.set(k, v), removeItem: (k) => void items.delete(k) })
  const storage = {
    get length() {
      return items.size
    },
    key: (i: number) => [...items.keys()][i] ?? null,
    getItem: (k: string) => items.get(k) ?? null,
  }
  return { items, store, storage }
}

const stateWith = (secretKey: string, id: string): StoredState => ({
  version: 1,
  lastEventId: "42",
  sessions: [
    {
      id,
      secretKey,
      dappClientId: "ab".repeat(32),
      app: {
        manifestUrl: "https://d.example/m.json",
        url: "https://d.example",
        name: "Demo dApp",
        iconUrl: "https://d.example/i.png",
        shortHost: "d.example",
        domain: "d.example",
      },
      nextEventId: 3,
      lastRequestId: 7,
      connectedAt: 1,
    },
  ],
})

/** Every form a leaked secret key could take in a dump. */
const forms = (hex: string) => [
  hex,
  hex.toUpperCase(),
  Base64.encode(hexToByteArray(hex)),
  Base64.encode(hexToByteArray(hex)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, ""),
]

const KEY = sessionsKey("-239", `0:${"5a".repeat(32)}`)
const run = <A>(effect: Effect.Effect<A>) => Effect.runPromise(effect)

describe("TonConnect session secrets sealed at rest (issue 15)", () => {
  it("no session secret key appears in local storage: a dump of it reveals only a session count", async () => {
    const { items, store, storage } = localStorageLike()
    const { sealing } = await memoryKeys()
    const sealed = sealedStore(store, sealing)
    const session = newSessionKeys()
    const state = stateWith(session.secretKey, session.id)
    await run(saveState(sealed, KEY, state))

    const dump = [...items.entries()].map(([k, v]) => `${k}=${v}`).join("\n")
    for (const form of forms(session.secretKey)) expect(dump).not.toContain(form)
    expect(dump).not.toContain("Demo dApp")
    expect(dump).not.toContain("secretKey")
    expect(JSON.parse(items.get(`wallet:${KEY}`)!)).toMatchObject({ sealed: 1, k: "idb", sessions: 1 })
    // The engine reads back exactly what it wrote; the listener still knows a session exists.
    expect(await run(loadState(sealed, KEY))).toEqual(state)
    expect(hasStoredSessions(storage)).toBe(true)
  })

  it("migrates a plain record of the old version on first read", async () => {
    const { items, store } = localStorageLike()
    const { sealing } = await memoryKeys()
    const session = newSessionKeys()
    const state = stateWith(session.secretKey, session.id)
    items.set(`wallet:${KEY}`, JSON.stringify(state))
    const sealed = sealedStore(store, sealing)
    expect(await run(loadState(sealed, KEY))).toEqual(state)
    const stored = items.get(`wallet:${KEY}`)!
    for (const form of forms(session.secretKey)) expect(stored).not.toContain(form)
    expect(JSON.parse(stored)).toMatchObject({ sealed: 1, sessions: 1 })
    // A fresh store (the next page) opens the migrated record.
    expect(await run(loadState(sealedStore(store, sealing), KEY))).toEqual(state)
  })

  it("does not open an altered record, one moved to another wallet's key, or one sealed with another device key", async () => {
    const { items, store } = localStorageLike()
    const { sealing } = await memoryKeys()
    const sealed = sealedStore(store, sealing)
    const session = newSessionKeys()
    await run(saveState(sealed, KEY, stateWith(session.secretKey, session.id)))
    const record = JSON.parse(items.get(`wallet:${KEY}`)!) as { ct: string }

    const problems: Array<string> = []
    const watched = sealedStore(store, sealing, { onProblem: (m) => problems.push(m) })
    const other = sessionsKey("-3", `0:${"5a".repeat(32)}`)
    items.set(`wallet:${other}`, items.get(`wallet:${KEY}`)!)
    expect((await run(loadState(watched, other))).sessions).toEqual([])
    items.set(`wallet:${KEY}`, JSON.stringify({ ...record, ct: `${record.ct.slice(0, -2)}${record.ct.endsWith("A") ? "B" : "A"}A` }))
    expect((await run(loadState(watched, KEY))).sessions).toEqual([])
    const foreign = await memoryKeys()
    await run(saveState(sealedStore(store, foreign.sealing), KEY, stateWith(session.secretKey, session.id)))
    expect((await run(loadState(watched, KEY))).sessions).toEqual([])
    expect(problems).toHaveLength(3)
    for (const problem of problems) for (const form of forms(session.secretKey)) expect(problem).not.toContain(form)
  })

  it("a key that cannot be read now does not let an empty state overwrite the sessions", async () => {
    const { items, store } = localStorageLike()
    const { sealing, state: keyState } = await memoryKeys("tg")
    const session = newSessionKeys()
    const state = stateWith(session.secretKey, session.id)
    await run(saveState(sealedStore(store, sealing), KEY, state))
    const before = items.get(`wallet:${KEY}`)

    keyState.unavailable = true
    const page = sealedStore(store, sealing)
    expect((await run(loadState(page, KEY))).sessions).toEqual([])
    await run(saveState(page, KEY, { version: 1, lastEventId: "43", sessions: [] }))
    expect(items.get(`wallet:${KEY}`)).toBe(before)

    keyState.unavailable = false
    expect(await run(loadState(sealedStore(store, sealing), KEY))).toEqual(state)
  })

  it("without any device key (no WebCrypto, insecure page) nothing is persisted, and a plain record is taken out of storage", async () => {
    const { items, store } = localStorageLike()
    const { sealing, state: keyState } = await memoryKeys()
    keyState.none = true
    const session = newSessionKeys()
    const state = stateWith(session.secretKey, session.id)
    const sealed = sealedStore(store, sealing)
    await run(saveState(sealed, KEY, state))
    expect(items.size).toBe(0)
    items.set(`wallet:${KEY}`, JSON.stringify(state))
    expect(await run(loadState(sealed, KEY))).toEqual(state)
    expect(items.size).toBe(0)
  })

  it("counts sessions of sealed and plain records without opening them", () => {
    expect(storedSessionCount(null)).toBe(0)
    expect(storedSessionCount('{"sealed":1,"k":"idb","sessions":2,"iv":"a","ct":"b"}')).toBe(2)
    expect(storedSessionCount('{"sealed":1,"k":"idb","sessions":0,"iv":"a","ct":"b"}')).toBe(0)
    expect(storedSessionCount(JSON.stringify({ sessions: [{ id: "s" }] }))).toBe(1)
    expect(storedSessionCount("{broken")).toBe(0)
  })
})
