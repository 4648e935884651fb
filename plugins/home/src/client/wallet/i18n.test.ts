import { describe, expect, it } from "vitest"
import en from "../../i18n/en.json" with { type: "json" }
import ru from "../../i18n/ru.json" with { type: "json" }

const keys = (node: unknown, prefix = ""): string[] =>
  node !== null && typeof node === "object" ? Object.entries(node).flatMap(([k, v]) => keys(v, `${prefix}${k}.`)) : [prefix.slice(0, -1)]

describe("wallet main strings", () => {
  it("has the same keys in English and Russian", () => {
    expect(keys(ru).sort()).toEqual(keys(en).sort())
  })
})
