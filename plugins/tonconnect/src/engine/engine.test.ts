import { ChainError, type ChainShape } from "@wallet/kernel/chain"
import { Effect } from "effect"
import nacl from "tweetnacl"
import { Base64, SessionCrypto } from "@tonconnect/protocol"
import { afterEach, describe, expect, it, vi } from "vitest"
import { makeEngine, type PendingRequest, type TonConnectEngine } from "./engine.ts"
import type { ConnectLink } from "./links.ts"
import { type KeyValueStore, memoryStore } from "./session.ts"
import { keyPairSigner, SignerError, type TonNetwork, type WalletSigner } from "./signer.ts"
import { walletContractOf } from "./transaction.ts"

const toBase64 = (bytes: Uint8Array): string => Base64.encode(bytes)
const fromBase64 = (text: string): Uint8Array => Base64.decode(text).toUint8Array()

const keys = nacl.sign.keyPair.fromSeed(new Uint8Array(32).fill(4))
// The standard W5R1 contract of the key: transfers are built by its own contract code (@ton/ton).
const address = walletContractOf({ publicKey: keys.publicKey, network: "-239" }).address.toRawString()
const MANIFEST_URL = "https://dapp.example/tonconnect-manifest.json"
const goodManifest = { url: "https://dapp.example", name: "Demo", iconUrl: "https://dapp.example/icon.png" }

/** A bridge and a dApp site in memory: posts are recorded, the event stream is fed by the test. */
const fakeNet = (manifest: { status: number; body: string } = { status: 200, body: JSON.stringify(goodManifest) }) => {
  const posts: Array<{ from: string; to: string; body: string }> = []
  const streams: Array<{ ids: string; lastEventId: string | null; push: (text: string) => void }> = []
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input))
    if (url.pathname === "/tonconnect-manifest.json") return new Response(manifest.body, { status: manifest.status })
    if (url.pathname === "/bridge/message") {
      posts.push({ from: url.searchParams.get("client_id")!, to: url.searchParams.get("to")!, body: String(init?.body) })
      return new Response('{"message":"OK","statusCode":200}')
    }
    if (url.pathname === "/bridge/events") {
      let controller!: ReadableStreamDefaultController<Uint8Array>
      const body = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) })
      init?.signal?.addEventListener("abort", () => controller.error(new Error("aborted")))
      streams.push({
        ids: url.searchParams.get("client_id")!,
        lastEventId: url.searchParams.get("last_event_id"),
        push: (text) => controller.enqueue(new TextEncoder().encode(text)),
      })
      return new Response(body, { headers: { "content-type": "text/event-stream" } })
    }
    return new Response("not found", { status: 404 })
  }) as typeof globalThis.fetch
  return { fetch, posts, streams }
}

const waitFor = async <A>(check: () => A | undefined, what: string): Promise<A> => {
  for (let i = 0; i < 200; i++) {
    const value = check()
    if (value !== undefined) return value
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  throw new Error(`timed out waiting for ${what}`)
}

const engines: Array<TonConnectEngine> = []
afterEach(() => {
  for (const engine of engines.splice(0)) engine.stop()
})

const setup = (
  options: {
    net?: ReturnType<typeof fakeNet>
    storage?: KeyValueStore
    network?: TonNetwork
    signer?: WalletSigner
    chain?: Partial<ChainShape>
    onProblem?: (message: string) => void
  } = {},
) => {
  const net = options.net ?? fakeNet()
  const dapp = new SessionCrypto()
  const requests: Array<PendingRequest> = []
  const signer = options.signer ?? keyPairSigner({ secretKey: keys.secretKey, address, stateInit: "te6ccgEBAQEAAgAAAA==", network: options.network ?? "-239" })
  const chain = { ...options.chain } as ChainShape
  const engine = makeEngine({
    signer,
    storage: options.storage ?? memoryStore(),
    bridgeUrl: "https://wallet.example/bridge",
    chain,
    device: { platform: "iphone", appName: "wallet", appVersion: "6.4.0" },
    fetch: net.fetch,
    onRequest: (r) => requests.push(r),
    reconnectDelaysMs: [10],
    ...(options.onProblem ? { onProblem: options.onProblem } : {}),
  })
  engines.push(engine)
  const link = (items: ConnectLink["request"]["items"] = [{ name: "ton_addr" }]): ConnectLink => ({
    version: 2,
    clientId: dapp.sessionId,
    request: { manifestUrl: MANIFEST_URL, items },
    ret: "back",
  })
  /** Everything posted to the dApp, decrypted. */
  const received = () =>
    net.posts
      .filter((p) => p.to === dapp.sessionId)
      .map((p) => JSON.parse(dapp.decrypt(fromBase64(p.body), Buffer.from(p.from, "hex"))) as Record<string, unknown>)
  let eventId = 100
  const send = (walletId: string, message: object) => {
    const stream = net.streams.at(-1)!
    const data = JSON.stringify({ from: dapp.sessionId, message: toBase64(dapp.encrypt(JSON.stringify(message), Buffer.from(walletId, "hex"))) })
    stream.push(`id: ${++eventId}\ndata: ${data}\n\n`)
  }
  /** A raw bridge event from the dApp's client id (any message text). */
  const sendRaw = (message: string) => net.streams.at(-1)!.push(`id: ${++eventId}\ndata: ${JSON.stringify({ from: dapp.sessionId, message })}\n\n`)
  const connect = async (items?: ConnectLink["request"]["items"]) => {
    await Effect.runPromise(engine.start())
    const proposal = await Effect.runPromise(engine.prepareConnect(link(items)))
    const session = await Effect.runPromise(engine.approveConnect(proposal))
    await waitFor(() => net.streams.find((s) => s.ids.includes(session.id)), "the listener")
    return session
  }
  return { net, dapp, engine, requests, link, received, send, sendRaw, connect, signer }
}

const failure = async <A, E>(effect: Effect.Effect<A, E>) => {
  const result = await Effect.runPromise(Effect.result(effect))
  if (result._tag === "Success") throw new Error("expected a failure")
  return result.failure
}

describe("connect", () => {
  it("tells the dApp 2 when the manifest is missing and 3 when it is wrong", async () => {
    const missing = setup({ net: fakeNet({ status: 404, body: "" }) })
    expect(await failure(missing.engine.prepareConnect(missing.link()))).toMatchObject({ code: 2 })
    expect(missing.received()).toEqual([{ event: "connect_error", id: expect.any(Number), payload: { code: 2, message: expect.any(String) } }])
    const wrong = setup({ net: fakeNet({ status: 200, body: JSON.stringify({ name: "x" }) }) })
    expect(await failure(wrong.engine.prepareConnect(wrong.link()))).toMatchObject({ code: 3 })
    expect(wrong.received()[0]).toMatchObject({ event: "connect_error", payload: { code: 3 } })
  })

  it("answers 300 when the user declines, 1 when the dApp wants another network", async () => {
    const t = setup()
    const proposal = await Effect.runPromise(t.engine.prepareConnect(t.link()))
    await Effect.runPromise(t.engine.declineConnect(proposal))
    expect(t.received()).toEqual([{ event: "connect_error", id: expect.any(Number), payload: { code: 300, message: expect.any(String) } }])
    const other = setup()
    const testnet = await Effect.runPromise(other.engine.prepareConnect(other.link([{ name: "ton_addr", network: "-3" }])))
    expect(testnet.networkMismatch).toBe("-3")
    expect(await failure(other.engine.approveConnect(testnet))).toMatchObject({ code: 1 })
    expect(other.received()[0]).toMatchObject({ event: "connect_error", payload: { code: 1 } })
    expect(await Effect.runPromise(other.engine.sessions())).toEqual([])
  })

  it("replies ton_addr, 400 for unknown items, and keeps the session per wallet and network", async () => {
    const storage = memoryStore()
    const t = setup({ storage })
    const session = await t.connect([{ name: "ton_addr" }, { name: "future_item" }])
    const [event] = t.received()
    expect(event).toMatchObject({
      event: "connect",
      id: 1,
      payload: {
        items: [
          { name: "ton_addr", address, network: "-239", publicKey: Buffer.from(keys.publicKey).toString("hex"), walletStateInit: "te6ccgEBAQEAAgAAAA==" },
          { name: "future_item", error: { code: 400 } },
        ],
        device: {
          platform: "iphone",
          maxProtocolVersion: 2,
          features: expect.arrayContaining([{ name: "SendTransaction", maxMessages: 255, extraCurrencySupported: false }]),
        },
      },
    })
    expect(session.app).toMatchObject({ name: "Demo", shortHost: "dapp.example" })
    const again = setup({ storage })
    expect((await Effect.runPromise(again.engine.sessions())).map((s) => s.id)).toEqual([session.id])
    const testnet = setup({ storage, network: "-3" })
    expect(await Effect.runPromise(testnet.engine.sessions())).toEqual([])
  })

  it("answers a proposal once: a double approve makes one session, a decline after it is refused", async () => {
    const t = setup()
    const proposal = await Effect.runPromise(t.engine.prepareConnect(t.link()))
    const [a, b] = await Promise.all([
      Effect.runPromise(Effect.result(t.engine.approveConnect(proposal))),
      Effect.runPromise(Effect.result(t.engine.approveConnect(proposal))),
    ])
    expect([a._tag, b._tag].sort()).toEqual(["Failure", "Success"])
    expect(await failure(t.engine.declineConnect(proposal))).toMatchObject({ _tag: "RequestError" })
    expect(await Effect.runPromise(t.engine.sessions())).toHaveLength(1)
    expect(t.received().map((m) => m.event)).toEqual(["connect"])
  })

  it("answers 300 when the signer is cancelled during ton_proof", async () => {
    const base = keyPairSigner({ secretKey: keys.secretKey, address, stateInit: "", network: "-239" })
    const t = setup({ signer: { ...base, signRaw: () => Effect.fail(new SignerError({ cancelled: true, message: "passcode closed" })) } })
    const proposal = await Effect.runPromise(t.engine.prepareConnect(t.link([{ name: "ton_addr" }, { name: "ton_proof", payload: "x" }])))
    expect(await failure(t.engine.approveConnect(proposal))).toMatchObject({ _tag: "SignerError", cancelled: true })
    expect(t.received()[0]).toMatchObject({ event: "connect_error", payload: { code: 300 } })
  })
})

describe("requests over the bridge", () => {
  it("refuses unknown methods (400), expired and oversized transactions and wrong-network signData (1), without asking the user", async () => {
    const t = setup()
    const session = await t.connect()
    const future = Math.floor(Date.now() / 1000) + 60
    const to = "EQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAM9c"
    t.send(session.id, { method: "signMessage", params: [], id: "1" })
    t.send(session.id, { method: "sendTransaction", params: [JSON.stringify({ valid_until: 1000, messages: [{ address: to, amount: "1" }] })], id: "2" })
    const many = Array.from({ length: 256 }, () => ({ address: to, amount: "1" }))
    t.send(session.id, { method: "sendTransaction", params: [JSON.stringify({ valid_until: future, messages: many })], id: "3" })
    t.send(session.id, { method: "signData", params: [JSON.stringify({ type: "text", text: "x", network: "-3" })], id: "4" })
    t.send(session.id, { method: "sendTransaction", params: ["{"], id: "5" })
    t.send(session.id, { method: "signData", params: [JSON.stringify({ type: "cell", schema: "x", cell: "bm90IGEgYm9j" })], id: "6" })
    t.send(session.id, { method: "signData", params: [JSON.stringify({ type: "binary", bytes: "%%%" })], id: "7" })
    const answers = await waitFor(() => {
      const all = t.received().filter((m) => "error" in m)
      return all.length === 7 ? all : undefined
    }, "seven answers")
    expect(answers.map((a) => [a.id, (a.error as { code: number }).code])).toEqual([
      ["1", 400],
      ["2", 1],
      ["3", 1],
      ["4", 1],
      ["5", 1],
      ["6", 1],
      ["7", 1],
    ])
    expect(t.requests).toEqual([])
  })

  it("hands valid requests to the screen once, answers a decline with 300 and ignores replayed ids", async () => {
    const t = setup()
    const session = await t.connect()
    const tx = { method: "sendTransaction", params: [JSON.stringify({ messages: [{ address: `0:${"11".repeat(32)}`, amount: "7" }] })], id: "8" }
    t.send(session.id, tx)
    t.send(session.id, tx)
    t.send(session.id, { method: "signData", params: [JSON.stringify({ type: "text", text: "hi", from: address })], id: "9" })
    await waitFor(() => (t.requests.length === 2 ? true : undefined), "two requests")
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(t.requests.map((r) => [r.kind, r.id])).toEqual([
      ["sendTransaction", "8"],
      ["signData", "9"],
    ])
    await Effect.runPromise(t.engine.reject(t.requests[0]!))
    expect(t.received().at(-1)).toEqual({ error: { code: 300, message: "User declined the request" }, id: "8" })
  })

  it("answers 300 when the signer is cancelled on signData", async () => {
    const base = keyPairSigner({ secretKey: keys.secretKey, address, stateInit: "", network: "-239" })
    let cancel = false
    const t = setup({
      signer: { ...base, signRaw: (bytes) => (cancel ? Effect.fail(new SignerError({ cancelled: true, message: "closed" })) : base.signRaw(bytes)) },
    })
    const session = await t.connect()
    cancel = true
    t.send(session.id, { method: "signData", params: [JSON.stringify({ type: "text", text: "hi" })], id: "3" })
    const pending = await waitFor(() => t.requests[0], "the request")
    if (pending.kind !== "signData") throw new Error("expected signData")
    expect(await failure(t.engine.approveSignData(pending))).toMatchObject({ _tag: "SignerError" })
    expect(t.received().at(-1)).toMatchObject({ error: { code: 300 }, id: "3" })
  })

  it("refuses an approval after valid_until with 1", async () => {
    let clock = Date.now()
    const net = fakeNet()
    const t = setup({ net })
    const engine = makeEngine({
      signer: t.signer,
      storage: memoryStore(),
      bridgeUrl: "https://wallet.example/bridge",
      chain: {} as ChainShape,
      device: { platform: "iphone", appName: "wallet", appVersion: "6.4.0" },
      fetch: net.fetch,
      now: () => clock,
      onRequest: (r) => t.requests.push(r),
      reconnectDelaysMs: [10],
    })
    engines.push(engine)
    await Effect.runPromise(engine.start())
    const session = await Effect.runPromise(engine.prepareConnect(t.link()).pipe(Effect.flatMap(engine.approveConnect)))
    await waitFor(() => net.streams.find((s) => s.ids.includes(session.id)), "the listener")
    t.send(session.id, {
      method: "sendTransaction",
      params: [JSON.stringify({ valid_until: Math.floor(clock / 1000) + 30, messages: [{ address: `0:${"11".repeat(32)}`, amount: "7" }] })],
      id: "1",
    })
    const pending = await waitFor(() => t.requests[0], "the request")
    if (pending.kind !== "sendTransaction") throw new Error("expected a transaction")
    clock += 31_000
    expect(await failure(engine.approveTransaction(pending))).toMatchObject({ code: 1, message: expect.stringMatching(/expired/) })
    expect(t.received().at(-1)).toMatchObject({ error: { code: 1 }, id: "1" })
  })
})

describe("approving", () => {
  const account = { address, balance: 10n ** 9n, last_activity: 0, status: "active", get_methods: [], is_wallet: true }

  it("sends once per request: a double approve does not sign twice, and a chain refusal answers 0", async () => {
    const sent: Array<string> = []
    let refuse = false
    const t = setup({
      chain: {
        getAccount: () => Effect.succeed(account as never),
        getSeqno: () => Effect.succeed(5),
        sendBoc: (boc) =>
          refuse
            ? Effect.fail(new ChainError({ reason: "Status", status: 400, message: "seqno mismatch", code: 133 }))
            : Effect.sync(() => void sent.push(boc)),
      },
    })
    const session = await t.connect()
    const tx = (id: string) => ({ method: "sendTransaction", params: [JSON.stringify({ messages: [{ address: `0:${"11".repeat(32)}`, amount: "7" }] })], id })
    t.send(session.id, tx("1"))
    t.send(session.id, tx("2"))
    await waitFor(() => (t.requests.length === 2 ? true : undefined), "two requests")
    const [first, second] = t.requests as [PendingRequest & { kind: "sendTransaction" }, PendingRequest & { kind: "sendTransaction" }]
    const [a, b] = await Promise.all([
      Effect.runPromise(Effect.result(t.engine.approveTransaction(first))),
      Effect.runPromise(Effect.result(t.engine.approveTransaction(first))),
    ])
    expect([a._tag, b._tag].sort()).toEqual(["Failure", "Success"])
    expect(sent).toHaveLength(1)
    expect(t.received().filter((m) => m.id === "1")).toEqual([{ result: sent[0], id: "1" }])
    refuse = true
    expect(await failure(t.engine.approveTransaction(second))).toMatchObject({ _tag: "ChainError", code: 133 })
    expect(t.received().at(-1)).toMatchObject({ error: { code: 0, message: expect.stringMatching(/seqno mismatch/) }, id: "2" })
  })
})

describe("disconnect and the bridge cursor", () => {
  it("numbers wallet events strictly upward and resumes the stream after the last event id", async () => {
    const storage = memoryStore()
    const t = setup({ storage })
    const first = await t.connect()
    t.send(first.id, { method: "nope", params: [], id: "1" })
    await waitFor(() => (t.received().length === 2 ? true : undefined), "the answer")
    t.engine.stop()
    // A new engine on the same storage resumes after event 101 and still knows the session.
    const again = setup({ storage, net: t.net })
    await Effect.runPromise(again.engine.start())
    const stream = await waitFor(() => (t.net.streams.length === 2 ? t.net.streams[1] : undefined), "a second stream")
    expect(stream.lastEventId).toBe("101")
    await Effect.runPromise(again.engine.disconnect(first.id))
    const events = t.received().filter((m) => "event" in m)
    expect(events.map((e) => [e.event, e.id])).toEqual([
      ["connect", 1],
      ["disconnect", 2],
    ])
    expect(await Effect.runPromise(again.engine.sessions())).toEqual([])
  })

  it("forgets a session the dApp disconnects and tells the listener", async () => {
    const changes: Array<number> = []
    const net = fakeNet()
    const t = setup({ net })
    const engine = makeEngine({
      signer: t.signer,
      storage: memoryStore(),
      bridgeUrl: "https://wallet.example/bridge",
      chain: {} as ChainShape,
      device: { platform: "android", appName: "wallet", appVersion: "6.4.0" },
      fetch: net.fetch,
      onSessionsChanged: (sessions) => changes.push(sessions.length),
      reconnectDelaysMs: [10],
    })
    engines.push(engine)
    await Effect.runPromise(engine.start())
    const session = await Effect.runPromise(engine.prepareConnect(t.link()).pipe(Effect.flatMap(engine.approveConnect)))
    await waitFor(() => net.streams.find((s) => s.ids.includes(session.id)), "the listener")
    t.send(session.id, { method: "disconnect", params: [], id: "0" })
    await waitFor(() => (changes.length === 2 ? true : undefined), "the change")
    expect(changes).toEqual([1, 0])
    expect(t.received().at(-1)).toEqual({ result: {}, id: "0" })
  })
})

/** Every way a secret key could be written: hex (both cases), base64 (both alphabets), and the decimal list `Uint8Array#toString` gives. */
export const keyForms = (secretHex: string): Array<string> => {
  const bytes = Buffer.from(secretHex, "hex")
  return [
    secretHex,
    secretHex.toUpperCase(),
    bytes.toString("base64"),
    bytes.toString("base64url"),
    Array.from(bytes).join(","),
    Array.from(bytes.subarray(0, 8)).join(","),
  ]
}

describe("issue 13: SessionCrypto's decrypt error carries the secret key; none of it leaves the engine", () => {
  it("an undecryptable bridge message reaches no error, log or problem report with key material", async () => {
    const storage = new Map<string, string>()
    const problems: Array<string> = []
    const logged: Array<string> = []
    const spies = (["log", "info", "warn", "error", "debug", "trace"] as const).map((level) =>
      vi
        .spyOn(console, level)
        .mockImplementation(
          (...args: Array<unknown>) => void logged.push(args.map((a) => (a instanceof Error ? `${a.message} ${a.stack}` : String(a))).join(" ")),
        ),
    )
    const reported: Array<string> = []
    const report = (e: unknown) => void reported.push(e instanceof Error ? `${e.message} ${e.stack}` : String(e))
    process.on("unhandledRejection", report)
    process.on("uncaughtException", report)
    try {
      const t = setup({ storage: memoryStore(storage), onProblem: (m) => problems.push(m) })
      const session = await t.connect()
      const stored = JSON.parse([...storage.values()][0]!) as { sessions: Array<{ id: string; secretKey: string }> }
      const secret = stored.sessions.find((s) => s.id === session.id)!.secretKey
      // Tampered (box.open fails: the library's error lists the secret key), too short, not base64, foreign.
      const good = t.dapp.encrypt(JSON.stringify({ method: "signData", params: [], id: "1" }), Buffer.from(session.id, "hex"))
      good[good.length - 1]! ^= 1
      t.sendRaw(Base64.encode(good))
      t.sendRaw(Base64.encode(new Uint8Array(10)))
      t.sendRaw("%%%")
      t.sendRaw(Base64.encode(new SessionCrypto().encrypt("x", Buffer.from(session.id, "hex"))))
      await waitFor(() => (problems.filter((p) => /does not decrypt/.test(p)).length === 4 ? true : undefined), "four refusals")
      // The engine is still serving the session afterwards.
      t.send(session.id, { method: "signData", params: [JSON.stringify({ type: "text", text: "hi" })], id: "2" })
      await waitFor(() => (t.requests.length === 1 ? true : undefined), "the next request")
      const everything = [...problems, ...logged, ...reported].join("\n")
      for (const form of keyForms(secret)) expect(everything).not.toContain(form)
      expect(reported).toEqual([])
    } finally {
      process.off("unhandledRejection", report)
      process.off("uncaughtException", report)
      for (const spy of spies) spy.mockRestore()
    }
  })
})
