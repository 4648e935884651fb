import { hexToByteArray, SessionCrypto } from "@tonconnect/protocol"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { Base64 } from "@tonconnect/protocol"
import {
  decryptFrom,
  encryptFor,
  keyValueStoreFrom,
  loadState,
  memoryStore,
  newSessionKeys,
  openMessage,
  saveState,
  sessionsKey,
  UndecryptableMessage,
} from "./session.ts"

const toBase64 = (bytes: Uint8Array): string => Base64.encode(bytes)
const fromBase64 = (text: string): Uint8Array => Base64.decode(text).toUint8Array()

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

describe("issue 13: decrypt errors carry no key material", () => {
  const forms = (hex: string) => {
    const bytes = Buffer.from(hex, "hex")
    return [hex, hex.toUpperCase(), bytes.toString("base64"), bytes.toString("base64url"), Array.from(bytes).join(",")]
  }
  const everythingOf = (e: unknown): string => {
    const error = e as Error & { cause?: unknown }
    return [
      String(error),
      error.message,
      error.stack ?? "",
      JSON.stringify(error),
      JSON.stringify(Object.getOwnPropertyDescriptors(error)),
      String(error.cause ?? ""),
    ].join("\n")
  }

  it("the library's own error would leak it (why the one call site replaces it)", () => {
    const wallet = newSessionKeys()
    const bytes = new SessionCrypto().encrypt("hello", Buffer.from(wallet.id, "hex"))
    bytes[bytes.length - 1]! ^= 1
    let raw: unknown
    try {
      new SessionCrypto({ publicKey: wallet.id, secretKey: wallet.secretKey }).decrypt(bytes, hexToByteArray(new SessionCrypto().sessionId))
    } catch (e) {
      raw = e
    }
    expect((raw as Error).message).toContain(Array.from(Buffer.from(wallet.secretKey, "hex")).join(","))
  })

  it("openMessage throws UndecryptableMessage without the key, the ciphertext or a cause", () => {
    const wallet = newSessionKeys()
    const dapp = new SessionCrypto()
    const tampered = dapp.encrypt("hello", Buffer.from(wallet.id, "hex"))
    tampered[tampered.length - 1]! ^= 1
    const cases = [toBase64(tampered), toBase64(new Uint8Array(24)), "not base64!", toBase64(new SessionCrypto().encrypt("x", Buffer.from(wallet.id, "hex")))]
    for (const message of cases) {
      let caught: unknown
      try {
        openMessage(wallet, dapp.sessionId, message)
      } catch (e) {
        caught = e
      }
      expect(caught).toBeInstanceOf(UndecryptableMessage)
      expect((caught as Error).cause).toBeUndefined()
      const text = everythingOf(caught)
      for (const form of forms(wallet.secretKey)) expect(text).not.toContain(form)
      expect(text).not.toContain(message)
    }
    expect(() => openMessage(wallet, "zz", toBase64(tampered))).toThrow(UndecryptableMessage)
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
