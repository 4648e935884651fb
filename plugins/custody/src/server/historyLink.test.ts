/**
 * Issue #15 case 5 (docs/decisions/0801): the sender's history row of a custody transfer keeps its
 * transfer link when the server stops between the transfer's Ledger hold and its rows, and when a
 * history read lands in that gap. The gap is reached through the `AfterTransferHolds` seam of
 * `createTransfers`: it dies (a crash: that server is then closed and a fresh one started on the
 * same database) or waits while the test reads the history.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { randomUUID } from "node:crypto"
import { Effect, Layer } from "effect"
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import { signInitData, startServer, type Db, type RunningServer, type ServerPlugin } from "@wallet/kernel-server"
import { startTestDatabase, testDatabases, type TestDatabase } from "@wallet/kernel-server/testing"
import { serverPlugin } from "./index.ts"
import { probePlugin } from "./testSupport.ts"
import { AfterTransferHolds } from "./transfers.ts"

vi.setConfig({ testTimeout: 60_000 })

const BOT_TOKEN = "1234567:history-link-test"
const clock = { now: Date.UTC(2026, 4, 6, 12, 0, 0) }
let nextId = 8_400_000_001

/** What the seam does for the next creation: nothing, die (a crash), or wait in the gap. */
let gap: Effect.Effect<void> = Effect.void
const seam = Effect.suspend(() => gap)

/** Custody with the seam between a creation's holds and its rows. */
const custodyWithSeam: ServerPlugin = {
  ...serverPlugin,
  handlers: Layer.provide(serverPlugin.handlers as Layer.Layer<unknown, unknown, unknown>, Layer.succeed(AfterTransferHolds, seam)),
}

interface Reply {
  readonly status: number
  readonly body: any
}

describe.each(testDatabases)("custody history link on %s (issue #15 case 5)", (kind) => {
  let database: TestDatabase
  let options: Db.DatabaseOptions
  let dataDir: string | undefined
  let server: RunningServer

  const start = () =>
    startServer({
      port: 0,
      database: options,
      botToken: BOT_TOKEN,
      now: () => clock.now,
      accessTokenTtlSeconds: 365 * 24 * 3600,
      plugins: [custodyWithSeam, probePlugin],
      pluginConfig: { custody: { rates: { seed: 7 } } },
    })

  beforeAll(async () => {
    database = await startTestDatabase(kind)
    // A PGlite server that stops must leave its data for the next one: a directory, not memory.
    dataDir = kind === "pglite" ? mkdtempSync(join(tmpdir(), "custody-history-link-")) : undefined
    options = dataDir === undefined ? database.options : { kind: "pglite", dataDir }
    server = await start()
  }, 120_000)

  afterAll(async () => {
    await server?.close()
    await database?.stop()
    if (dataDir !== undefined) rmSync(dataDir, { recursive: true, force: true })
  })

  const request = async (method: string, path: string, body?: unknown, token?: string): Promise<Reply> => {
    const response = await fetch(`${server.url}${path}`, {
      method,
      headers: { ...(token === undefined ? {} : { authorization: `Bearer ${token}` }), ...(body === undefined ? {} : { "content-type": "application/json" }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
    const text = await response.text()
    let parsed: unknown = text
    try {
      parsed = text === "" ? undefined : JSON.parse(text)
    } catch {
      // a text body
    }
    return { status: response.status, body: parsed }
  }

  /** Signs the user in on the current server (a fresh server after a "crash" needs a fresh sign-in). */
  const signIn = async (id: number) => {
    const initData = signInitData(
      { user: { id, first_name: "User", username: `user_${id}` }, authDate: new Date(clock.now), queryId: randomUUID(), chatType: "sender" },
      BOT_TOKEN,
    )
    const auth = await fetch(`${server.url}/api/auth/init`, { method: "POST", headers: { authorization: `tma ${initData}` } })
    expect(auth.status).toBe(200)
    const { access_token: token } = (await auth.json()) as { access_token: string }
    return {
      id,
      get: (path: string) => request("GET", path, undefined, token),
      post: (path: string, body?: unknown) => request("POST", path, body, token),
    }
  }
  type User = Awaited<ReturnType<typeof signIn>>

  const fund = async (user: User, amount: string) => {
    const reply = await request("POST", "/api/custody-probe/fund", { userId: user.id, currency: "TON", amount, key: `test:fund:${randomUUID()}` })
    expect(reply.status, JSON.stringify(reply.body)).toBe(200)
  }
  const balance = async (user: User) => (await request("GET", `/api/custody-probe/balance/${user.id}/TON`)).body as { available: string; held: string }
  const transferRows = async (user: User) => {
    const reply = await user.get("/api/custody/transactions")
    expect(reply.status, JSON.stringify(reply.body)).toBe(200)
    return (reply.body.items as Array<{ gateway: string; transferId: string | null; status: string; amount: string; type: string }>).filter(
      (item) => item.gateway === "tg_transfer",
    )
  }
  const sendBody = (receiver: User, key: string) => ({ idempotencyKey: key, receiverId: receiver.id, currency: "TON", amount: "1.5", comment: "in the gap" })

  /** The sender opens the transfer from the history row and cancels it; the money is back. */
  const openAndCancel = async (sender: User, receiver: User, transferId: string) => {
    const opened = await sender.get(`/api/custody/transfers/${transferId}`)
    expect(opened.status, JSON.stringify(opened.body)).toBe(200)
    expect(opened.body).toMatchObject({
      id: transferId,
      role: "sender",
      tg_transfer_status: "new",
      amount: "1.5",
      comment: "in the gap",
      receiver_id: receiver.id,
    })
    const canceled = await sender.post(`/api/custody/transfers/${transferId}/cancel`)
    expect(canceled.status, JSON.stringify(canceled.body)).toBe(200)
    expect(canceled.body.tg_transfer_status).toBe("canceled")
    expect(await balance(sender)).toEqual({ available: "10000000000", held: "0" })
    expect(await transferRows(sender)).toEqual([expect.objectContaining({ transferId, status: "canceled", type: "withdraw" })])
    expect(await transferRows(receiver)).toEqual([expect.objectContaining({ transferId, status: "canceled", type: "deposit" })])
    const audit = await request("GET", "/api/custody-probe/audit")
    expect(audit.body.ok, JSON.stringify(audit.body)).toBe(true)
  }

  it("case 5: the history link survives a crash between the hold and the rows", async () => {
    const aliceId = nextId++
    const bobId = nextId++
    let alice = await signIn(aliceId)
    let bob = await signIn(bobId)
    await fund(alice, "10")

    // The server stops after the hold, before the transfer row and the history rows.
    gap = Effect.die(new Error("test: the server stopped between the hold and the rows"))
    const crashed = await alice.post("/api/custody/transfers", sendBody(bob, randomUUID()))
    gap = Effect.void
    expect(crashed.status).toBeGreaterThanOrEqual(500)
    expect(await balance(alice)).toEqual({ available: "8500000000", held: "1500000000" })
    expect(await server.sql(`select count(*)::int as n from custody_transfers where sender_id = $1`, [aliceId])).toEqual([{ n: 0 }])
    await server.close()

    // A fresh server on the same database; the sender reads the history first (before any repair).
    server = await start()
    alice = await signIn(aliceId)
    bob = await signIn(bobId)
    const rows = await transferRows(alice)
    expect(rows).toEqual([expect.objectContaining({ type: "withdraw", status: "pending", amount: "1.5" })])
    expect(rows[0]!.transferId).toMatch(/^[1-9]\d*$/)
    // The receiver sees it too, and the minute repair finds nothing left to do.
    expect(await transferRows(bob)).toEqual([expect.objectContaining({ transferId: rows[0]!.transferId, status: "new", type: "deposit" })])
    expect((await request("POST", "/api/custody-probe/repair")).body).toEqual({ repaired: 0 })
    await openAndCancel(alice, bob, rows[0]!.transferId!)
  })

  it("case 5: a history read between the hold and the rows keeps the link, and the creation answers the same transfer", async () => {
    const alice = await signIn(nextId++)
    const bob = await signIn(nextId++)
    await fund(alice, "10")

    let reached!: () => void
    const inGap = new Promise<void>((resolve) => (reached = resolve))
    let release!: () => void
    const released = new Promise<void>((resolve) => (release = resolve))
    gap = Effect.andThen(
      Effect.sync(() => reached()),
      Effect.promise(() => released),
    )
    const key = randomUUID()
    const creating = alice.post("/api/custody/transfers", sendBody(bob, key))
    await inGap
    gap = Effect.void
    // The hold is placed, its rows are not written yet: the sender reads the history now.
    const during = await transferRows(alice)
    expect(during).toEqual([expect.objectContaining({ type: "withdraw", status: "pending", amount: "1.5" })])
    const transferId = during[0]!.transferId
    expect(transferId).toMatch(/^[1-9]\d*$/)
    expect((await alice.get(`/api/custody/transfers/${transferId}`)).status).toBe(200)
    release()

    const created = await creating
    expect(created.status, JSON.stringify(created.body)).toBe(200)
    expect(created.body).toMatchObject({ id: transferId, tg_transfer_status: "new" })
    // A retry of the creation answers the same transfer; still one row per side.
    const retried = await alice.post("/api/custody/transfers", sendBody(bob, key))
    expect(retried.body).toMatchObject({ id: transferId })
    expect(await transferRows(alice)).toEqual([expect.objectContaining({ transferId, status: "pending" })])
    await openAndCancel(alice, bob, transferId!)
  })
})
