/**
 * Issue #15 case 5 (docs/decisions/0801, 0407): a creation is one transaction (the hold and its rows
 * commit together: a failure in the rows leaves no hold), and a hold that a server before decision 0407
 * left without its rows (it stopped in between; the probe places such an orphan) gets its rows, linked,
 * on the sender's first history read or on a retry of the creation.
 */
import { randomUUID } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import { signInitData, startServer, type Db, type RunningServer } from "@wallet/kernel-server"
import { startTestDatabase, testDatabases, type TestDatabase } from "@wallet/kernel-server/testing"
import { serverPlugin } from "./index.ts"
import { probePlugin } from "./testSupport.ts"

vi.setConfig({ testTimeout: 60_000 })

const BOT_TOKEN = "1234567:history-link-test"
const clock = { now: Date.UTC(2026, 4, 6, 12, 0, 0) }
let nextId = 8_400_000_001

interface Reply {
  readonly status: number
  readonly body: any
}

describe.each(testDatabases)("custody history link on %s (issue #15 case 5)", (kind) => {
  let database: TestDatabase
  let options: Db.DatabaseOptions
  let server: RunningServer

  const start = () =>
    startServer({
      port: 0,
      database: options,
      botToken: BOT_TOKEN,
      now: () => clock.now,
      accessTokenTtlSeconds: 365 * 24 * 3600,
      plugins: [serverPlugin, probePlugin],
      pluginConfig: { custody: { rates: { seed: 7 } } },
    })

  beforeAll(async () => {
    database = await startTestDatabase(kind)
    options = database.options
    server = await start()
  }, 120_000)

  afterAll(async () => {
    await server?.close()
    await database?.stop()
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

  /** A hold as a server before decision 0407 left it when it stopped before the transfer's rows. */
  const orphan = async (sender: User, receiver: User, key: string) => {
    const reply = await request("POST", "/api/custody-probe/orphan-transfer", {
      senderId: sender.id,
      receiverId: receiver.id,
      currency: "TON",
      amount: "1.5",
      comment: "in the gap",
      idempotencyKey: key,
    })
    expect(reply.status, JSON.stringify(reply.body)).toBe(200)
    expect(await balance(sender)).toEqual({ available: "8500000000", held: "1500000000" })
    expect(await server.sql(`select count(*)::int as n from custody_transfers where sender_id = $1`, [sender.id])).toEqual([{ n: 0 }])
  }

  it("a creation is one transaction: when its rows fail, no hold is left and the money stays available", async () => {
    const alice = await signIn(nextId++)
    const bob = await signIn(nextId++)
    await fund(alice, "10")
    // The transfer rows' insert fails (as a full disk or a bug would) for one comment.
    await server.sql(`create or replace function custody_test_refuse() returns trigger language plpgsql as $$
      begin if new.comment = 'refuse me' then raise exception 'test: the rows cannot be written'; end if; return new; end $$`)
    await server.sql(`create trigger custody_test_refuse before insert on custody_transfers for each row execute function custody_test_refuse()`)
    try {
      const key = randomUUID()
      const [refused, fine] = await Promise.all([
        alice.post("/api/custody/transfers", { ...sendBody(bob, key), comment: "refuse me" }),
        alice.post("/api/custody/transfers", { ...sendBody(bob, randomUUID()), amount: "2" }),
      ])
      expect(refused.status).toBeGreaterThanOrEqual(500)
      expect(fine.status, JSON.stringify(fine.body)).toBe(200)
      // Only the other transfer moved money; the refused one left no hold and no rows.
      expect(await balance(alice)).toEqual({ available: "8000000000", held: "2000000000" })
      expect(await transferRows(alice)).toEqual([expect.objectContaining({ amount: "2", status: "pending", transferId: fine.body.id })])
      expect((await request("GET", "/api/custody-probe/audit")).body.ok).toBe(true)
    } finally {
      await server.sql(`drop trigger custody_test_refuse on custody_transfers`)
    }
  })

  it("case 5: a hold left without its rows gets them, linked, on the sender's first history read", async () => {
    const alice = await signIn(nextId++)
    const bob = await signIn(nextId++)
    await fund(alice, "10")
    await orphan(alice, bob, randomUUID())

    const rows = await transferRows(alice)
    expect(rows).toEqual([expect.objectContaining({ type: "withdraw", status: "pending", amount: "1.5" })])
    expect(rows[0]!.transferId).toMatch(/^[1-9]\d*$/)
    // The receiver sees it too, and the minute repair finds nothing left to do.
    expect(await transferRows(bob)).toEqual([expect.objectContaining({ transferId: rows[0]!.transferId, status: "new", type: "deposit" })])
    expect((await request("POST", "/api/custody-probe/repair")).body).toEqual({ repaired: 0 })
    await openAndCancel(alice, bob, rows[0]!.transferId!)
  })

  it("case 5: a retried creation of a hold left without its rows answers the transfer, with one row per side", async () => {
    const alice = await signIn(nextId++)
    const bob = await signIn(nextId++)
    await fund(alice, "10")
    const key = randomUUID()
    await orphan(alice, bob, key)

    const retried = await alice.post("/api/custody/transfers", sendBody(bob, key))
    expect(retried.status, JSON.stringify(retried.body)).toBe(200)
    expect(retried.body).toMatchObject({ tg_transfer_status: "new", amount: "1.5", comment: "in the gap" })
    const again = await alice.post("/api/custody/transfers", sendBody(bob, key))
    expect(again.body).toMatchObject({ id: retried.body.id })
    expect(await transferRows(alice)).toEqual([expect.objectContaining({ transferId: retried.body.id, status: "pending" })])
    await openAndCancel(alice, bob, retried.body.id)
  })
})
