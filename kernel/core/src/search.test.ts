import { describe, expect, it } from "vitest"
import { booleanParam, decodeSearch, toSearchValidator, enumParam, numberParam, optionalEnumParam, searchParams, stringParam } from "./search.ts"

const Receive = searchParams({
  assetCurrency: stringParam,
  amount: numberParam,
  freeze: booleanParam,
  source: optionalEnumParam(["asset", "main"]),
  tab: enumParam(["cw", "scw"], "cw"),
})

describe("search params", () => {
  it("keeps well-typed values", () => {
    expect(decodeSearch(Receive, { assetCurrency: "TON", amount: "1.5", freeze: "true", source: "main", tab: "scw" })).toEqual({
      assetCurrency: "TON",
      amount: 1.5,
      freeze: true,
      source: "main",
      tab: "scw",
    })
  })

  it("drops wrong-typed values instead of failing", () => {
    expect(decodeSearch(Receive, { assetCurrency: { x: 1 }, amount: "lots", freeze: 3, source: "elsewhere" })).toEqual({ tab: "cw" })
  })

  it("replaces an unknown enum value by its default", () => {
    expect(decodeSearch(Receive, { tab: "ton" }).tab).toBe("cw")
    expect(decodeSearch(Receive, undefined).tab).toBe("cw")
  })

  it("reads digits the router parsed as a number back as a string param", () => {
    expect(decodeSearch(Receive, { assetCurrency: 1 }).assetCurrency).toBe("1")
  })

  it("plugs into a Standard Schema consumer without issues for bad input", async () => {
    const result = await toSearchValidator(Receive)["~standard"].validate({ tab: 5 })
    expect(result).toEqual({ value: { tab: "cw" } })
  })
})
