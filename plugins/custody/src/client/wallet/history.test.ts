import { describe, expect, it } from "vitest"
import { dayKey, groupByDay } from "./history.ts"

describe("groupByDay", () => {
  it("groups rows by local day, newest first, equal times in their order", () => {
    const rows = [
      { id: "2", date: new Date(2026, 10, 22, 1, 0) },
      { id: "1", date: new Date(2026, 10, 20, 23, 59) },
      { id: "3", date: new Date(2026, 10, 22, 18, 0) },
      { id: "0", date: new Date(2026, 10, 20, 23, 59) },
    ]
    expect(groupByDay(rows, (r) => r.date).map(([key, items]) => [key, items.map((r) => r.id)])).toEqual([
      ["2026-11-22", ["3", "2"]],
      ["2026-11-20", ["1", "0"]],
    ])
    expect(dayKey(new Date(2026, 0, 5))).toBe("2026-01-05")
  })
})
