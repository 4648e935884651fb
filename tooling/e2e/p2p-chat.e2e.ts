import { join } from "node:path"
import { deflateSync } from "node:zlib"
import type { Locator } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { launch, screenshotDir, startStack, type LaunchedApp, type Stack } from "@wallet/harness/stack"
import { demoUserId, openOperatorConsole } from "./support/ops.ts"

/**
 * Issue 21, the order chat between two demo users: Rhea (buyer, English, light) takes Lena's USDT/RUB
 * offer and writes; Lena (seller, Russian, dark) sees the unread badge on the order, opens the chat,
 * is refused a text file, replies with a photo; Rhea sees the photo and opens it. A closed order's
 * chat is read-only. An appeal carries receipts that both sides and support see, with the chat.
 */
let stack: Stack
beforeAll(async () => {
  stack = await startStack({ accessTokenTtlSeconds: 24 * 3600 })
})
afterAll(async () => {
  await stack?.close()
})

const SELLER = "kyc_level2" as const
const BUYER = "kyc_review" as const
const shot = (app: LaunchedApp, name: string) => app.page.screenshot({ path: join(screenshotDir, `p2p-chat-${name}.png`) })
const id = (app: LaunchedApp, testId: string) => app.app().getByTestId(testId)

// A receipt-like PNG made here (a bank app's green bar over text lines), so the photo shows in the screenshots.
const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
  return c >>> 0
})
const crc32 = (bytes: Buffer) => {
  let c = 0xffffffff
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8)
  return (c ^ 0xffffffff) >>> 0
}
const pngChunk = (type: string, data: Buffer) => {
  const body = Buffer.concat([Buffer.from(type, "ascii"), data])
  const head = Buffer.alloc(4)
  head.writeUInt32BE(data.length)
  const tail = Buffer.alloc(4)
  tail.writeUInt32BE(crc32(body))
  return Buffer.concat([head, body, tail])
}
const receiptPng = (width = 240, height = 160) => {
  const header = Buffer.alloc(13)
  header.writeUInt32BE(width, 0)
  header.writeUInt32BE(height, 4)
  header[8] = 8 // bits per sample
  header[9] = 2 // RGB
  const stride = width * 3 + 1
  const pixels = Buffer.alloc(stride * height)
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const bar = y < 30
      const stripe = Math.floor((y - 44) / 22)
      const line = y > 44 && (y - 44) % 22 < 6 && x > 20 && x < width - 20 - (stripe % 3) * 40
      const rgb = bar ? [46, 160, 90] : line ? [96, 104, 120] : [246, 247, 249]
      pixels.set(rgb, y * stride + 1 + x * 3)
    }
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk("IHDR", header),
    pngChunk("IDAT", deflateSync(pixels)),
    pngChunk("IEND", Buffer.alloc(0)),
  ])
}

/** Opens /p2p, passes the onboarding once, and waits for the home. */
const openMarket = async (app: LaunchedApp) => {
  await app.waitForPath("/main")
  await app.goto("/p2p")
  const start = id(app, "p2p-start")
  const buy = id(app, "p2p-buy")
  await Promise.race([start.waitFor(), buy.waitFor()])
  if (await start.isVisible()) await start.click()
  await buy.waitFor()
}

/** Rhea takes `fiat` RUB of Lena's demo USDT/RUB offer (it accepts at once); the order's id. */
const takeDemoOffer = async (buyer: LaunchedApp, fiat: string) => {
  await openMarket(buyer)
  await buyer.goto("/p2p/offers/list/SALE?fiatCurrency=RUB&crypto=USDT")
  await buyer.app().locator('[data-testid^="p2p-offer-take-"]').first().click()
  const amount = id(buyer, "p2p-take-amount")
  await amount.click()
  await amount.pressSequentially(fiat)
  await buyer.app().getByRole("radio", { name: "SBP" }).check()
  await id(buyer, "p2p-take-submit").click()
  await buyer.app().waitForFunction(() => /^\/p2p\/orders\/\d+$/.test(window.location.pathname))
  const orderId = Number(/\/p2p\/orders\/(\d+)/.exec(await buyer.path())![1])
  await expect.poll(() => id(buyer, "p2p-order").getAttribute("data-status"), { timeout: 15_000 }).toBe("ACCEPTED")
  return orderId
}

/** The image's natural width once it has loaded (0 while not). */
const loadedWidth = (image: Locator) => image.evaluate((img: HTMLImageElement) => (img.complete ? img.naturalWidth : 0))

describe("P2P order chat (issue 21)", () => {
  it("the buyer writes; the seller sees the unread badge, opens the chat and replies with a photo; the buyer sees the photo", async () => {
    const buyer = await launch(stack, { user: BUYER })
    const seller = await launch(stack, { user: SELLER, language: "ru", theme: "dark" })
    try {
      const orderId = await takeDemoOffer(buyer, "1400")

      // The buyer opens the chat from the order: empty, the seller's name in the header.
      await id(buyer, "p2p-order-chat").click()
      await buyer.waitForPath(`/p2p/orders/${orderId}/chat`)
      await id(buyer, "p2p-chat-empty").waitFor()
      expect(await id(buyer, "p2p-chat-title").innerText()).toContain("Lena")
      await shot(buyer, "empty")
      const input = id(buyer, "p2p-chat-input")
      await input.fill("Hi! Paying 1,400 RUB by SBP from T-Bank now.")
      await input.press("Enter")
      const mine = buyer.app().locator('[data-testid="p2p-chat-message"][data-mine="true"]')
      await expect.poll(() => mine.count()).toBe(1)
      expect(await mine.innerText()).toContain("Paying 1,400 RUB by SBP")
      expect(await input.inputValue()).toBe("")

      // The seller's order page shows one unread message; opening the chat reads it.
      await openMarket(seller)
      await seller.goto(`/p2p/orders/${orderId}`)
      const badge = id(seller, "p2p-order-chat-unread")
      await expect.poll(() => badge.innerText(), { timeout: 15_000 }).toBe("1")
      await shot(seller, "order-badge-ru-dark")
      await id(seller, "p2p-order-chat").click()
      await seller.waitForPath(`/p2p/orders/${orderId}/chat`)
      const theirs = seller.app().locator('[data-testid="p2p-chat-message"][data-mine="false"]')
      await expect.poll(() => theirs.count(), { timeout: 15_000 }).toBe(1)
      expect(await theirs.innerText()).toContain("Paying 1,400 RUB by SBP")
      expect(await id(seller, "p2p-chat-title").innerText()).toContain("Rhea")

      // A text file is refused on the spot (in Russian); then a photo goes with its progress, and a text.
      await id(seller, "p2p-chat-attach").setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("not a photo") })
      expect(await id(seller, "p2p-chat-error").innerText()).toBe("Отправьте фото: JPEG, PNG или WebP.")
      await id(seller, "p2p-chat-attach").setInputFiles({ name: "receipt.png", mimeType: "image/png", buffer: receiptPng() })
      const sellerImage = seller.app().locator('[data-testid="p2p-chat-message"][data-mine="true"] img')
      await expect.poll(() => loadedWidth(sellerImage), { timeout: 15_000 }).toBe(240)
      await id(seller, "p2p-chat-input").fill("Получила, спасибо! Вот скриншот из банка.")
      await id(seller, "p2p-chat-send").click()
      await expect.poll(() => seller.app().locator('[data-testid="p2p-chat-message"][data-mine="true"]').count()).toBe(2)
      await shot(seller, "ru-dark")
      // Read: the order page no longer shows the badge.
      await id(seller, "p2p-chat-to-order").click()
      await seller.waitForPath(`/p2p/orders/${orderId}`)
      await id(seller, "p2p-order-chat").waitFor()
      expect(await badge.count()).toBe(0)

      // The buyer, still in the chat, gets the photo and the text by the poll; the photo opens larger.
      const photo = buyer.app().locator('[data-testid="p2p-chat-message"][data-mine="false"] img')
      await expect.poll(() => photo.count(), { timeout: 15_000 }).toBe(1)
      await expect.poll(() => loadedWidth(photo), { timeout: 15_000 }).toBe(240)
      await expect.poll(() => buyer.app().locator('[data-testid="p2p-chat-message"][data-mine="false"]').count(), { timeout: 15_000 }).toBe(2)
      await shot(buyer, "light")
      await buyer.app().locator('[data-testid="p2p-chat-message"][data-mine="false"] [data-testid="p2p-file-image"]').click()
      const large = id(buyer, "p2p-file-image-large")
      await expect.poll(() => loadedWidth(large), { timeout: 15_000 }).toBe(240)
      await shot(buyer, "photo")
      await buyer.page.keyboard.press("Escape")

      // Once the order is cancelled the chat is kept, read-only.
      await id(buyer, "p2p-chat-to-order").click()
      await buyer.waitForPath(`/p2p/orders/${orderId}`)
      await id(buyer, "p2p-order-cancel").click()
      await id(buyer, "p2p-order-cancel-confirm").click()
      await expect.poll(() => id(buyer, "p2p-order").getAttribute("data-status"), { timeout: 15_000 }).toBe("CANCELLED")
      await id(buyer, "p2p-order-chat").click()
      await id(buyer, "p2p-chat-closed").waitFor()
      expect(await id(buyer, "p2p-chat-input").count()).toBe(0)
      expect(await buyer.app().locator('[data-testid="p2p-chat-message"]').count()).toBe(3)
    } finally {
      await seller.page.close()
      await buyer.page.close()
    }
  }, 180_000)
  it("an appeal carries receipts (a wrong file refused): both sides see them, support sees them with the whole chat", async () => {
    const buyer = await launch(stack, { user: BUYER })
    const seller = await launch(stack, { user: SELLER, language: "ru", theme: "dark" })
    try {
      const orderId = await takeDemoOffer(buyer, "1300")
      await buyer.goto(`/p2p/orders/${orderId}/chat`)
      await id(buyer, "p2p-chat-input").fill("Paid by SBP at 10:02, the receipt is in the appeal.")
      await id(buyer, "p2p-chat-input").press("Enter")
      await expect.poll(() => buyer.app().locator('[data-testid="p2p-chat-message"]').count()).toBe(1)
      await buyer.goto(`/p2p/orders/${orderId}`)
      await id(buyer, "p2p-order-paid").click()
      await id(buyer, "p2p-confirm-sent-check").check()
      await id(buyer, "p2p-confirm-sent").click()
      await buyer.waitForPath(`/p2p/orders/${orderId}`)
      await expect.poll(() => id(buyer, "p2p-order").getAttribute("data-status"), { timeout: 15_000 }).toBe("PAID")

      // The help flow: the issue, the statement, two receipts (a text file is refused first).
      await id(buyer, "p2p-order-appeal").click()
      await buyer.waitForPath(`/p2p/orders/${orderId}/help`)
      await id(buyer, "p2p-help-issue-seller_not_releasing").click()
      await buyer.app().getByLabel("Your statement").fill("Paid 1,300 RUB by SBP at 10:02 from T-Bank; the receipt and the bank's PDF are attached.")
      const input = id(buyer, "p2p-receipt-input")
      await input.setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("not a receipt") })
      expect(await id(buyer, "p2p-receipt-error").innerText()).toBe("Send a photo (JPEG, PNG or WebP) or a PDF.")
      await input.setInputFiles({ name: "sbp-receipt.png", mimeType: "image/png", buffer: receiptPng() })
      await expect.poll(() => id(buyer, "p2p-receipt-pending").count(), { timeout: 15_000 }).toBe(1)
      await input.setInputFiles({
        name: "statement.pdf",
        mimeType: "application/pdf",
        buffer: Buffer.from("%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n"),
      })
      await expect.poll(() => id(buyer, "p2p-receipt-pending").count(), { timeout: 15_000 }).toBe(2)
      await shot(buyer, "help-receipts")
      await id(buyer, "p2p-help-submit").click()
      await buyer.waitForPath(`/p2p/orders/${orderId}`)
      await expect.poll(() => id(buyer, "p2p-order").getAttribute("data-status"), { timeout: 15_000 }).toBe("IN_APPEAL")
      const buyerReceipt = buyer.app().locator('[data-testid="p2p-receipts"] img')
      await expect.poll(() => loadedWidth(buyerReceipt), { timeout: 15_000 }).toBe(240)
      expect(await id(buyer, "p2p-file-pdf").innerText()).toContain("statement.pdf")
      await id(buyer, "p2p-receipts").scrollIntoViewIfNeeded()
      await shot(buyer, "appeal-receipts")

      // The seller sees the buyer's receipts in the order.
      await openMarket(seller)
      await seller.goto(`/p2p/orders/${orderId}`)
      const sellerReceipt = seller.app().locator('[data-testid="p2p-receipts"] img')
      await expect.poll(() => loadedWidth(sellerReceipt), { timeout: 15_000 }).toBe(240)
      await id(seller, "p2p-receipts").scrollIntoViewIfNeeded()
      await shot(seller, "appeal-receipts-ru-dark")

      // Support: the statement's receipts and the whole chat, files only through the console.
      const { ops, close } = await openOperatorConsole(
        stack,
        { name: "p2p-chat-support", password: "a long enough support password" },
        `/ops/p2p?order=${orderId}`,
      )
      try {
        await ops.getByText("the receipt is in the appeal").waitFor()
        const image = ops.locator('img[alt^="Receipt from the buyer"]')
        await expect.poll(() => loadedWidth(image), { timeout: 15_000 }).toBe(240)
        await ops.getByRole("link", { name: /statement\.pdf/ }).waitFor()
        await ops.screenshot({ path: join(screenshotDir, "p2p-chat-ops-appeal.png"), fullPage: true })
      } finally {
        await close()
      }
    } finally {
      await seller.page.close()
      await buyer.page.close()
    }
  }, 180_000)
  it("notification settings are kept on the server: a switch saves, shows on another device, and goes back when the save fails", async () => {
    const buyer = await launch(stack, { user: BUYER, language: "ru" })
    try {
      const userId = await demoUserId(stack, BUYER)
      const stored = async () =>
        (await stack.server.sql("select orders, chat, appeals from p2p_notify_settings where user_id = $1", [userId])) as Array<Record<string, boolean>>
      await openMarket(buyer)
      await buyer.goto(`/p2p/user/${userId}/notifications`)
      const chat = id(buyer, "p2p-notify-chat")
      await expect.poll(() => chat.isChecked(), { timeout: 15_000 }).toBe(true)
      await chat.click()
      await expect.poll(stored, { timeout: 15_000 }).toEqual([{ orders: true, chat: false, appeals: true }])
      // Another device of the same user (a new page, nothing cached) shows the saved value.
      const again = await launch(stack, { user: BUYER, language: "ru" })
      try {
        await again.waitForPath("/main")
        await again.goto(`/p2p/user/${userId}/notifications`)
        await expect.poll(() => id(again, "p2p-notify-chat").isChecked(), { timeout: 15_000 }).toBe(false)
        expect(await id(again, "p2p-notify-orders").isChecked()).toBe(true)
        await shot(again, "notifications-ru")
      } finally {
        await again.page.close()
      }

      // The save fails: the switch shows its new value, then goes back, and says so.
      await buyer.page.route("**/api/p2p/notifications", (route) => (route.request().method() === "POST" ? route.abort() : route.continue()))
      await id(buyer, "p2p-notify-orders").click()
      await id(buyer, "p2p-notify-error").waitFor()
      await expect.poll(() => id(buyer, "p2p-notify-orders").isChecked()).toBe(true)
      expect(await stored()).toEqual([{ orders: true, chat: false, appeals: true }])
      await buyer.page.unroute("**/api/p2p/notifications")
    } finally {
      await buyer.page.close()
    }
  }, 120_000)
})
