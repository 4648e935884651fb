import { describe, expect, it } from "vitest"
// @ts-expect-error a plain ESM script without types
import { coverage, keysOf } from "../../../../tooling/scripts/i18n-coverage.mjs"

interface Row {
  readonly namespace: string
  readonly language: string
  readonly percent: number
  readonly missing: ReadonlyArray<string>
  readonly extra: ReadonlyArray<string>
}
const rows = coverage() as ReadonlyArray<Row>

describe("translation coverage (npm run i18n:coverage)", () => {
  it("folds plural forms into one key and skips empty strings", () => {
    expect(keysOf({ a: { left_one: "1", left_few: "2", left_other: "3" }, b: "", c: ["x"] })).toEqual(["a.left", "a.left", "a.left", "c.0"])
  })

  it("has every key in both English and Russian, in every namespace", () => {
    const gaps = rows.filter((r) => (r.language === "en" || r.language === "ru") && (r.missing.length > 0 || r.extra.length > 0))
    expect(gaps.map((r) => ({ [`${r.language}/${r.namespace}`]: [...r.missing, ...r.extra.map((k) => `+${k}`)] }))).toEqual([])
    // English is the reference, so a key only Russian has shows up as Russian's extra key.
    expect(rows.filter((r) => r.language === "ru").length).toBeGreaterThanOrEqual(7)
  })

  it("translates at least 95% of every namespace into Hindi, Bengali and Traditional Chinese", () => {
    const low = rows.filter((r) => ["hi", "bn", "zh-TW"].includes(r.language) && r.percent < 95)
    expect(low.map((r) => `${r.language}/${r.namespace} ${r.percent.toFixed(1)}%`)).toEqual([])
  })
})
