import { randomUUID } from "node:crypto"
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest"
import { signInitData, startServer, type RunningServer } from "@wallet/kernel-server"
import { startTestDatabase, testDatabases, type TestDatabase } from "@wallet/kernel-server/testing"
import { currencyInfo, parseAmount } from "../currencies.ts"
import { serverPlugin } from "./index.ts"
import { probePlugin } from "./testSupport.ts"

// Each scenario makes tens of requests; a loaded 2-core CI needs more than the default 5 s.
vi.setConfig({ testTimeout: 30_000 })

const BOT_TOKEN = "1234567:custody-test"
const DAY = 24 * 3_600_000
const clock = { now: Date.UTC(2026, 4, 6, 12, 0, 0) }

interface Reply {
  readonly status: number
  readonly body: any
}

let nextId = 8_100_000_001

describe.each(testDatabases)("custody server on %s", (kind) => {
  let database: TestDatabase
  let server: RunningServer

  beforeAll(async () => {
    database = await startTestDatabase(kind)
    server = await startServer({
      port: 0,
      database: database.options,
      botToken: BOT_TOKEN,
      now: () => clock.now,
      accessTokenTtlSeconds: 365 * 24 * 3600,
      plugins: [serverPlugin, probePlugin],
      pluginConfig: { custody: { rates: { seed: 7 } } },
    })
  }, 90_000)

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
    return { status: response.status, body: text === "" ? undefined : JSON.parse(text) }
  }

  const signIn = async (name = "User") => {
    const id = nextId++
    const username = `${name.toLowerCase()}_${id}`
    const initData = signInitData(
      {
        user: { id, first_name: name, last_name: "Test", username, language_code: "en" },
        authDate: new Date(clock.now),
        queryId: randomUUID(),
        chatType: "sender",
      },
      BOT_TOKEN,
    )
    const auth = await fetch(`${server.url}/api/auth/init`, { method: "POST", headers: { authorization: `tma ${initData}` } })
    expect(auth.status).toBe(200)
    const { access_token: token } = (await auth.json()) as { access_token: string }
    return {
      id,
      username,
      get: (path: string) => request("GET", path, undefined, token),
      post: (path: string, body?: unknown) => request("POST", path, body, token),
      put: (path: string, body?: unknown) => request("PUT", path, body, token),
    }
  }
  type User = Awaited<ReturnType<typeof signIn>>

  const fund = async (user: User, currency: string, amount: string) => {
    const reply = await request("POST", "/api/custody-probe/fund", { userId: user.id, currency, amount, key: `test:fund:${randomUUID()}` })
    expect(reply.status, JSON.stringify(reply.body)).toBe(200)
  }
  const balance = async (user: User, currency: string) =>
    (await request("GET", `/api/custody-probe/balance/${user.id}/${currency}`)).body as { available: string; held: string }
  const send = (from: User, to: User, amount: string, options: { currency?: string; key?: string; comment?: string } = {}) =>
    from.post("/api/custody/transfers", {
      idempotencyKey: options.key ?? randomUUID(),
      receiverId: to.id,
      currency: options.currency ?? "TON",
      amount,
      ...(options.comment !== undefined ? { comment: options.comment } : {}),
    })
  const ton = (amount: string) => parseAmount(amount, 9)!.toString()

  afterEach(async () => {
    // The Ledger's invariants hold after every scenario.
    const audit = await request("GET", "/api/custody-probe/audit")
    expect(audit.body).toEqual({ ok: true, violations: [] })
  })

  describe("accounts data", () => {
    it("values Ledger balances with the rates, sums the totals exactly and flags pinned and new assets", async () => {
      const user = await signIn()
      const empty = await user.get("/api/custody/accounts")
      expect(empty.status).toBe(200)
      expect(empty.body.availableBalanceTotalFiatAmount).toBe("0.00")
      expect(empty.body.availableBalanceTotalFiatCurrency).toBe("USD")
      expect(empty.body.assets.every((asset: any) => asset.balance === "0" && asset.isCreated === false)).toBe(true)

      await fund(user, "TON", "12.345678901")
      await fund(user, "USDT", "5.5")
      const data = (await user.get("/api/custody/accounts")).body
      const byCode = new Map<string, any>(data.assets.map((asset: any) => [asset.currency, asset]))
      const tonAsset = byCode.get("TON")
      expect(tonAsset.balance).toBe("12.345678901")
      expect(tonAsset.isCreated).toBe(true)
      // fiatBalance = balance x rate, rounded half up to cents, computed here independently.
      const cents = (amount: string, decimals: number, rate: string) => {
        const units = parseAmount(amount, decimals)!
        const price = parseAmount(rate, 12)!
        const den = 10n ** BigInt(decimals) * 10n ** 12n
        return (units * price * 100n + den / 2n) / den
      }
      const tonCents = cents("12.345678901", 9, tonAsset.rate)
      const usdtCents = cents("5.5", 6, byCode.get("USDT").rate)
      expect(tonAsset.usdBalance).toBe(`${tonCents / 100n}.${(tonCents % 100n).toString().padStart(2, "0")}`)
      const total = tonCents + usdtCents
      expect(data.availableBalanceTotalUsdAmount).toBe(`${total / 100n}.${(total % 100n).toString().padStart(2, "0")}`)
      expect(data.availableBalanceTotalFiatAmount).toBe(data.availableBalanceTotalUsdAmount)
      // Sorting inputs of spec 1 §5.
      expect(tonAsset.isAlwaysOnMain).toBe(true)
      expect(byCode.get("USDT").isAlwaysOnMain).toBe(true)
      expect(byCode.get("BTC").isPinnedWithoutBalance).toBe(true)
      expect(byCode.get("NOT").isAlwaysOnMain).toBe(false)
      expect(byCode.get("TSLAx").category).toBe("stock")
      // 24h change is consistent with the rate: percent = absoluteChange / (rate - absoluteChange).
      const rate = Number(tonAsset.rate)
      const change = Number(tonAsset.absoluteChange)
      expect(tonAsset.percentChange).toBeCloseTo((change / (rate - change)) * 100, 1)
      expect(data.accessFlags.accessToWithdraws).toBe(true)

      // Another fiat: same balances, other prices.
      const eur = (await user.get("/api/custody/accounts?fiatCurrency=EUR")).body
      expect(eur.availableBalanceTotalFiatCurrency).toBe("EUR")
      expect(eur.availableBalanceTotalUsdAmount).toBe(data.availableBalanceTotalUsdAmount)
      expect(eur.availableBalanceTotalFiatAmount).not.toBe(data.availableBalanceTotalFiatAmount)
      const bad = await user.get("/api/custody/accounts?fiatCurrency=ZZZ")
      expect(bad.status).toBe(400)
      expect(bad.body.code).toBe("unsupported_fiat")
    })

    it("lists the deposit addresses the chain half created under every asset of that network", async () => {
      const user = await signIn()
      // As the chain half's get-or-create stores it (its own tests cover the derivation).
      const address = `UQtest${user.id}`
      await server.sql("insert into custody_chain_addresses (user_id, network, address, canonical) values ($1, 'ton', $2, $2)", [user.id, address])
      const assets = new Map<string, any>(((await user.get("/api/custody/accounts")).body.assets as Array<any>).map((asset) => [asset.currency, asset]))
      expect(assets.get("TON").addresses).toEqual([{ address, networkCode: "ton", walletToReplace: null }])
      expect(assets.get("USDT").addresses).toEqual([{ address, networkCode: "ton", walletToReplace: null }])
      expect(assets.get("BTC").addresses).toEqual([])
    })

    it("shows the new badge until the currency is seen or held", async () => {
      const user = await signIn()
      const isNew = async (code: string) =>
        ((await user.get("/api/custody/accounts")).body.assets as Array<any>).find((asset) => asset.currency === code).isNewCurrency
      expect(await isNew("MAJOR")).toBe(true)
      expect(await isNew("CATI")).toBe(true)
      expect(await isNew("TON")).toBe(false)
      expect((await user.post("/api/custody/accounts/new-currency-seen?currency=MAJOR")).status).toBe(204)
      expect(await isNew("MAJOR")).toBe(false)
      await fund(user, "CATI", "1")
      expect(await isNew("CATI")).toBe(false)
      expect((await user.post("/api/custody/accounts/new-currency-seen?currency=NOPE")).status).toBe(404)
    })

    it("lists frozen balances with reason and fiat amount, kept out of the available balance", async () => {
      const user = await signIn()
      await fund(user, "USDT", "100")
      const frozen = await request("POST", "/api/custody-probe/freeze", {
        userId: user.id,
        currency: "USDT",
        amount: "40",
        reason: "FR_3",
        key: `test:freeze:${user.id}`,
      })
      expect(frozen.status).toBe(200)
      const list = (await user.get("/api/custody/frozen-balances")).body
      expect(list.items).toHaveLength(1)
      expect(list.items[0]).toMatchObject({ reason: "FR_3", currency: "USDT", amount: "40", fiatCurrency: "USD" })
      expect(list.items[0].fiat_amount).toMatch(/^(39|40)\.\d\d$/)
      const usdt = ((await user.get("/api/custody/accounts")).body.assets as Array<any>).find((asset) => asset.currency === "USDT")
      expect(usdt.balance).toBe("60")
      expect(await balance(user, "USDT")).toEqual({ available: "60000000", held: "40000000" })
    })
  })

  describe("asset facts", () => {
    it("values the market cap as the circulating supply at the rate, and describes the asset in the user's language", async () => {
      const user = await signIn()
      const assetOf = async (code: string) => ((await user.get("/api/custody/accounts")).body.assets as Array<any>).find((asset) => asset.currency === code)
      const tonAsset = await assetOf("TON")
      const supply = currencyInfo("TON")!.circulatingSupply!
      // rate has 12 decimals at most: supply x rate in cents, rounded half up, computed here independently.
      const [whole, fraction = ""] = (tonAsset.rate as string).split(".")
      const scaled = BigInt(whole + fraction.padEnd(12, "0"))
      const cents = (supply * scaled * 100n + 5n * 10n ** 11n) / 10n ** 12n
      expect(tonAsset.marketCap).toBe(`${cents / 100n}.${(cents % 100n).toString().padStart(2, "0")}`)
      expect(tonAsset.description).toMatch(/^Toncoin is the native currency/)
      // No supply figure: no market cap.
      expect((await assetOf("TSLAx")).marketCap).toBeNull()

      expect((await user.post("/api/profile/language", { language: "ru" })).status).toBe(200)
      expect((await assetOf("TON")).description).toMatch(/^Toncoin — собственная валюта/)
    })
  })

  describe("transfers to a Telegram user", () => {
    it("holds on create, posts on approve, and answers a repeated approve without moving money twice", async () => {
      const alice = await signIn("Alice")
      const bob = await signIn("Bob")
      await fund(alice, "TON", "10")
      const created = await send(alice, bob, "2.5", { comment: "lunch" })
      expect(created.status, JSON.stringify(created.body)).toBe(200)
      expect(created.body).toMatchObject({
        amount: "2.5",
        currency: "TON",
        tg_transfer_status: "new",
        status: "pending",
        role: "sender",
        receiver_id: bob.id,
        comment: "lunch",
      })
      expect(await balance(alice, "TON")).toEqual({ available: ton("7.5"), held: ton("2.5") })

      const incoming = (await bob.get("/api/custody/transfers?tg_transfer_status=new")).body.items
      expect(incoming.map((item: any) => item.id)).toEqual([created.body.id])
      expect(incoming[0]).toMatchObject({ role: "receiver", sender_username: alice.username, sender_name: "Alice Test" })

      const approved = await bob.post(`/api/custody/transfers/${created.body.id}/approve`)
      expect(approved.status).toBe(200)
      expect(approved.body).toMatchObject({ tg_transfer_status: "accepted", status: "accepted", role: "receiver" })
      expect(await balance(bob, "TON")).toEqual({ available: ton("2.5"), held: "0" })
      expect(await balance(alice, "TON")).toEqual({ available: ton("7.5"), held: "0" })

      const again = await bob.post(`/api/custody/transfers/${created.body.id}/approve`)
      expect(again.status).toBe(200)
      expect(again.body.tg_transfer_status).toBe("accepted")
      expect(await balance(bob, "TON")).toEqual({ available: ton("2.5"), held: "0" })

      const lateCancel = await alice.post(`/api/custody/transfers/${created.body.id}/cancel`)
      expect(lateCancel.status).toBe(409)
      expect(lateCancel.body).toMatchObject({ code: "transfer_not_pending", tgTransferStatus: "accepted" })
      expect((await bob.get("/api/custody/transfers?tg_transfer_status=new")).body.items).toEqual([])

      // Both sides' history rows followed.
      const aliceRow = (await alice.get("/api/custody/transactions?currency=TON")).body.items.find((row: any) => row.gateway === "tg_transfer")
      expect(aliceRow).toMatchObject({ type: "withdraw", status: "success", amount: "2.5", userId: bob.id, name: "Bob Test", transferId: created.body.id })
      const bobRow = (await bob.get("/api/custody/transactions")).body.items[0]
      expect(bobRow).toMatchObject({ type: "deposit", status: "success", gateway: "tg_transfer", userId: alice.id })
    })

    it("returns the money on cancel and refuses the wrong role and late approvals", async () => {
      const alice = await signIn("Alice")
      const bob = await signIn("Bob")
      const eve = await signIn("Eve")
      await fund(alice, "USDT", "30")
      const created = (await send(alice, bob, "12.75", { currency: "USDT" })).body
      const bySender = await alice.post(`/api/custody/transfers/${created.id}/approve`)
      expect(bySender.status).toBe(403)
      expect(bySender.body.code).toBe("wrong_transfer_role")
      const byReceiver = await bob.post(`/api/custody/transfers/${created.id}/cancel`)
      expect(byReceiver.status).toBe(403)
      expect((await eve.get(`/api/custody/transfers/${created.id}`)).status).toBe(404)
      expect((await eve.post(`/api/custody/transfers/${created.id}/approve`)).status).toBe(404)

      const canceled = await alice.post(`/api/custody/transfers/${created.id}/cancel`)
      expect(canceled.status).toBe(200)
      expect(canceled.body).toMatchObject({ tg_transfer_status: "canceled", status: "rejected" })
      expect(await balance(alice, "USDT")).toEqual({ available: "30000000", held: "0" })
      const late = await bob.post(`/api/custody/transfers/${created.id}/approve`)
      expect(late.status).toBe(409)
      expect(late.body.tgTransferStatus).toBe("canceled")
      expect(await balance(bob, "USDT")).toEqual({ available: "0", held: "0" })
      expect((await bob.get(`/api/custody/transfers/${created.id}`)).body).toMatchObject({ role: "receiver", tg_transfer_status: "canceled" })
      const rows = (await alice.get("/api/custody/transactions?currency=USDT")).body.items
      expect(rows.find((row: any) => row.gateway === "tg_transfer").status).toBe("canceled")
    })

    it("expires after 14 days back to the sender", async () => {
      const alice = await signIn("Alice")
      const bob = await signIn("Bob")
      await fund(alice, "TON", "3")
      const swept = (await send(alice, bob, "1")).body
      const lazy = (await send(alice, bob, "0.5")).body
      expect(swept.expires_at).toBe(new Date(clock.now + 14 * DAY).toISOString())
      clock.now += 14 * DAY - 1000
      expect((await request("POST", "/api/custody-probe/expire")).body.transfers).toBe(0)
      clock.now += 2000
      const expired = await request("POST", "/api/custody-probe/expire")
      expect(expired.body.transfers + expired.body.holds).toBeGreaterThanOrEqual(1)
      const after = (await alice.get(`/api/custody/transfers/${swept.id}`)).body
      expect(after).toMatchObject({ tg_transfer_status: "expired", status: "failed" })
      // Read after expiry without the sweep: expired on access.
      expect((await bob.get(`/api/custody/transfers/${lazy.id}`)).body.tg_transfer_status).toBe("expired")
      const approve = await bob.post(`/api/custody/transfers/${lazy.id}/approve`)
      expect(approve.status).toBe(409)
      expect(approve.body.tgTransferStatus).toBe("expired")
      expect(await balance(alice, "TON")).toEqual({ available: ton("3"), held: "0" })
      expect(await balance(bob, "TON")).toEqual({ available: "0", held: "0" })
    })

    it("lets exactly one of concurrent approve and cancel win, and the other answer what it became", async () => {
      const alice = await signIn("Alice")
      const bob = await signIn("Bob")
      await fund(alice, "TON", "10")
      for (let round = 0; round < 4; round++) {
        const created = (await send(alice, bob, "1")).body
        const [approve, cancel] = await Promise.all([
          bob.post(`/api/custody/transfers/${created.id}/approve`),
          alice.post(`/api/custody/transfers/${created.id}/cancel`),
        ])
        const winners = [approve, cancel].filter((reply) => reply.status === 200)
        expect(winners).toHaveLength(1)
        const loser = [approve, cancel].find((reply) => reply.status !== 200)!
        expect(loser.status).toBe(409)
        expect(loser.body.tgTransferStatus).toBe(winners[0]!.body.tg_transfer_status)
        expect((await alice.get(`/api/custody/transfers/${created.id}`)).body.tg_transfer_status).toBe(winners[0]!.body.tg_transfer_status)
      }
      const accepted = BigInt((await balance(bob, "TON")).available)
      expect(BigInt((await balance(alice, "TON")).available) + accepted).toBe(BigInt(ton("10")))
      expect((await balance(alice, "TON")).held).toBe("0")
    })

    it("rebuilds the rows of a hold whose request stopped before writing them", async () => {
      const alice = await signIn("Alice")
      const bob = await signIn("Bob")
      await fund(alice, "TON", "2")
      const created = (await send(alice, bob, "0.75", { comment: "crash" })).body
      // As if the process had stopped right after the Ledger hold.
      await server.sql("delete from custody_transactions where transfer_id = $1", [created.id])
      await server.sql("delete from custody_transfers where id = $1", [created.id])
      expect((await bob.get("/api/custody/transfers?tg_transfer_status=new")).body.items).toEqual([])
      expect((await request("POST", "/api/custody-probe/repair")).body.repaired).toBe(1)
      expect((await request("POST", "/api/custody-probe/repair")).body.repaired).toBe(0)
      const incoming = (await bob.get("/api/custody/transfers?tg_transfer_status=new")).body.items
      expect(incoming).toHaveLength(1)
      expect(incoming[0]).toMatchObject({ amount: "0.75", comment: "crash", sender_id: alice.id, tg_transfer_status: "new" })
      expect((await bob.post(`/api/custody/transfers/${incoming[0].id}/approve`)).status).toBe(200)
      expect(await balance(bob, "TON")).toEqual({ available: ton("0.75"), held: "0" })
      expect((await alice.get("/api/custody/transactions")).body.items.find((row: any) => row.gateway === "tg_transfer").status).toBe("success")
    })

    it("answers a retry with the first transfer and refuses the key with another body", async () => {
      const alice = await signIn("Alice")
      const bob = await signIn("Bob")
      await fund(alice, "TON", "5")
      const key = randomUUID()
      const replies = await Promise.all(Array.from({ length: 5 }, () => send(alice, bob, "1.2", { key })))
      expect(replies.map((reply) => reply.status)).toEqual([200, 200, 200, 200, 200])
      expect(new Set(replies.map((reply) => reply.body.id)).size).toBe(1)
      expect(await balance(alice, "TON")).toEqual({ available: ton("3.8"), held: ton("1.2") })
      const conflict = await send(alice, bob, "1.3", { key })
      expect(conflict.status).toBe(409)
      expect(conflict.body.code).toBe("idempotency_conflict")
      expect((await bob.get("/api/custody/transfers?tg_transfer_status=new")).body.items).toHaveLength(1)
    })

    it("refuses insufficient funds without storing anything, so the same key works once funded", async () => {
      const alice = await signIn("Alice")
      const bob = await signIn("Bob")
      await fund(alice, "TON", "1")
      const key = randomUUID()
      const short = await send(alice, bob, "2", { key })
      expect(short.status).toBe(409)
      expect(short.body).toMatchObject({ code: "insufficient_funds", available: "1" })
      expect((await alice.get("/api/custody/transactions")).body.items).toHaveLength(1)
      await fund(alice, "TON", "1")
      expect((await send(alice, bob, "2", { key })).status).toBe(200)
      expect(await balance(alice, "TON")).toEqual({ available: "0", held: ton("2") })
    })

    it("refuses a transfer to yourself, an unknown receiver, bad amounts and unknown currencies", async () => {
      const alice = await signIn("Alice")
      const bob = await signIn("Bob")
      await fund(alice, "TON", "1")
      const self = await send(alice, alice, "0.1")
      expect(self.status).toBe(400)
      expect(self.body.code).toBe("self_transfer")
      const nobody = await alice.post("/api/custody/transfers", { idempotencyKey: randomUUID(), receiverId: 12345, currency: "TON", amount: "0.1" })
      expect(nobody.status).toBe(404)
      expect(nobody.body.code).toBe("receiver_not_found")
      const tooPrecise = await send(alice, bob, "0.0000000001")
      expect(tooPrecise.status).toBe(400)
      expect(tooPrecise.body.code).toBe("invalid_amount")
      expect((await send(alice, bob, "0")).status).toBe(400)
      expect((await send(alice, bob, "1e3")).status).toBe(400)
      const unknown = await send(alice, bob, "1", { currency: "DOGE" })
      expect(unknown.body.code).toBe("unsupported_currency")
      expect(await balance(alice, "TON")).toEqual({ available: ton("1"), held: "0" })
    })

    it("refuses restricted users and users without custody with a typed error", async () => {
      const rita = await signIn("Rita")
      const carl = await signIn("Carl")
      const bob = await signIn("Bob")
      await fund(rita, "TON", "2")
      await fund(bob, "TON", "2")
      await server.sql("update kernel_users set restriction_code = 'unsupported_region' where id = $1", [rita.id])
      await server.sql("update kernel_users set is_custody_available = false where id = $1", [carl.id])
      const restricted = await send(rita, bob, "1")
      expect(restricted.status).toBe(403)
      expect(restricted.body).toMatchObject({ _tag: "CustodyForbidden", code: "user_restricted" })
      const noCustody = await send(carl, bob, "1")
      expect(noCustody.body.code).toBe("custody_unavailable")
      // A restricted receiver cannot accept; the sender can still cancel.
      const toRita = (await send(bob, rita, "1")).body
      const accept = await rita.post(`/api/custody/transfers/${toRita.id}/approve`)
      expect(accept.status).toBe(403)
      expect(accept.body.code).toBe("user_restricted")
      expect((await bob.post(`/api/custody/transfers/${toRita.id}/cancel`)).status).toBe(200)
      const flags = (await rita.get("/api/custody/accounts")).body
      expect(flags.restrictionCode).toBe("unsupported_region")
      expect(flags.accessFlags).toMatchObject({ accessToWithdraws: false, accessToExchanges: false, accessToTransactionList: true })
      expect(flags.assets.find((asset: any) => asset.currency === "TON").actions.send.isEnabled).toBe(false)
      // Restricted users still see their history.
      expect((await rita.get("/api/custody/transactions")).status).toBe(200)
      expect(await balance(rita, "TON")).toEqual({ available: ton("2"), held: "0" })
    })

    it("finds receivers by username or name prefix among users of the app, not the caller", async () => {
      const zed = await signIn("Zebediah")
      const other = await signIn("Zebulon")
      const found = (await zed.get(`/api/custody/receivers?query=${encodeURIComponent("@" + other.username.slice(0, 6))}`)).body.items
      expect(found.map((item: any) => item.userId)).toContain(other.id)
      expect(found.map((item: any) => item.userId)).not.toContain(zed.id)
      const byName = (await zed.get("/api/custody/receivers?query=zebu")).body.items
      expect(byName.map((item: any) => item.userId)).toEqual([other.id])
      expect((await zed.get("/api/custody/receivers?query=%25")).body.items).toEqual([])
    })
  })

  describe("transactions", () => {
    it("pages newest first with a cursor, filters by currency and opens one transaction", async () => {
      const user = await signIn()
      for (let i = 1; i <= 7; i++) await fund(user, i % 2 === 0 ? "USDT" : "TON", `${i}`)
      const seen: Array<string> = []
      let cursor: string | null = null
      let pages = 0
      do {
        const page: Reply = await user.get(`/api/custody/transactions?limit=3${cursor === null ? "" : `&cursor=${cursor}`}`)
        expect(page.status).toBe(200)
        seen.push(...page.body.items.map((item: any) => item.amount))
        cursor = page.body.nextCursor
        pages++
      } while (cursor !== null)
      expect(pages).toBe(3)
      expect(seen).toEqual(["7", "6", "5", "4", "3", "2", "1"])
      const usdt = (await user.get("/api/custody/transactions?currency=USDT")).body
      expect(usdt.items.map((item: any) => item.amount)).toEqual(["6", "4", "2"])
      expect(usdt.nextCursor).toBeNull()
      const one = await user.get(`/api/custody/transactions/${usdt.items[0].id}`)
      expect(one.body).toMatchObject({ gateway: "top_up", type: "deposit", status: "success", currency: "USDT", amount: "6", fiatCurrency: "USD" })
      const inEur = (await user.get("/api/custody/transactions?currency=USDT&fiatCurrency=EUR")).body.items[0]
      expect(inEur.fiatCurrency).toBe("EUR")
      expect(inEur.fiatAmount).not.toBe(one.body.fiatAmount)
      expect((await user.get("/api/custody/transactions?fiatCurrency=ZZZ")).body.code).toBe("unsupported_fiat")
      const stranger = await signIn()
      expect((await stranger.get(`/api/custody/transactions/${usdt.items[0].id}`)).status).toBe(404)
      expect((await user.get("/api/custody/transactions?cursor=abc")).body.code).toBe("invalid_cursor")
      expect((await user.get("/api/custody/transactions?limit=0")).status).toBe(400)
    })
  })

  describe("USD balance for the forced-passcode rule", () => {
    it("reaches other modules through the kernel's UsdBalances port and equals the accounts total in USD cents", async () => {
      const user = await signIn()
      const usdCents = async () => BigInt(((await user.get(`/api/custody-probe/usd-cents/${user.id}`)).body as { cents: string }).cents)
      expect(await usdCents()).toBe(0n)
      await fund(user, "TON", "3.25")
      await fund(user, "BTC", "0.001")
      const total = (await user.get("/api/custody/accounts")).body.availableBalanceTotalUsdAmount as string
      const cents = await usdCents()
      expect(cents > 0n).toBe(true)
      expect(cents).toBe(BigInt(total.replace(".", "")))
    })
  })

  describe("movements of other parts (chain deposits and withdrawals)", () => {
    it("appear in the history by their Ledger metadata, and withdrawals follow their hold", async () => {
      const user = await signIn()
      const chain = (action: string, amount: string, id: string) =>
        request("POST", "/api/custody-probe/chain-like", { userId: user.id, action, currency: "TON", amount, id })
      const tag = String(user.id)
      expect((await chain("deposit", "5", `${tag}-d`)).status).toBe(200)
      await chain("withdraw", "2", `${tag}-w1`)
      await chain("withdraw", "1", `${tag}-w2`)
      const first = (await user.get("/api/custody/transactions")).body.items
      expect(first.map((row: any) => [row.gateway, row.type, row.amount, row.status])).toEqual([
        ["withdraw_onchain", "withdraw", "1", "pending"],
        ["withdraw_onchain", "withdraw", "2", "pending"],
        ["top_up", "deposit", "5", "success"],
      ])
      expect(first[2]).toMatchObject({ txHash: `hash-${tag}-d`, network: "ton", inputAddresses: ["UQsender"] })
      expect(first[1]).toMatchObject({ fee: "0.02", recipientAddress: "UQdestination" })
      await chain("post", "2", `${tag}-w1`)
      await chain("void", "1", `${tag}-w2`)
      const after = (await user.get("/api/custody/transactions")).body.items
      expect(after.map((row: any) => row.status)).toEqual(["fail", "success", "success"])
      // Reading again imports nothing twice.
      expect((await user.get("/api/custody/transactions")).body.items).toHaveLength(3)
      expect(await balance(user, "TON")).toEqual({ available: ton("2.98"), held: "0" })
      // Many new entries at once are imported across Ledger history pages, each once.
      for (let i = 0; i < 12; i++) await chain("deposit", "0.1", `${tag}-many-${i}`)
      const all = (await user.get("/api/custody/transactions?limit=100")).body.items
      expect(all).toHaveLength(15)
      expect(new Set(all.map((row: any) => row.id)).size).toBe(15)
    })
  })

  describe("rates and settings", () => {
    it("answers rates per token in one fiat and chart series per period", async () => {
      const user = await signIn()
      const rates = (await user.get("/api/custody/rates?tokens=TON,USDT,NOPE&currencies=EUR")).body.rates
      expect(Object.keys(rates).sort()).toEqual(["TON", "USDT"])
      expect(rates.TON.prices.EUR).toMatch(/^\d+\.\d+$/)
      expect(rates.TON.diff_24h.EUR).toMatch(/^[+-]\d+\.\d\d%$/)
      const chart = (await user.get("/api/custody/charts/TON/USD?period=week")).body
      expect(chart.points.length).toBeGreaterThan(100)
      expect(chart.points.at(-1).time).toBe(new Date(clock.now).toISOString())
      const times = chart.points.map((point: any) => Date.parse(point.time))
      expect([...times].sort((a, b) => a - b)).toEqual(times)
      const accounts = (await user.get("/api/custody/accounts")).body
      expect(chart.points.at(-1).price).toBe(accounts.assets.find((asset: any) => asset.currency === "TON").rate)
      expect((await user.get("/api/custody/charts/TON/USD?period=decade")).status).toBe(400)
      expect((await user.get("/api/custody/charts/NOPE/USD?period=day")).status).toBe(404)
    })

    it("keeps notification settings per type, every type on by default", async () => {
      const user = await signIn()
      const initial = (await user.get("/api/custody/notification-settings")).body.items
      expect(initial.map((item: any) => item.type)).toEqual(["market_trends", "product", "marketing", "educational", "feedback"])
      expect(initial.every((item: any) => item.enabled)).toBe(true)
      expect((await user.put("/api/custody/notification-settings/marketing", { enabled: false })).body).toEqual({ type: "marketing", enabled: false })
      const after = (await user.get("/api/custody/notification-settings")).body.items
      expect(after.find((item: any) => item.type === "marketing").enabled).toBe(false)
      expect(after.filter((item: any) => item.enabled)).toHaveLength(4)
      expect((await user.put("/api/custody/notification-settings/spam", { enabled: false })).status).toBe(400)
    })
  })
})
