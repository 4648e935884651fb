import { describe, expect, it } from "vitest"
import { chartGeometry } from "./chart.ts"

describe("chartGeometry", () => {
  it("maps time to x and price to y, the highest price at the top", () => {
    const g = chartGeometry(
      [
        { time: 0, price: 1 },
        { time: 50, price: 3 },
        { time: 100, price: 2 },
      ],
      200,
      100,
      0,
    )
    expect(g.line).toBe("M0,100 L100,0 L200,50")
    expect(g.area).toBe("M0,100 L100,0 L200,50 L200,100 L0,100 Z")
    expect([g.min, g.max, g.trend]).toEqual([1, 3, "up"])
  })

  it("sorts points by time, skips non-finite prices and keeps the padding", () => {
    const g = chartGeometry(
      [
        { time: 2, price: 5 },
        { time: 1, price: 10 },
        { time: 3, price: Number.NaN },
      ],
      100,
      50,
      5,
    )
    expect(g.line).toBe("M0,5 L100,45")
    expect(g.trend).toBe("down")
  })

  it("draws a flat series in the middle and nothing for a single point", () => {
    expect(
      chartGeometry(
        [
          { time: 1, price: 7 },
          { time: 2, price: 7 },
        ],
        10,
        20,
      ).line,
    ).toBe("M0,10 L10,10")
    expect(chartGeometry([{ time: 1, price: 7 }], 10, 20)).toMatchObject({ line: "", trend: "flat" })
  })
})
