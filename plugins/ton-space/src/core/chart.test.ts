import { describe, expect, it } from "vitest"
import { chartWindow, downsample, mergeSeries, normalizePoints, rateAt, summarize, type ChartPoint } from "./chart.ts"

const series = (n: number, price: (i: number) => number): ReadonlyArray<ChartPoint> =>
  Array.from({ length: n }, (_, i) => ({ time: 1_000 + i * 60, price: price(i) }))

describe("chart window", () => {
  it("looks back one day, week, month, year, and from the epoch for all", () => {
    const now = 1_700_000_000
    expect(chartWindow("day", now)).toEqual({ startDate: now - 86_400, endDate: now, pointsCount: 200 })
    expect(chartWindow("week", now).startDate).toBe(now - 7 * 86_400)
    expect(chartWindow("month", now).startDate).toBe(now - 30 * 86_400)
    expect(chartWindow("year", now).startDate).toBe(now - 365 * 86_400)
    expect(chartWindow("all", now).startDate).toBe(0)
  })
})

describe("normalizePoints", () => {
  it("sorts newest-first pairs ascending, drops non-finite and negative rates, keeps one point per time", () => {
    const points = normalizePoints([
      [300, 3],
      [200, Number.NaN],
      [100, 1],
      [250, -1],
      [300, 3.5],
      [150, 2],
    ])
    expect(points).toEqual([
      { time: 100, price: 1 },
      { time: 150, price: 2 },
      { time: 300, price: 3.5 },
    ])
  })
})

describe("downsample (largest triangle three buckets)", () => {
  it("returns a short series unchanged", () => {
    const points = series(10, (i) => i)
    expect(downsample(points, 64)).toBe(points)
  })

  it("keeps exactly the target count, the first and last points, in time order", () => {
    const points = series(200, (i) => Math.sin(i / 10))
    const out = downsample(points, 50)
    expect(out).toHaveLength(50)
    expect(out[0]).toBe(points[0])
    expect(out[49]).toBe(points[199])
    for (let i = 1; i < out.length; i++) expect(out[i]!.time).toBeGreaterThan(out[i - 1]!.time)
  })

  it("keeps a lone spike that every-n-th sampling would drop", () => {
    const points = series(200, (i) => (i === 101 ? 50 : 1))
    const out = downsample(points, 20)
    expect(out.some((p) => p.price === 50)).toBe(true)
    // every 10th point (0, 10, …, 190) would miss index 101
    expect(points.filter((_, i) => i % 10 === 0).some((p) => p.price === 50)).toBe(false)
  })

  it("keeps the minimum and maximum of a noisy series", () => {
    const points = series(200, (i) => 10 + ((i * 37) % 11) - (i === 57 ? 30 : 0) + (i === 143 ? 40 : 0))
    const out = downsample(points, 30)
    const prices = out.map((p) => p.price)
    expect(Math.min(...prices)).toBe(Math.min(...points.map((p) => p.price)))
    expect(Math.max(...prices)).toBe(Math.max(...points.map((p) => p.price)))
  })

  it("with a target of 2 keeps the ends", () => {
    const points = series(5, (i) => i)
    expect(downsample(points, 2)).toEqual([points[0], points[4]])
  })
})

describe("summarize and rateAt", () => {
  it("gives the period change in percent", () => {
    const s = summarize([
      { time: 1, price: 2 },
      { time: 2, price: 3 },
    ])
    expect(s.changePercent).toBeCloseTo(50)
    expect(summarize([{ time: 1, price: 2 }]).changePercent).toBeUndefined()
  })

  it("takes the last rate at or before a time, the first one before the series starts", () => {
    const points = [
      { time: 100, price: 1 },
      { time: 200, price: 2 },
      { time: 300, price: 3 },
    ]
    expect(rateAt(points, 50)).toBe(1)
    expect(rateAt(points, 200)).toBe(2)
    expect(rateAt(points, 299)).toBe(2)
    expect(rateAt(points, 10_000)).toBe(3)
    expect(rateAt([], 5)).toBeUndefined()
  })
})

describe("mergeSeries", () => {
  it("keeps the finer series inside its range and the coarser one outside it", () => {
    const coarse = [
      { time: 0, price: 1 },
      { time: 1_000, price: 2 },
      { time: 2_000, price: 3 },
    ]
    const fine = [
      { time: 1_500, price: 10 },
      { time: 1_600, price: 11 },
      { time: 1_700, price: 12 },
      { time: 2_000, price: 13 },
    ]
    const merged = mergeSeries(coarse, fine)
    expect(merged.map((p) => [p.time, p.price])).toEqual([
      [0, 1],
      [1_000, 2],
      [1_500, 10],
      [1_600, 11],
      [1_700, 12],
      [2_000, 13],
    ])
    expect(rateAt(merged, 1_650)).toBe(11)
    expect(rateAt(merged, 500)).toBe(1)
    expect(mergeSeries([], coarse)).toEqual(coarse)
  })
})
