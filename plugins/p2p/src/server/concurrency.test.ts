import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startServer, type RunningServer } from "@wallet/kernel-server"
import { bearer, call, startTestDatabase, type TestDatabase } from "@wallet/kernel-server/testing"
import { serverPlugin as custodyPlugin } from "@wallet/plugin-custody/server"
import { serverPlugin } from "./index.ts"
import { initUser } from "./testSupport.ts"
import { escrowOwner, p2pProbePlugin } from "./testing.ts"

const BOT_TOKEN = "1234567:p2p-race"
const USDT = 1_000_000n
const TAKERS = 40

/**
 * Issue 20: many takers and cancels on one offer at once, on PostgreSQL (real concurrency). Afterwards
 * the Ledger audit passes, the offer is not oversold (its volume = what is available + what live and
 * completed orders took), its escrow row equals its Ledger account, and every order's hold was resolved
 * at most once (the audit's check) and matches the order's state.
 */
describe("P2P under concurrency (PostgreSQL)", () => {
  let database: TestDatabase
  let server: RunningServer

  beforeAll(async () => {
    database = await startTestDatabase("postgres")
    server = await startServer({
      port: 0,
      database: database.options,
      botToken: BOT_TOKEN,
      plugins: [custodyPlugin, serverPlugin, p2pProbePlugin],
      pluginConfig: { p2p: { makerFeeBps: 100, takerFeeBps: 0, maxOpenOrdersPerOffer: 1000 } },
    })
  }, 60_000)

  afterAll(async () => {
    await server?.close()
    await database?.stop()
  })

  const signIn = async (id: number) => bearer((await initUser(server.url, BOT_TOKEN, id)).access_token)
  const post = (auth: string, path: string, body: unknown) => call(server.url, "POST", path, { authorization: auth, body })

  it("no offer is oversold, the audit is clean and every hold matches its order", async () => {
    const sellerId = 9_200_000_001
    const seller = await signIn(sellerId)
    await call(server.url, "POST", "/api/p2p-probe/fund", { body: { userId: sellerId, currency: "USDT", amount: (1000n * USDT).toString() } })
    const details = (
      await post(seller, "/api/p2p/user/payments", {
        code: "sbp",
        fiat: "RUB",
        fields: { phone: "+79161234567", bankName: "T-Bank", holderName: "Sam Seller" },
      })
    ).body
    const volume = 50n * USDT
    const offer = (
      await post(seller, "/api/p2p/offers", {
        type: "SALE",
        crypto: "USDT",
        fiat: "RUB",
        price: { type: "FIXED", value: "10000" },
        volume: volume.toString(),
        minOrderFiat: "10000",
        maxOrderFiat: "10000000",
        paymentDetailsIds: [details.id],
        paymentMethodCodes: [],
        paymentWindowMinutes: 15,
        terms: null,
        autoAccept: true,
        idempotencyKey: "race-offer-1",
      })
    ).body
    const takers = await Promise.all(Array.from({ length: TAKERS }, (_, i) => signIn(9_200_001_000 + i)))
    // Each taker wants 3 USDT (40 x 3 = 120 > 50); half of those who get one cancel it at once, racing the other takes.
    const results = await Promise.all(
      takers.map(async (auth, i) => {
        const taken = await post(auth, "/api/p2p/orders", {
          offerId: offer.id,
          amount: (3n * USDT).toString(),
          priceCents: "10000",
          paymentMethodCode: "sbp",
          idempotencyKey: `race-take-${i}`,
        })
        if (taken.status !== 200) return { taken, cancelled: undefined }
        // A retried take with the same key answers the same order.
        const again = await post(auth, "/api/p2p/orders", {
          offerId: offer.id,
          amount: (3n * USDT).toString(),
          priceCents: "10000",
          paymentMethodCode: "sbp",
          idempotencyKey: `race-take-${i}`,
        })
        expect(again.body.id).toBe(taken.body.id)
        if (i % 2 === 0) return { taken, cancelled: await post(auth, "/api/p2p/orders/move", { orderId: taken.body.id, move: "cancel", status: "ACCEPTED" }) }
        if (i % 3 === 0) {
          await post(auth, "/api/p2p/orders/move", { orderId: taken.body.id, move: "paid" })
          return { taken, cancelled: await post(seller, "/api/p2p/orders/move", { orderId: taken.body.id, move: "received" }) }
        }
        return { taken, cancelled: undefined }
      }),
    )
    const refused = results.filter((r) => r.taken.status !== 200)
    expect(refused.length).toBeGreaterThan(0)
    for (const r of refused) expect(["amount_above_available", "offer_unavailable", "offer_state_changed"]).toContain(r.taken.body.code)
    for (const r of results) if (r.cancelled !== undefined) expect(r.cancelled.status).toBe(200)

    const audit = (await call(server.url, "GET", "/api/p2p-probe/audit")).body
    expect(audit.violations).toEqual([])
    expect(audit.ok).toBe(true)
    const rows = (await server.sql(
      "select o.id::text as id, o.status, o.amount::text as amount, o.hold_amount::text as hold_amount, h.status as hold_status from p2p_orders o join ledger_holds h on h.id = o.hold_id where o.offer_id = $1",
      [offer.id],
    )) as Array<{ id: string; status: string; amount: string; hold_amount: string; hold_status: string }>
    const holdOf: Record<string, string> = { ACCEPTED: "pending", PAID: "pending", COMPLETED: "posted", CANCELLED: "voided", EXPIRED: "voided" }
    for (const row of rows) expect(row.hold_status, `order ${row.id}`).toBe(holdOf[row.status])
    const live = rows.filter((row) => row.status === "ACCEPTED" || row.status === "PAID" || row.status === "COMPLETED")
    const [state] = (await server.sql("select available::text as available, escrow::text as escrow, open_orders from p2p_offers where id = $1", [
      offer.id,
    ])) as Array<{
      available: string
      escrow: string
      open_orders: number
    }>
    // Not oversold: what is left plus what live and completed orders took is the volume.
    expect(BigInt(state!.available) + live.reduce((sum, row) => sum + BigInt(row.amount), 0n)).toBe(volume)
    expect(state!.open_orders).toBe(rows.filter((row) => row.status === "ACCEPTED" || row.status === "PAID").length)
    const escrow = (await call(server.url, "POST", "/api/p2p-probe/balance", { body: { owner: escrowOwner(offer.id), currency: "USDT" } })).body
    expect(escrow.available).toBe(state!.escrow)
    expect(BigInt(escrow.held)).toBe(
      rows.filter((row) => row.status === "ACCEPTED" || row.status === "PAID").reduce((sum, row) => sum + BigInt(row.hold_amount), 0n),
    )
  }, 120_000)
})
