import { Effect, Exit } from "effect"
import { describe, expect, it } from "vitest"
import { Chain, ChainError, makeChainClient } from "./index.ts"

interface Seen {
  url: string
  method: string
  headers: Record<string, string>
  body?: string
}

const fakeFetch = (respond: (url: URL, init: RequestInit) => { status: number; body: unknown }, seen: Seen[] = []) =>
  (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input))
    seen.push({
      url: url.toString(),
      method: init?.method ?? "GET",
      headers: (init?.headers ?? {}) as Record<string, string>,
      ...(typeof init?.body === "string" ? { body: init.body } : {}),
    })
    const r = respond(url, init ?? {})
    return new Response(r.body === undefined ? "" : JSON.stringify(r.body), { status: r.status, headers: { "content-type": "application/json" } })
  }) as typeof globalThis.fetch

const account = {
  address: "0:" + "ab".repeat(32),
  balance: 1_500_000_000,
  last_activity: 1,
  status: "active",
  get_methods: [],
  is_wallet: true,
  interfaces: ["wallet_v5r1"],
  extra_field: 1,
}

describe("Chain client", () => {
  it("decodes amounts to bigint and sends the API key as a bearer token", async () => {
    const seen: Seen[] = []
    const client = makeChainClient({ baseUrl: "https://tonapi.example/", apiKey: "k-1", fetch: fakeFetch(() => ({ status: 200, body: account }), seen) })
    const a = await Effect.runPromise(client.getAccount("EQabc"))
    expect(a.balance).toBe(1_500_000_000n)
    expect(a.status).toBe("active")
    expect(seen[0]!.url).toBe("https://tonapi.example/v2/accounts/EQabc")
    expect(seen[0]!.headers.authorization).toBe("Bearer k-1")
  })

  it("decodes extra-currency balances and ExtraCurrencyTransfer actions (issue 6: extra currencies)", async () => {
    const ec = { id: 100, symbol: "DXC", decimals: 4, image: "https://example/ec.png" }
    const withExtra = { ...account, extra_balance: [{ amount: "123450000000000000000", preview: ec }] }
    const event = {
      event_id: "e1",
      account: { address: account.address, is_scam: false, is_wallet: true },
      timestamp: 1,
      actions: [
        {
          type: "ExtraCurrencyTransfer",
          status: "ok",
          ExtraCurrencyTransfer: {
            sender: { address: "0:" + "cd".repeat(32), is_scam: false, is_wallet: true },
            recipient: { address: account.address, is_scam: false, is_wallet: true },
            amount: "25000",
            currency: ec,
          },
          simple_preview: { name: "Extra currency transfer", description: "", accounts: [] },
          base_transactions: [],
        },
      ],
      is_scam: false,
      lt: 1,
      in_progress: false,
      extra: 0,
    }
    const client = makeChainClient({
      baseUrl: "https://tonapi.example",
      fetch: fakeFetch((url) => ({ status: 200, body: url.pathname.endsWith("/events") ? { events: [event], next_from: 0 } : withExtra })),
    })
    const a = await Effect.runPromise(client.getAccount("EQabc"))
    expect(a.extra_balance).toEqual([{ amount: 123_450_000_000_000_000_000n, preview: ec }])
    const events = await Effect.runPromise(client.getEvents("EQabc", { limit: 10 }))
    expect(events.events[0]!.actions[0]!.ExtraCurrencyTransfer).toMatchObject({ amount: 25_000n, currency: { id: 100, symbol: "DXC", decimals: 4 } })
  })

  it("decodes string amounts beyond 2^53 exactly", async () => {
    const big = "123456789012345678901234"
    const client = makeChainClient({
      baseUrl: "http://x",
      fetch: fakeFetch(() => ({
        status: 200,
        body: {
          balance: big,
          wallet_address: { address: "0:1", is_scam: false, is_wallet: false },
          jetton: { address: "0:2", name: "T", symbol: "T", decimals: 6, image: "", verification: "whitelist", score: 0 },
        },
      })),
    })
    const b = await Effect.runPromise(client.getJettonBalance("a", "j"))
    expect(b.balance).toBe(BigInt(big))
  })

  it("puts paging and flags in the query string", async () => {
    const seen: Seen[] = []
    const client = makeChainClient({ baseUrl: "http://x", fetch: fakeFetch(() => ({ status: 200, body: { events: [], next_from: 0 } }), seen) })
    await Effect.runPromise(client.getEvents("0:1", { limit: 20, beforeLt: 77, subjectOnly: true }))
    const u = new URL(seen[0]!.url)
    expect(u.pathname).toBe("/v2/accounts/0%3A1/events")
    expect(u.searchParams.get("limit")).toBe("20")
    expect(u.searchParams.get("before_lt")).toBe("77")
    expect(u.searchParams.get("subject_only")).toBe("true")
  })

  it("maps an error status with tonapi's error body to ChainError", async () => {
    const client = makeChainClient({ baseUrl: "http://x", fetch: fakeFetch(() => ({ status: 400, body: { error: "duplicate message", error_code: 7 } })) })
    const exit = await Effect.runPromiseExit(client.sendBoc("te6"))
    expect(Exit.isFailure(exit)).toBe(true)
    const err = await Effect.runPromise(Effect.flip(client.sendBoc("te6")))
    expect(err).toBeInstanceOf(ChainError)
    expect(err.reason).toBe("Status")
    expect(err.status).toBe(400)
    expect(err.code).toBe(7)
    expect(err.message).toBe("duplicate message")
  })

  it("fails with reason Decode when the body does not match the schema", async () => {
    const client = makeChainClient({ baseUrl: "http://x", fetch: fakeFetch(() => ({ status: 200, body: { ...account, balance: "lots" } })) })
    const err = await Effect.runPromise(Effect.flip(client.getAccount("a")))
    expect(err.reason).toBe("Decode")
  })

  it("fails with reason Transport when fetch rejects", async () => {
    const client = makeChainClient({ baseUrl: "http://x", fetch: (async () => Promise.reject(new TypeError("connection refused"))) as typeof fetch })
    const err = await Effect.runPromise(Effect.flip(client.getSeqno("a")))
    expect(err.reason).toBe("Transport")
  })

  it("test layer answers the given methods and rejects the others", async () => {
    const layer = Chain.layerTest({ getSeqno: () => Effect.succeed(5) })
    const program = Effect.gen(function* () {
      const chain = yield* Chain
      const seqno = yield* chain.getSeqno("a")
      const other = yield* Effect.flip(chain.getAccount("a"))
      return { seqno, other }
    })
    const r = await Effect.runPromise(program.pipe(Effect.provide(layer)))
    expect(r.seqno).toBe(5)
    expect(r.other.reason).toBe("Unsupported")
  })
})
