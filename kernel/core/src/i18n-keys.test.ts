import { describe, expect, it } from "vitest"
import { bundleKeyDifferences, bundleKeys } from "./i18n-keys.ts"

describe("bundle key check (decision 0130)", () => {
  const en = { title: "Send", send: { fee: "Fee", items_one: "{{count}} item", items_other: "{{count}} items" } }

  it("lists leaf keys as dotted paths", () => {
    expect(bundleKeys(en)).toEqual(["title", "send.fee", "send.items_one", "send.items_other"])
  })

  it("is empty for the same keys, plural forms folded", () => {
    const ru = { title: "Отправить", send: { fee: "Комиссия", items_one: "1", items_few: "2", items_many: "5" } }
    expect(bundleKeyDifferences(en, ru)).toEqual({ missing: [], extra: [] })
  })

  it("names what the translation misses and what it has too much", () => {
    const ru = { title: "Отправить", send: { items_one: "1", comment: "Комментарий" } }
    expect(bundleKeyDifferences(en, ru)).toEqual({ missing: ["send.fee"], extra: ["send.comment"] })
    expect(bundleKeyDifferences(en, { title: { nested: "x" }, send: en.send })).toEqual({ missing: ["title"], extra: ["title.nested"] })
  })
})
