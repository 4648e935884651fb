/**
 * The bridge served by the API server, driven with the real protocol: `SessionCrypto` from
 * @tonconnect/protocol on both ends. On PostgreSQL two servers share one database and every
 * message is posted to one and read from the other.
 */
import { Base64, hexToByteArray, SessionCrypto } from "@tonconnect/protocol"
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import { type RunningServer, startServer } from "../server.ts"
import { startTestDatabase, type TestDatabase, testDatabases } from "../testing/index.ts"
import { bridgeTrustedProxies, clientAddress } from "./Bridge.ts"
import { openSse, type SseConnection, type SseEvent } from "./sseClient.ts"
import { spawnChildServer } from "./spawnChild.ts"

interface Served {
  readonly url: string
}

const post = (server: Served, query: string, body: string) =>
  fetch(`${server.url}/bridge/message?${query}`, { method: "POST", body }).then(async (response) => ({
    status: response.status,
    body: (await response.json()) as { message: string; statusCode: number },
    headers: response.headers,
  }))

const send = async (server: Served, from: string, to: string, message: string, ttl = 300, topic?: string) => {
  const reply = await post(server, `client_id=${from}&to=${to}&ttl=${ttl}${topic === undefined ? "" : `&topic=${topic}`}`, message)
  expect(reply).toMatchObject({ status: 200, body: { statusCode: 200 } })
}

const parse = (event: SseEvent) => JSON.parse(event.data) as { from: string; message: string }
const randomId = () => new SessionCrypto().sessionId
const b64 = (text: string) => Buffer.from(text).toString("base64")

describe.each(testDatabases)("TonConnect bridge on %s", (kind) => {
  let database: TestDatabase
  /** `poster` takes posts; `reader` serves the event streams (another server on PostgreSQL). */
  let poster: RunningServer
  let reader: RunningServer
  let offset = 0
  const open: Array<SseConnection> = []
  const events = async (server: Served, ids: ReadonlyArray<string>, extra = "", headers?: Record<string, string>) => {
    const connection = await openSse(`${server.url}/bridge/events?client_id=${ids.join(",")}${extra}`, headers ? { headers } : {})
    open.push(connection)
    return connection
  }

  beforeAll(async () => {
    database = await startTestDatabase(kind)
    const options = {
      port: 0,
      database: database.options,
      botToken: "123:bridge-test",
      now: () => Date.now() + offset,
      pluginConfig: { bridge: { heartbeatMs: 60_000 } },
    }
    poster = await startServer(options)
    reader = kind === "postgres" ? await startServer(options) : poster
  }, 120_000)

  afterAll(async () => {
    for (const connection of open) connection.close()
    if (reader !== poster) await reader?.close()
    await poster?.close()
    await database?.stop()
  })

  it("carries SessionCrypto messages from the dApp to the wallet and back", async () => {
    const dapp = new SessionCrypto()
    const wallet = new SessionCrypto()
    const walletStream = await events(reader, [wallet.sessionId])
    const dappStream = await events(poster, [dapp.sessionId])
    expect(walletStream.status).toBe(200)
    expect(walletStream.headers.get("access-control-allow-origin")).toBe("*")

    const request = { method: "sendTransaction", params: [JSON.stringify({ valid_until: 1, messages: [] })], id: "1" }
    const sealed = Base64.encode(dapp.encrypt(JSON.stringify(request), hexToByteArray(wallet.sessionId)))
    await send(poster, dapp.sessionId, wallet.sessionId, sealed, 300, "sendTransaction")

    const received = await walletStream.next()
    const envelope = parse(received)
    expect(envelope.from).toBe(dapp.sessionId)
    expect(JSON.parse(wallet.decrypt(Base64.decode(envelope.message).toUint8Array(), hexToByteArray(envelope.from)))).toEqual(request)

    const response = { result: "te6cc...", id: "1" }
    const answer = Base64.encode(wallet.encrypt(JSON.stringify(response), hexToByteArray(envelope.from)))
    // The wallet answers through the other server.
    await send(reader, wallet.sessionId, dapp.sessionId, answer)
    const back = parse(await dappStream.next())
    expect(back.from).toBe(wallet.sessionId)
    expect(JSON.parse(dapp.decrypt(Base64.decode(back.message).toUint8Array(), hexToByteArray(wallet.sessionId)))).toEqual(response)
  })

  it("replays stored messages after last_event_id (query or header) with strictly increasing ids, for several client ids", async () => {
    const [x, y, sender] = [randomId(), randomId(), randomId()]
    for (const [to, text] of [
      [x, "one"],
      [y, "two"],
      [x, "three"],
    ] as const) {
      await send(poster, sender, to, b64(text))
    }
    const all = await events(reader, [x, y])
    const replayed = [await all.next(), await all.next(), await all.next()]
    expect(replayed.map((event) => Buffer.from(parse(event).message, "base64").toString())).toEqual(["one", "two", "three"])
    const ids = replayed.map((event) => Number(event.id))
    expect(ids[0]).toBeLessThan(ids[1]!)
    expect(ids[1]).toBeLessThan(ids[2]!)

    // Live: a message posted now comes after the replay, with a larger id.
    await send(poster, sender, y, b64("four"))
    const live = await all.next()
    expect(Buffer.from(parse(live).message, "base64").toString()).toBe("four")
    expect(Number(live.id)).toBeGreaterThan(ids[2]!)

    const afterFirst = await events(reader, [x, y], `&last_event_id=${ids[0]}`)
    expect(Buffer.from(parse(await afterFirst.next()).message, "base64").toString()).toBe("two")
    const afterSecond = await events(reader, [x.toUpperCase(), y], "", { "last-event-id": String(ids[1]) })
    expect(Buffer.from(parse(await afterSecond.next()).message, "base64").toString()).toBe("three")
    expect(Buffer.from(parse(await afterSecond.next()).message, "base64").toString()).toBe("four")
    // Nothing else is pending on a connection that only subscribed to y.
    const onlyY = await events(reader, [y], `&last_event_id=${ids[0]}`)
    expect(Buffer.from(parse(await onlyY.next()).message, "base64").toString()).toBe("two")
    await send(poster, sender, y, b64("marker"))
    expect(Buffer.from(parse(await onlyY.next()).message, "base64").toString()).toBe("four")
    expect(Buffer.from(parse(await onlyY.next()).message, "base64").toString()).toBe("marker")
  })

  it("passes a sender's trace_id on to the recipient and leaves it out otherwise", async () => {
    const [to, sender] = [randomId(), randomId()]
    const traced = await post(poster, `client_id=${sender}&to=${to}&ttl=60&trace_id=0198a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b`, b64("traced"))
    expect(traced.status).toBe(200)
    await send(poster, sender, to, b64("plain"))
    const stream = await events(reader, [to])
    expect(JSON.parse((await stream.next()).data)).toEqual({ from: sender, message: b64("traced"), trace_id: "0198a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b" })
    expect(JSON.parse((await stream.next()).data)).toEqual({ from: sender, message: b64("plain") })
    expect((await post(poster, `client_id=${sender}&to=${to}&ttl=60&trace_id=${"x".repeat(65)}`, b64("x"))).status).toBe(400)
  })

  it("keeps a message only until its ttl", async () => {
    const [to, sender] = [randomId(), randomId()]
    await send(poster, sender, to, b64("short"), 1)
    await send(poster, sender, to, b64("long"), 300)
    offset = 2_000
    try {
      const stream = await events(reader, [to])
      expect(Buffer.from(parse(await stream.next()).message, "base64").toString()).toBe("long")
      await send(poster, sender, to, b64("after"), 5)
      expect(Buffer.from(parse(await stream.next()).message, "base64").toString()).toBe("after")
      const stored = await poster.sql("select count(*)::int as n from bridge_messages where client_id = $1", [to])
      expect(stored[0]!.n).toBe(3)
    } finally {
      offset = 0
    }
  })

  it("answers 400 for a bad client id, recipient, ttl, topic, last event id or body", async () => {
    const [a, b] = [randomId(), randomId()]
    const cases: ReadonlyArray<[string, string, string]> = [
      [`client_id=abc&to=${b}&ttl=60`, b64("x"), "client_id"],
      [`to=${b}&ttl=60`, b64("x"), "client_id"],
      [`client_id=${a}&to=${b.slice(1)}g&ttl=60`, b64("x"), "to"],
      [`client_id=${a}&to=${b}`, b64("x"), "ttl"],
      [`client_id=${a}&to=${b}&ttl=0`, b64("x"), "ttl"],
      [`client_id=${a}&to=${b}&ttl=301`, b64("x"), "ttl"],
      [`client_id=${a}&to=${b}&ttl=1.5`, b64("x"), "ttl"],
      [`client_id=${a}&to=${b}&ttl=60&topic=${"t".repeat(65)}`, b64("x"), "topic"],
      [`client_id=${a}&to=${b}&ttl=60`, "not base64!", "base64"],
      [`client_id=${a}&to=${b}&ttl=60`, "", "base64"],
    ]
    for (const [query, body, mentions] of cases) {
      const reply = await post(poster, query, body)
      expect({ query, status: reply.status, statusCode: reply.body.statusCode }).toEqual({ query, status: 400, statusCode: 400 })
      expect(reply.body.message).toContain(mentions)
    }
    for (const extra of ["client_id=", `client_id=${a},xyz`, `client_id=${a}&last_event_id=-1`, `client_id=${a}&last_event_id=abc`]) {
      const response = await fetch(`${reader.url}/bridge/events?${extra}`)
      expect({ extra, status: response.status }).toEqual({ extra, status: 400 })
      expect(((await response.json()) as { statusCode: number }).statusCode).toBe(400)
    }
    const stored = await poster.sql("select count(*)::int as n from bridge_messages where client_id = $1", [b])
    expect(stored[0]!.n).toBe(0)
  })

  it.runIf(kind === "postgres")(
    "delivers across two server processes sharing the database",
    async () => {
      const child = await spawnChildServer((database.options as { url: string }).url)
      try {
        const dapp = new SessionCrypto()
        const wallet = new SessionCrypto()
        // The wallet listens on the other process; the dApp listens here.
        const walletStream = await events(child, [wallet.sessionId])
        const dappStream = await events(poster, [dapp.sessionId])
        const request = { method: "signData", params: [JSON.stringify({ type: "text", text: "hello" })], id: "7" }
        await send(poster, dapp.sessionId, wallet.sessionId, Base64.encode(dapp.encrypt(JSON.stringify(request), hexToByteArray(wallet.sessionId))))
        const envelope = parse(await walletStream.next())
        expect(JSON.parse(wallet.decrypt(Base64.decode(envelope.message).toUint8Array(), hexToByteArray(envelope.from)))).toEqual(request)
        const response = { result: { signature: "c2ln" }, id: "7" }
        await send(child, wallet.sessionId, dapp.sessionId, Base64.encode(wallet.encrypt(JSON.stringify(response), hexToByteArray(dapp.sessionId))))
        const back = parse(await dappStream.next())
        expect(JSON.parse(dapp.decrypt(Base64.decode(back.message).toUint8Array(), hexToByteArray(back.from)))).toEqual(response)
        walletStream.close()
      } finally {
        await child.stop()
      }
    },
    60_000,
  )

  it("answers a CORS preflight for dApp pages", async () => {
    const response = await fetch(`${poster.url}/bridge/message?client_id=x`, { method: "OPTIONS" })
    expect(response.status).toBe(204)
    expect(response.headers.get("access-control-allow-origin")).toBe("*")
    expect(response.headers.get("access-control-allow-methods")).toContain("POST")
  })
})

describe("TonConnect bridge limits", () => {
  let server: RunningServer
  const open: Array<SseConnection> = []

  beforeAll(async () => {
    server = await startServer({
      port: 0,
      database: { kind: "pglite" },
      botToken: "123:bridge-test",
      // eventsBurst above the connection limit: the third stream meets the connection limit, not the open rate.
      pluginConfig: { bridge: { maxConnectionsPerIp: 2, eventsBurst: 10, messagesBurst: 3, messagesPerSecond: 0.0001, maxBodyBytes: 100, heartbeatMs: 50 } },
    })
  }, 120_000)
  afterAll(async () => {
    for (const connection of open) connection.close()
    await server?.close()
  })

  it("refuses a body over the limit with 413 and posts beyond the rate with 429", async () => {
    const [a, b] = [randomId(), randomId()]
    const big = await post(server, `client_id=${a}&to=${b}&ttl=60`, b64("x".repeat(200)))
    expect(big.status).toBe(413)
    expect((await post(server, `client_id=${a}&to=${b}&ttl=60`, b64("1"))).status).toBe(200)
    expect((await post(server, `client_id=${a}&to=${b}&ttl=60`, b64("2"))).status).toBe(200)
    const limited = await post(server, `client_id=${a}&to=${b}&ttl=60`, b64("3"))
    expect(limited).toMatchObject({ status: 429, body: { statusCode: 429 } })
    const stored = await server.sql("select count(*)::int as n from bridge_messages where client_id = $1", [b])
    expect(stored[0]!.n).toBe(2)
  })

  it("limits open event streams per address and frees a slot when a stream closes; sends heartbeats", async () => {
    const first = await openSse(`${server.url}/bridge/events?client_id=${randomId()}`)
    const second = await openSse(`${server.url}/bridge/events?client_id=${randomId()}`)
    open.push(first, second)
    expect([first.status, second.status]).toEqual([200, 200])
    expect((await first.next({ includeHeartbeats: true })).event).toBe("heartbeat")
    const third = await openSse(`${server.url}/bridge/events?client_id=${randomId()}`)
    expect(third.status).toBe(429)
    expect(JSON.parse(third.errorBody!)).toMatchObject({ statusCode: 429 })
    first.close()
    await vi.waitFor(
      async () => {
        const again = await openSse(`${server.url}/bridge/events?client_id=${randomId()}`)
        open.push(again)
        expect(again.status).toBe(200)
      },
      { timeout: 10_000, interval: 100 },
    )
  })
})

describe("TonConnect bridge stream-open rate and expired rows", () => {
  let server: RunningServer
  beforeAll(async () => {
    server = await startServer({
      port: 0,
      database: { kind: "pglite" },
      botToken: "123:bridge-test",
      pluginConfig: { bridge: { maxConnectionsPerIp: 10, eventsBurst: 2, eventsPerSecond: 0.0001, cleanupMs: 50, heartbeatMs: 60_000 } },
    })
  }, 120_000)
  afterAll(async () => {
    await server?.close()
  })

  it("answers 429 to a client that reopens event streams faster than the rate, with connections to spare", async () => {
    for (let i = 0; i < 2; i++) {
      const stream = await openSse(`${server.url}/bridge/events?client_id=${randomId()}`)
      expect(stream.status).toBe(200)
      stream.close()
    }
    const refused = await openSse(`${server.url}/bridge/events?client_id=${randomId()}`)
    expect(refused.status).toBe(429)
    expect(JSON.parse(refused.errorBody!)).toMatchObject({ statusCode: 429, message: "too many requests" })
    // A bad request is answered 400 before it costs a token.
    expect((await fetch(`${server.url}/bridge/events?client_id=nope`)).status).toBe(400)
  })

  it("deletes a message's row once its ttl has passed", async () => {
    const [to, sender] = [randomId(), randomId()]
    await send(server, sender, to, b64("short"), 1)
    await send(server, sender, to, b64("long"), 300)
    const count = async () => (await server.sql("select count(*)::int as n from bridge_messages where client_id = $1", [to]))[0]!.n
    expect(await count()).toBe(2)
    await vi.waitFor(async () => expect(await count()).toBe(1), { timeout: 10_000, interval: 100 })
    const rows = await server.sql("select message from bridge_messages where client_id = $1", [to])
    expect(rows[0]!.message).toBe(b64("long"))
  })
})

describe("TonConnect bridge behind a trusted proxy", () => {
  it("counts limits against the forwarded client address only when the peer is a trusted proxy", () => {
    const trusted = bridgeTrustedProxies({ bridge: { trustedProxies: ["127.0.0.1", "10.0.0.2", 7] } })
    expect([...trusted]).toEqual(["127.0.0.1", "10.0.0.2"])
    // A client that is not a proxy cannot choose its address.
    expect(clientAddress("203.0.113.9", "198.51.100.1", trusted)).toBe("203.0.113.9")
    // From a trusted proxy: the right-most hop that is not a trusted proxy; hops the client wrote are ignored.
    expect(clientAddress("::ffff:127.0.0.1", "198.51.100.1", trusted)).toBe("198.51.100.1")
    expect(clientAddress("127.0.0.1", "6.6.6.6, 198.51.100.1, 10.0.0.2", trusted)).toBe("198.51.100.1")
    expect(clientAddress("127.0.0.1", undefined, trusted)).toBe("127.0.0.1")
    expect(clientAddress("127.0.0.1", " , ", trusted)).toBe("127.0.0.1")
    expect(clientAddress("127.0.0.1", "10.0.0.2", trusted)).toBe("10.0.0.2")
    expect(bridgeTrustedProxies({}).size).toBe(0)
  })

  it("gives each client a trusted proxy forwards its own connection allowance", async () => {
    const trusting = await startServer({
      port: 0,
      database: { kind: "pglite" },
      botToken: "123:bridge-test",
      pluginConfig: { bridge: { maxConnectionsPerIp: 1, heartbeatMs: 60_000, trustedProxies: ["127.0.0.1", "::1"] } },
    })
    const opened: Array<SseConnection> = []
    const stream = async (forwarded: string) => {
      const connection = await openSse(`${trusting.url}/bridge/events?client_id=${randomId()}`, { headers: { "x-forwarded-for": forwarded } })
      opened.push(connection)
      return connection.status
    }
    try {
      expect(await stream("198.51.100.1")).toBe(200)
      expect(await stream("198.51.100.2")).toBe(200)
      expect(await stream("198.51.100.1")).toBe(429)
    } finally {
      for (const connection of opened) connection.close()
      await trusting.close()
    }
  }, 60_000)
})

describe("TonConnect bridge on shutdown", () => {
  it("ends open event streams when the server closes instead of holding the close open", async () => {
    const server = await startServer({ port: 0, database: { kind: "pglite" }, botToken: "123:bridge-test" })
    const stream = await openSse(`${server.url}/bridge/events?client_id=${randomId()}`)
    expect((await stream.next({ includeHeartbeats: true })).event).toBe("heartbeat")
    // Without the bridge ending its streams, close() waits out the server's 20 s grace period.
    await server.close()
    await expect(stream.next()).rejects.toThrow()
  }, 15_000)
})
