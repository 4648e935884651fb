import { Schema } from "effect"
import { describe, expect, it } from "vitest"
import { BigIntId, isStorableText, TelegramUserId, userText, userTextProblem } from "./fields.ts"

const accepts = (schema: Schema.Top, value: unknown) => Schema.is(schema as Schema.Codec<unknown>)(value)

describe("UserText", () => {
  it("refuses NUL and unpaired surrogates and accepts any other text, emoji included", () => {
    expect(userTextProblem("a\u0000b")).toMatch(/NUL/)
    expect(userTextProblem("\ud800")).toMatch(/surrogate/)
    expect(userTextProblem("x\ud800y")).toMatch(/surrogate/)
    expect(userTextProblem("\udc00x")).toMatch(/surrogate/)
    expect(userTextProblem("\ude00\ud83d")).toMatch(/surrogate/)
    for (const fine of ["", "plain", "thanks \ud83d\ude00", "Русский", "tab\tand\nnewline", "\u0001\u007f", "\ufffd"]) {
      expect(isStorableText(fine), JSON.stringify(fine)).toBe(true)
    }
  })

  it("keeps its length bounds", () => {
    const field = userText({ minLength: 1, maxLength: 3 })
    expect(accepts(field, "abc")).toBe(true)
    expect(accepts(field, "")).toBe(false)
    expect(accepts(field, "abcd")).toBe(false)
    expect(accepts(field, "a\u0000")).toBe(false)
    expect(accepts(userText({ maxLength: 2 }), "\ud800")).toBe(false)
  })
})

describe("ids", () => {
  it("BigIntId takes 1..2^63-1 without leading zeros", () => {
    for (const ok of ["1", "42", "9223372036854775807"]) expect(accepts(BigIntId, ok), ok).toBe(true)
    for (const bad of ["0", "01", "-1", "9223372036854775808", "99999999999999999999", "1.5", "1e3", "", " 1", "1\u0000"]) {
      expect(accepts(BigIntId, bad), bad).toBe(false)
    }
  })

  it("TelegramUserId is a positive safe integer", () => {
    expect(accepts(TelegramUserId, 1)).toBe(true)
    expect(accepts(TelegramUserId, Number.MAX_SAFE_INTEGER)).toBe(true)
    for (const bad of [0, -1, 1.5, 2 ** 63, Number.NaN]) expect(accepts(TelegramUserId, bad), String(bad)).toBe(false)
  })
})
