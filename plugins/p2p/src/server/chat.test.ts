import { mkdtempSync, readdirSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { localFileStore, startServer, type RunningServer } from "@wallet/kernel-server"
import { bearer, call, startTestDatabase, type TestDatabase } from "@wallet/kernel-server/testing"
import { serverPlugin as custodyPlugin } from "@wallet/plugin-custody/server"
import { serverPlugin } from "./index.ts"
import { initUser, publishSaleOffer, signInOperator } from "./testSupport.ts"
import { p2pProbePlugin } from "./testing.ts"

const BOT_TOKEN = "1234567:p2p-chat-test"
const USDT = 1_000_000n
/** A real 2×2 PNG, and a small PDF: the server reads a file's type from its bytes. */
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP8z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==", "base64")
const PDF = Buffer.from("%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n")

describe("P2P order chat, receipts and notification settings (issue 21)", () => {
  let database: TestDatabase
  let server: RunningServer
  let filesDir: string
  let clock = Date.now()

  beforeAll(async () => {
    filesDir = mkdtempSync(join(tmpdir(), "p2p-chat-files-"))
    database = await startTestDatabase("pglite")
    server = await startServer({
      port: 0,
      database: database.options,
      botToken: BOT_TOKEN,
      now: () => clock,
      files: localFileStore(filesDir),
      plugins: [custodyPlugin, serverPlugin, p2pProbePlugin],
      pluginConfig: { p2p: { sweepMs: 3_600_000 } },
    })
  })

  afterAll(async () => {
    await server?.close()
    await database?.stop()
    rmSync(filesDir, { recursive: true, force: true })
  })

  const signIn = async (id: number) => bearer((await initUser(server.url, BOT_TOKEN, id, "Ann", new Date(clock))).access_token)
  const post = (auth: string, path: string, body?: unknown) => call(server.url, "POST", path, { authorization: auth, ...(body === undefined ? {} : { body }) })
  const get = (auth: string, path: string) => call(server.url, "GET", path, { authorization: auth })
  let keys = 0
  const key = () => `k${Date.now()}x${++keys}`
  const upload = (auth: string, path: string, bytes: Uint8Array, contentType = "image/png") =>
    fetch(`${server.url}${path}`, { method: "POST", headers: { authorization: auth, "content-type": contentType }, body: new Blob([new Uint8Array(bytes)]) })
  const fileBytes = (auth: string, orderId: number, kind: "chat" | "receipt", id: number) =>
    fetch(`${server.url}/api/p2p/orders/file?orderId=${orderId}&kind=${kind}&id=${id}`, { headers: { authorization: auth } })
  const storedFiles = (folder: string) => {
    try {
      return readdirSync(join(filesDir, "p2p", folder), { recursive: true, withFileTypes: true }).filter(
        (entry) => entry.isFile() && !entry.name.endsWith(".meta.json"),
      )
    } catch {
      return []
    }
  }
  const botMessages = async (userId: number, subject: string) =>
    (
      (await server.sql("select body from outbox_messages where recipient = $1 and subject = $2 order by id", [String(userId), subject])) as Array<{
        body: string
      }>
    ).map((row) => row.body)

  /** A seller with SBP details and an auto-accept USDT/RUB offer at 100 RUB; the buyer takes 5 USDT (500 RUB): an ACCEPTED order. */
  const orderBetween = async (sellerId: number, buyerId: number) => {
    const seller = await signIn(sellerId)
    const buyer = await signIn(buyerId)
    await call(server.url, "POST", "/api/p2p-probe/fund", { body: { userId: sellerId, currency: "USDT", amount: (50n * USDT).toString() } })
    const offerId = await publishSaleOffer(server.url, seller, { holderName: "Lena Level", volume: 40n * USDT, maxOrderFiat: "400000", idempotencyKey: key() })
    const take = async () => {
      const order = await post(buyer, "/api/p2p/orders", {
        offerId,
        amount: (5n * USDT).toString(),
        priceCents: "10000",
        paymentMethodCode: "sbp",
        idempotencyKey: key(),
      })
      expect(order.body).toMatchObject({ status: "ACCEPTED", unreadMessages: 0 })
      return order.body.id as number
    }
    return { seller, buyer, take, orderId: await take() }
  }

  it("only the order's two sides read and write its chat: a third user gets 403, an unknown order 404, bad texts 400", async () => {
    const { seller, buyer, orderId } = await orderBetween(9_200_000_001, 9_200_000_002)
    const stranger = await signIn(9_200_000_003)
    const sent = await post(buyer, "/api/p2p/chat/send", { orderId, text: "  Hi! Paying now from T-Bank  " })
    expect(sent.status).toBe(200)
    expect(sent.body).toMatchObject({ author: "buyer", mine: true, text: "Hi! Paying now from T-Bank", image: null })
    const seen = await post(seller, "/api/p2p/chat/list", { orderId })
    expect(seen.body).toMatchObject({
      writable: true,
      unread: 1,
      messages: [{ id: sent.body.id, author: "buyer", mine: false, text: "Hi! Paying now from T-Bank" }],
    })

    for (const [path, body] of [
      ["/api/p2p/chat/list", { orderId }],
      ["/api/p2p/chat/send", { orderId, text: "let me in" }],
      ["/api/p2p/chat/read", { orderId, lastId: sent.body.id }],
      ["/api/p2p/orders/appeal/receipts", { orderId }],
    ] as const) {
      const refused = await post(stranger, path, body)
      expect(refused.status, path).toBe(403)
      expect(refused.body, path).toMatchObject({ code: "wrong_side" })
    }
    expect((await upload(stranger, `/api/p2p/chat/image?orderId=${orderId}`, PNG)).status).toBe(403)
    const unknown = await post(buyer, "/api/p2p/chat/list", { orderId: 987_654_321 })
    expect(unknown.status).toBe(404)
    expect(unknown.body).toMatchObject({ code: "order_not_found" })
    // Blank and over-long texts are refused by the contract; nothing is written.
    expect((await post(buyer, "/api/p2p/chat/send", { orderId, text: "   " })).status).toBe(400)
    expect((await post(buyer, "/api/p2p/chat/send", { orderId, text: "x".repeat(2_001) })).status).toBe(400)
    expect((await post(buyer, "/api/p2p/chat/send", { orderId, text: "x".repeat(2_000) })).status).toBe(200)
    const after = await post(buyer, "/api/p2p/chat/list", { orderId, afterId: sent.body.id })
    expect(after.body.messages).toHaveLength(1)
    expect((await server.sql("select count(*)::int as n from p2p_messages where order_id = $1", [orderId])) as Array<{ n: number }>).toEqual([{ n: 2 }])
  })

  it("unread counts go up with the other side's messages and down with markRead; the order carries them", async () => {
    const { seller, buyer, orderId } = await orderBetween(9_200_000_011, 9_200_000_012)
    const first = (await post(buyer, "/api/p2p/chat/send", { orderId, text: "one" })).body.id as number
    const second = (await post(buyer, "/api/p2p/chat/send", { orderId, text: "two" })).body.id as number
    expect((await post(seller, "/api/p2p/orders/get", { orderId })).body.unreadMessages).toBe(2)
    // One's own messages are never unread.
    expect((await post(buyer, "/api/p2p/orders/get", { orderId })).body.unreadMessages).toBe(0)
    const active = await post(seller, "/api/p2p/orders/history", { offset: 0, limit: 20, filter: { status: "ALL_ACTIVE" } })
    expect(active.body.items.find((order: { id: number }) => order.id === orderId).unreadMessages).toBe(2)

    expect((await post(seller, "/api/p2p/chat/read", { orderId, lastId: first })).body).toEqual({ unread: 1 })
    expect((await post(seller, "/api/p2p/orders/get", { orderId })).body.unreadMessages).toBe(1)
    // A mark never moves back, and never past the last message (a later message is unread).
    expect((await post(seller, "/api/p2p/chat/read", { orderId, lastId: 1 })).body).toEqual({ unread: 1 })
    expect((await post(seller, "/api/p2p/chat/read", { orderId, lastId: second + 1_000 })).body).toEqual({ unread: 0 })
    const third = (await post(buyer, "/api/p2p/chat/send", { orderId, text: "three" })).body.id as number
    expect(third).toBeLessThan(second + 1_000)
    expect((await post(seller, "/api/p2p/chat/list", { orderId, afterId: second })).body).toMatchObject({ unread: 1, messages: [{ id: third }] })

    await post(seller, "/api/p2p/chat/send", { orderId, text: "got it" })
    expect((await post(buyer, "/api/p2p/orders/get", { orderId })).body.unreadMessages).toBe(1)
  })

  it("an image is stored and served only to the two sides (no-store); a non-image, a PDF or an oversized file is refused and nothing is stored", async () => {
    const { seller, buyer, orderId } = await orderBetween(9_200_000_021, 9_200_000_022)
    const stranger = await signIn(9_200_000_023)
    const before = storedFiles("chat").length
    const sent = await upload(seller, `/api/p2p/chat/image?orderId=${orderId}`, PNG, "application/octet-stream")
    expect(sent.status).toBe(200)
    const message = (await sent.json()) as { id: number; image: { mime: string; size: number } }
    expect(message).toMatchObject({ author: "seller", mine: true, text: null, image: { id: message.id, mime: "image/png", size: PNG.byteLength } })
    expect(storedFiles("chat").length).toBe(before + 1)

    const served = await fileBytes(buyer, orderId, "chat", message.id)
    expect(served.status).toBe(200)
    expect(served.headers.get("content-type")).toBe("image/png")
    expect(served.headers.get("cache-control")).toBe("no-store")
    expect(Buffer.from(await served.arrayBuffer()).equals(PNG)).toBe(true)
    expect((await fileBytes(stranger, orderId, "chat", message.id)).status).toBe(403)
    expect((await fileBytes(buyer, orderId, "chat", message.id + 1_000)).status).toBe(404)

    const refusals: Array<[Uint8Array, string, number, string]> = [
      [Buffer.from("just some text, not an image"), "image/png", 400, "file_invalid"],
      [PDF, "application/octet-stream", 400, "file_invalid"],
      [new Uint8Array(0), "image/png", 400, "file_invalid"],
      // Just above 5 MB (the endpoint's limit), and above the route's body limit: refused before the body is read.
      [Buffer.concat([PNG, Buffer.alloc(5 * 1024 * 1024)]), "image/png", 413, "payload_too_large"],
      [Buffer.concat([PNG, Buffer.alloc(6 * 1024 * 1024)]), "image/png", 413, "payload_too_large"],
    ]
    for (const [bytes, type, status, code] of refusals) {
      const refused = await upload(buyer, `/api/p2p/chat/image?orderId=${orderId}`, bytes, type)
      expect(refused.status, code).toBe(status)
      expect(await refused.json(), code).toMatchObject({ code })
    }
    expect(storedFiles("chat").length).toBe(before + 1)
    expect((await server.sql("select count(*)::int as n from p2p_messages where order_id = $1", [orderId])) as Array<{ n: number }>).toEqual([{ n: 1 }])
    expect((await post(buyer, "/api/p2p/chat/list", { orderId })).body.messages).toHaveLength(1)
    // A photo of a few MB passes (above the API's 1 MiB for other bodies: the route's own limit).
    const large = await upload(buyer, `/api/p2p/chat/image?orderId=${orderId}`, Buffer.concat([PNG, Buffer.alloc(3 * 1024 * 1024)]))
    expect(large.status).toBe(200)
    expect(((await large.json()) as { image: { size: number } }).image.size).toBe(PNG.byteLength + 3 * 1024 * 1024)
    expect(storedFiles("chat").length).toBe(before + 2)
  })

  it("a closed order's chat is read-only (409 chat_closed) and still readable", async () => {
    const { seller, buyer, orderId } = await orderBetween(9_200_000_031, 9_200_000_032)
    await post(buyer, "/api/p2p/chat/send", { orderId, text: "Sorry, I changed my mind" })
    expect((await post(buyer, "/api/p2p/orders/move", { orderId, move: "cancel", status: "ACCEPTED" })).body.status).toBe("CANCELLED")
    const before = storedFiles("chat").length
    const text = await post(seller, "/api/p2p/chat/send", { orderId, text: "ok" })
    expect(text.status).toBe(409)
    expect(text.body).toMatchObject({ code: "chat_closed", status: "CANCELLED" })
    const image = await upload(seller, `/api/p2p/chat/image?orderId=${orderId}`, PNG)
    expect(image.status).toBe(409)
    expect(await image.json()).toMatchObject({ code: "chat_closed" })
    expect(storedFiles("chat").length).toBe(before)
    const read = await post(seller, "/api/p2p/chat/list", { orderId })
    expect(read.body).toMatchObject({ writable: false, unread: 1, messages: [{ text: "Sorry, I changed my mind" }] })
  })

  it("notification settings: a group turned off suppresses its bot messages, on sends them; moves say amount, method and time left", async () => {
    const sellerId = 9_200_000_041
    const buyerId = 9_200_000_042
    const { seller, buyer, take, orderId } = await orderBetween(sellerId, buyerId)
    expect((await get(seller, "/api/p2p/notifications")).body).toEqual({ orders: true, chat: true, appeals: true })
    const [created] = await botMessages(buyerId, "p2p.order.created")
    expect(created).toContain(`Order #${orderId}: pay 500.00 RUB via SBP within 15 min`)
    expect((await botMessages(sellerId, "p2p.order.created"))[0]).toContain("5 USDT for 500.00 RUB via SBP")

    const off = await post(seller, "/api/p2p/notifications", { orders: false })
    expect(off.body).toEqual({ orders: false, chat: true, appeals: true })
    expect((await get(seller, "/api/p2p/notifications")).body).toEqual({ orders: false, chat: true, appeals: true })
    const quiet = await take()
    expect(await botMessages(sellerId, "p2p.order.created")).toHaveLength(1)
    // The buyer keeps every group on: told about both orders.
    expect((await botMessages(buyerId, "p2p.order.created")).filter((body) => body.includes(`#${quiet}`))).toHaveLength(1)

    expect((await post(seller, "/api/p2p/notifications", { orders: true })).body).toEqual({ orders: true, chat: true, appeals: true })
    expect((await post(buyer, "/api/p2p/orders/move", { orderId: quiet, move: "paid", status: "ACCEPTED" })).body.status).toBe("PAID")
    const [paid] = await botMessages(sellerId, "p2p.order.paid")
    expect(paid).toContain(`Order #${quiet}: the buyer says 500.00 RUB is paid via SBP`)

    // Chat: the buyer turned chat off; the seller's message tells nobody.
    expect((await post(buyer, "/api/p2p/notifications", { chat: false })).body).toEqual({ orders: true, chat: false, appeals: true })
    await post(seller, "/api/p2p/chat/send", { orderId, text: "Waiting for your payment" })
    expect(await botMessages(buyerId, "p2p.chat.message")).toEqual([])
    await post(buyer, "/api/p2p/notifications", { chat: true })
    await post(seller, "/api/p2p/chat/send", { orderId, text: "Still waiting" })
    expect(await botMessages(buyerId, "p2p.chat.message")).toEqual([
      `Order #${orderId}: a new message from the seller: «Still waiting». Open the order's chat to reply.`,
    ])
  })

  it("a burst of chat messages sends the other side one bot message a minute per order (kept in the database)", async () => {
    const sellerId = 9_200_000_051
    const { seller, buyer, take, orderId } = await orderBetween(sellerId, 9_200_000_052)
    for (const text of ["one", "two", "three"]) await post(buyer, "/api/p2p/chat/send", { orderId, text })
    expect(await upload(buyer, `/api/p2p/chat/image?orderId=${orderId}`, PNG).then((reply) => reply.status)).toBe(200)
    expect(await botMessages(sellerId, "p2p.chat.message")).toEqual([`Order #${orderId}: a new message from the buyer: «one». Open the order's chat to reply.`])
    // Another order between the same two is told apart; the seller's own messages do not count for the buyer's throttle.
    const other = await take()
    await post(buyer, "/api/p2p/chat/send", { orderId: other, text: "and this one" })
    await post(seller, "/api/p2p/chat/send", { orderId, text: "ok" })
    expect(await botMessages(sellerId, "p2p.chat.message")).toHaveLength(2)
    clock += 61_000
    expect(await upload(buyer, `/api/p2p/chat/image?orderId=${orderId}`, PNG).then((reply) => reply.status)).toBe(200)
    const pings = await botMessages(sellerId, "p2p.chat.message")
    expect(pings).toHaveLength(3)
    expect(pings[2]).toBe(`Order #${orderId}: the buyer sent a photo in the chat. Open the order's chat to see it.`)
  })

  it("appeal receipts: up to 3 per statement, images or PDF; shown to both sides and to support with the whole chat", async () => {
    const { seller, buyer, orderId } = await orderBetween(9_200_000_061, 9_200_000_062)
    const receipt = (auth: string, bytes: Uint8Array, name: string, type = "application/octet-stream") =>
      upload(auth, `/api/p2p/orders/appeal/receipt?orderId=${orderId}&name=${encodeURIComponent(name)}`, bytes, type)
    // Not before the order is paid.
    const early = await receipt(buyer, PDF, "bank.pdf")
    expect(early.status).toBe(409)
    expect(await early.json()).toMatchObject({ code: "order_state_changed", status: "ACCEPTED" })
    await post(buyer, "/api/p2p/chat/send", { orderId, text: "Paid, see the receipt" })
    await upload(seller, `/api/p2p/chat/image?orderId=${orderId}`, PNG)
    await post(buyer, "/api/p2p/orders/move", { orderId, move: "paid", status: "ACCEPTED" })

    const before = storedFiles("receipts").length
    expect((await receipt(buyer, Buffer.from("not a receipt"), "notes.txt")).status).toBe(400)
    expect((await receipt(buyer, PDF, "bank.pdf")).status).toBe(200)
    expect((await receipt(buyer, PNG, "screen.png", "image/png")).status).toBe(200)
    const third = (await (await receipt(buyer, PNG, "extra.png")).json()) as { files: Array<{ id: number; name: string; mime: string }> }
    expect(third.files.map((file) => [file.name, file.mime])).toEqual([
      ["bank.pdf", "application/pdf"],
      ["screen.png", "image/png"],
      ["extra.png", "image/png"],
    ])
    const fourth = await receipt(buyer, PNG, "fourth.png")
    expect(fourth.status).toBe(400)
    expect(await fourth.json()).toMatchObject({ code: "too_many_files" })
    const left = await post(buyer, "/api/p2p/orders/appeal/receipt/remove", { orderId, fileId: third.files[2]!.id })
    expect(left.body.files).toHaveLength(2)
    expect(storedFiles("receipts").length).toBe(before + 2)
    // The other side sees no pending receipt of the buyer's, and cannot attach one.
    expect((await fileBytes(seller, orderId, "receipt", third.files[0]!.id)).status).toBe(404)
    const stolen = await post(seller, "/api/p2p/orders/appeal", {
      orderId,
      issue: "payment_not_received",
      statement: "Nothing arrived",
      receiptIds: [third.files[0]!.id],
    })
    expect(stolen.status).toBe(400)
    expect(stolen.body).toMatchObject({ code: "invalid_receipts" })
    expect((await post(seller, "/api/p2p/orders/get", { orderId })).body.status).toBe("PAID")

    const appealed = await post(buyer, "/api/p2p/orders/appeal", {
      orderId,
      issue: "seller_not_releasing",
      statement: "Paid 500 RUB by SBP at 10:02",
      status: "PAID",
      receiptIds: left.body.files.map((file: { id: number }) => file.id),
    })
    expect(appealed.status).toBe(200)
    expect(appealed.body.appeal.statements[0].files.map((file: { name: string }) => file.name)).toEqual(["bank.pdf", "screen.png"])
    expect((await post(buyer, "/api/p2p/orders/appeal/receipts", { orderId })).body).toEqual({ files: [] })
    const pdf = await fileBytes(seller, orderId, "receipt", third.files[0]!.id)
    expect(pdf.status).toBe(200)
    expect(pdf.headers.get("content-type")).toBe("application/pdf")
    // The seller answers with a receipt of their own.
    const own = (await (await receipt(seller, PNG, "statement.png")).json()) as { files: Array<{ id: number }> }
    const answered = await post(seller, "/api/p2p/orders/appeal/statement", { orderId, text: "My bank shows nothing", receiptIds: [own.files[0]!.id] })
    expect(answered.body.appeal.statements.map((st: { files: Array<unknown> }) => st.files.length)).toEqual([2, 1])

    const ops = await signInOperator(server)
    const page = await ops.page(`?order=${orderId}`)
    expect(page).toContain('data-chat-author="buyer"')
    expect(page).toContain("Paid, see the receipt")
    expect(page).toContain(`/ops/p2p/file?order=${orderId}&amp;kind=chat&amp;id=`)
    expect(page).toContain(`/ops/p2p/file?order=${orderId}&amp;kind=receipt&amp;id=${third.files[0]!.id}`)
    expect(await ops.page(`/file?order=${orderId}&kind=receipt&id=${third.files[0]!.id}`)).toBe(PDF.toString())
    // Not without the operator's sign-in.
    const anonymous = await fetch(`${server.url}/ops/p2p/file?order=${orderId}&kind=receipt&id=${third.files[0]!.id}`, { redirect: "manual" })
    expect(anonymous.status).toBe(303)
  })
})
