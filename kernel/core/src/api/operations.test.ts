import { Schema } from "effect"
import { describe, expect, it } from "vitest"
import { canonicalOperationParams, OperationParams, operationRequest, operationSpec } from "./operations.ts"

describe("operation catalogue and params (decision 0550)", () => {
  it("encodes params canonically: order does not matter, values do", () => {
    expect(canonicalOperationParams({ b: "2", a: "1" })).toBe(canonicalOperationParams({ a: "1", b: "2" }))
    expect(canonicalOperationParams({ a: "1", b: "2" })).not.toBe(canonicalOperationParams({ a: "1", b: "20" }))
    // A value cannot smuggle another pair: the encoding is JSON.
    expect(canonicalOperationParams({ a: '1","b":"2' })).not.toBe(canonicalOperationParams({ a: "1", b: "2" }))
    expect(canonicalOperationParams({})).toBe(canonicalOperationParams(undefined))
  })

  it("names each operation's kind and bound params", () => {
    expect(operationSpec("custody_transfer")).toEqual({ kind: "value", params: ["currency", "amount", "receiver"] })
    expect(operationSpec("device_key_generate")?.kind).toBe("security")
    expect(operationSpec("toString")).toBeUndefined()
    expect(operationRequest("exchange", { from: "TON", to: "USDT", amount: "5" })).toEqual({
      name: "exchange",
      params: { from: "TON", to: "USDT", amount: "5" },
    })
  })

  it("refuses malformed params: bad names, NUL, too many", () => {
    const ok = Schema.is(OperationParams)
    expect(ok({ amount: "1", currency: "TON" })).toBe(true)
    expect(ok({ "bad key": "1" })).toBe(false)
    expect(ok({ amount: "1\u0000" })).toBe(false)
    expect(ok(Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`p${i}`, "x"])))).toBe(false)
  })
})
