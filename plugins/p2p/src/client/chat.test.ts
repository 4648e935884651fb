import { describe, expect, it } from "vitest"
import type { ChatMessage } from "../api.ts"
import { DEFAULT_NOTIFY } from "../chatRules.ts"
import { afterPoll, badgeText, chatErrorKey, fileProblem, lastIdOf, lastTheirsOf, mergeMessages, messageTime, sizeText, withGroup, withSent } from "./chat.ts"

const message = (id: number, mine = false, text = `m${id}`): ChatMessage => ({
  id,
  author: mine ? "buyer" : "seller",
  mine,
  text,
  image: null,
  createdAt: new Date(Date.UTC(2025, 0, 1, 10, id)).toISOString(),
})

describe("the chat's messages between polls", () => {
  it("merges a poll into what is shown: each message once, oldest first, a repeated one replaced", () => {
    const shown = [message(1), message(3, true)]
    const merged = mergeMessages(shown, [message(2), message(3, true, "m3 again"), message(5)])
    expect(merged.map((m) => m.id)).toEqual([1, 2, 3, 5])
    expect(merged[2]!.text).toBe("m3 again")
    expect(mergeMessages(shown, [])).toBe(shown)
  })

  it("polls after the newest polled id, not after a message sent here (an older one of the other side may still come)", () => {
    const first = afterPoll(undefined, { messages: [message(1), message(2)], unread: 2, writable: true })
    expect(first.cursor).toBe(2)
    const sent = withSent(first, message(4, true))!
    expect(sent.cursor).toBe(2)
    expect(sent.messages.map((m) => m.id)).toEqual([1, 2, 4])
    const next = afterPoll(sent, { messages: [message(3), message(4, true)], unread: 1, writable: true })
    expect(next).toMatchObject({ cursor: 4, unread: 1 })
    expect(next.messages.map((m) => m.id)).toEqual([1, 2, 3, 4])
    expect(afterPoll(next, { messages: [], unread: 0, writable: false })).toMatchObject({ cursor: 4, writable: false })
    expect(withSent(undefined, message(5))).toBeUndefined()
  })

  it("knows the last id to poll after and the other side's last message to mark read", () => {
    expect(lastIdOf([])).toBeUndefined()
    expect(lastIdOf([message(1), message(4, true)])).toBe(4)
    expect(lastTheirsOf([message(1), message(2), message(4, true)])).toBe(2)
    expect(lastTheirsOf([message(4, true)])).toBeUndefined()
  })
})

describe("a picked file before upload", () => {
  it("takes a JPEG, PNG or WebP photo for the chat, and a PDF too for a receipt, up to 5 MB", () => {
    expect(fileProblem({ type: "image/png", size: 1000 }, "image")).toBeNull()
    expect(fileProblem({ type: "image/webp", size: 5 * 1024 * 1024 }, "image")).toBeNull()
    expect(fileProblem({ type: "application/pdf", size: 1000 }, "image")).toBe("file_invalid")
    expect(fileProblem({ type: "application/pdf", size: 1000 }, "receipt")).toBeNull()
    expect(fileProblem({ type: "image/gif", size: 1000 }, "receipt")).toBe("file_invalid")
    expect(fileProblem({ type: "image/jpeg", size: 5 * 1024 * 1024 + 1 }, "image")).toBe("file_too_large")
    expect(fileProblem({ type: "image/jpeg", size: 0 }, "image")).toBe("file_invalid")
    // No declared type (some pickers): the server reads the bytes.
    expect(fileProblem({ type: "", size: 10 }, "image")).toBeNull()
  })
})

describe("times, badges, sizes, refusals, settings", () => {
  const now = Date.UTC(2025, 2, 14, 15, 0)
  it("shows the clock for today's messages and the day before", () => {
    expect(messageTime(new Date(Date.UTC(2025, 2, 14, 9, 5)).toISOString(), now, "en-GB", "UTC")).toBe("09:05")
    expect(messageTime(new Date(Date.UTC(2025, 2, 12, 9, 5)).toISOString(), now, "en-GB", "UTC")).toBe("12 Mar, 09:05")
    expect(messageTime(new Date(Date.UTC(2025, 2, 12, 9, 5)).toISOString(), now, "ru", "UTC")).toMatch(/^12 мар\.?,? 09:05$/)
  })

  it("caps the unread badge at 99+ and hides it at zero", () => {
    expect(badgeText(0)).toBeNull()
    expect(badgeText(3)).toBe("3")
    expect(badgeText(100)).toBe("99+")
  })

  it("says sizes in kB below a megabyte", () => {
    expect(sizeText(10)).toBe("1 kB")
    expect(sizeText(20_480)).toBe("20 kB")
    expect(sizeText(1.5 * 1024 * 1024)).toBe("1.5 MB")
  })

  it("explains the chat's own refusals and leaves the rest to the market's messages", () => {
    expect(chatErrorKey("chat_closed")).toBe("chat.errors.chat_closed")
    expect(chatErrorKey("file_too_large")).toBe("chat.errors.file_too_large")
    expect(chatErrorKey("wrong_side")).toBe("market.errors.wrong_side")
    expect(chatErrorKey(undefined)).toBe("market.errors.generic")
  })

  it("switches one notification group and keeps the others", () => {
    expect(withGroup(DEFAULT_NOTIFY, "chat", false)).toEqual({ orders: true, chat: false, appeals: true })
    expect(withGroup({ orders: false, chat: false, appeals: true }, "orders", true)).toEqual({ orders: true, chat: false, appeals: true })
  })
})
