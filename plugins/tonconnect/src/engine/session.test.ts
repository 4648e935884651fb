import { SessionCrypto } from "@tonconnect/protocol"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { fromBase64, toBase64 } from "./bytes.ts"
import { decryptFrom, encryptFor, keyValueStoreFrom, loadState, memoryStore, newSessionKeys, saveState, sessionsKey } from "./session.ts"

describe("session crypto", () => {
  it("speaks the dApp SDK's SessionCrypto format both ways", () => {
    const wallet = newSessionKeys()
    const dapp = new SessionCrypto()
    const sealed = encryptFor(wallet, dapp.sessionId, '{"event":"connect"}')
    expect(dapp.decrypt(fromBase64(sealed), Buffer.from(wallet.id, "hex"))).toBe('{"event":"connect"}')
    const fromDapp = toBase64(dapp.encrypt('{"method":"sendTransaction"}', Buffer.from(wallet.id, "hex")))
    expect(decryptFrom(wallet, dapp.sessionId, fromDapp)).toBe('{"method":"sendTransaction"}')
  })

  it("does not open a tampered message or one from someone else, and says nothing about keys", () => {
    const wallet = newSessionKeys()
    const dapp = new SessionCrypto()
    const bytes = dapp.encrypt("hello", Buffer.from(wallet.id, "hex"))
    bytes[bytes.length - 1]! ^= 1
    expect(decryptFrom(wallet, dapp.sessionId, toBase64(bytes))).toBeUndefined()
    const stranger = new SessionCrypto()
    expect(decryptFrom(wallet, stranger.sessionId, toBase64(dapp.encrypt("hello", Buffer.from(wallet.id, "hex"))))).toBeUndefined()
    expect(decryptFrom(wallet, dapp.sessionId, "AAAA")).toBeUndefined()
  })
})

describe("session storage", () => {
  it("keeps sessions per wallet and network, and drops unreadable state", async () => {
    const map = new Map<string, string>()
    const store = memoryStore(map)
    const key = sessionsKey("-239", "0:aa")
    expect(sessionsKey("-3", "0:aa")).not.toBe(key)
    const session = {
      id: "01".repeat(32),
      secretKey: "02".repeat(32),
      dappClientId: "03".repeat(32),
      app: { manifestUrl: "https://d/m.json", url: "https://d", name: "D", iconUrl: "https://d/i.png", shortHost: "d", domain: "d" },
      nextEventId: 2,
      lastRequestId: -1,
      connectedAt: 1,
    }
    await Effect.runPromise(saveState(store, key, { version: 1, lastEventId: "9", sessions: [session] }))
    expect(await Effect.runPromise(loadState(store, key))).toEqual({ version: 1, lastEventId: "9", sessions: [session] })
    expect((await Effect.runPromise(loadState(store, sessionsKey("-3", "0:aa")))).sessions).toEqual([])
    map.set(key, "{broken")
    expect((await Effect.runPromise(loadState(store, key))).sessions).toEqual([])
    await Effect.runPromise(saveState(store, key, { version: 1, sessions: [] }))
    expect(map.has(key)).toBe(false)
  })

  it("sits on the kernel's backend with its prefix, and survives a full quota", async () => {
    const items = new Map<string, string>()
    const problems: Array<string> = []
    let full = false
    const store = keyValueStoreFrom(
      {
        getItem: (k) => items.get(k) ?? null,
        setItem: (k, v) => {
          if (full) throw new Error("QuotaExceededError")
          items.set(k, v)
        },
        removeItem: (k) => void items.delete(k),
      },
      (message) => problems.push(message),
    )
    await Effect.runPromise(store.set("tonconnect:v1:-239:0:aa", "{}"))
    expect([...items.keys()]).toEqual(["wallet:tonconnect:v1:-239:0:aa"])
    expect(await Effect.runPromise(store.get("tonconnect:v1:-239:0:aa"))).toBe("{}")
    full = true
    await Effect.runPromise(store.set("other", "x"))
    expect(problems).toEqual(["tonconnect: could not store other"])
    await Effect.runPromise(store.remove("tonconnect:v1:-239:0:aa"))
    expect(items.size).toBe(0)
  })
})
