/**
 * The asset page's price chart (spec 2 "Price chart points"; §9: periods day, week, month, year, all;
 * the series is downsampled to a target count). Pure: the chain API's `/v2/rates/chart` points in,
 * the request window and a downsampled ascending series out. Prices are only drawn and used as
 * rates, never summed as money (PnL converts them to fixed point first, see pnl.ts).
 */
import type { ChartPoint } from "@wallet/kernel"

export const CHART_PERIODS = ["day", "week", "month", "year", "all"] as const
export type ChartPeriod = (typeof CHART_PERIODS)[number]

export const isChartPeriod = (value: unknown): value is ChartPeriod => typeof value === "string" && (CHART_PERIODS as ReadonlyArray<string>).includes(value)

const DAY = 86_400

/** Seconds each period looks back; "all" asks from the epoch (the API answers from the token's first rate). */
export const PERIOD_SECONDS: Readonly<Record<ChartPeriod, number | undefined>> = {
  day: DAY,
  week: 7 * DAY,
  month: 30 * DAY,
  year: 365 * DAY,
  all: undefined,
}

/** tonapi's maximum `points_count`; the client asks for it and downsamples. */
export const CHART_REQUEST_POINTS = 200
/** Points drawn: enough for a 320 px wide line, few enough for a light SVG path. */
export const CHART_TARGET_POINTS = 64

export interface ChartWindow {
  readonly startDate: number
  readonly endDate: number
  readonly pointsCount: number
}

/** The `/v2/rates/chart` query of a period ending at `nowSeconds`. */
export const chartWindow = (period: ChartPeriod, nowSeconds: number): ChartWindow => {
  const end = Math.floor(nowSeconds)
  const back = PERIOD_SECONDS[period]
  return { startDate: back === undefined ? 0 : end - back, endDate: end, pointsCount: CHART_REQUEST_POINTS }
}

/** A point of a price series (`time` in Unix seconds here): the kernel's chart point. */
export type { ChartPoint } from "@wallet/kernel"

/** The API's `[timestamp, rate]` pairs (newest first on tonapi) as an ascending, de-duplicated series of finite points. */
export const normalizePoints = (raw: ReadonlyArray<readonly [number, number]>): ReadonlyArray<ChartPoint> => {
  const sorted = raw
    .filter(([time, price]) => Number.isFinite(time) && Number.isFinite(price) && price >= 0)
    .map(([time, price]) => ({ time, price }))
    .sort((a, b) => a.time - b.time)
  const out: Array<ChartPoint> = []
  for (const point of sorted) {
    if (out.length > 0 && out[out.length - 1]!.time === point.time) out[out.length - 1] = point
    else out.push(point)
  }
  return out
}

/**
 * Largest-Triangle-Three-Buckets downsampling: keeps the first and the last point and, from each of
 * `target - 2` equal buckets in between, the point forming the largest triangle with the point kept
 * before it and the average of the next bucket. The line keeps its peaks and dips, unlike taking
 * every n-th point. Series at or under `target` come back unchanged.
 */
export const downsample = (points: ReadonlyArray<ChartPoint>, target: number = CHART_TARGET_POINTS): ReadonlyArray<ChartPoint> => {
  if (points.length <= target) return points
  if (target <= 2) return [points[0]!, points[points.length - 1]!].slice(0, Math.max(1, target))
  const out: Array<ChartPoint> = [points[0]!]
  const bucket = (points.length - 2) / (target - 2)
  let kept = 0
  for (let i = 0; i < target - 2; i++) {
    const nextStart = Math.floor((i + 1) * bucket) + 1
    const nextEnd = Math.min(Math.floor((i + 2) * bucket) + 1, points.length)
    let avgTime = 0
    let avgPrice = 0
    const nextCount = Math.max(1, nextEnd - nextStart)
    for (let j = nextStart; j < nextEnd; j++) {
      avgTime += points[j]!.time
      avgPrice += points[j]!.price
    }
    if (nextEnd <= nextStart) {
      avgTime = points[points.length - 1]!.time
      avgPrice = points[points.length - 1]!.price
    } else {
      avgTime /= nextCount
      avgPrice /= nextCount
    }
    const start = Math.floor(i * bucket) + 1
    const end = Math.floor((i + 1) * bucket) + 1
    const a = points[kept]!
    let best = start
    let bestArea = -1
    for (let j = start; j < end; j++) {
      const p = points[j]!
      const area = Math.abs((a.time - avgTime) * (p.price - a.price) - (a.time - p.time) * (avgPrice - a.price))
      if (area > bestArea) {
        bestArea = area
        best = j
      }
    }
    out.push(points[best]!)
    kept = best
  }
  out.push(points[points.length - 1]!)
  return out
}

export interface ChartSummary {
  readonly first?: ChartPoint
  readonly last?: ChartPoint
  /** Percent change of the period (last against first), for display; undefined without two points or from 0. */
  readonly changePercent?: number
}

export const summarize = (points: ReadonlyArray<ChartPoint>): ChartSummary => {
  const first = points[0]
  const last = points[points.length - 1]
  if (!first || !last || points.length < 2 || first.price === 0) return { ...(first ? { first } : {}), ...(last ? { last } : {}) }
  return { first, last, changePercent: ((last.price - first.price) / first.price) * 100 }
}

/** The rate at `time`: the last point at or before it, else the first point after it (undefined on an empty series). */
export const rateAt = (points: ReadonlyArray<ChartPoint>, time: number): number | undefined => {
  if (points.length === 0) return undefined
  let lo = 0
  let hi = points.length - 1
  if (time < points[0]!.time) return points[0]!.price
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2)
    if (points[mid]!.time <= time) lo = mid
    else hi = mid - 1
  }
  return points[lo]!.price
}

/**
 * One series from several periods' series (PnL prices old flows from "all" and recent ones from
 * "day"): a finer series (more points per second) wins inside its own time range, coarser points
 * there are dropped; the result is ascending and de-duplicated.
 */
export const mergeSeries = (...series: ReadonlyArray<ReadonlyArray<ChartPoint>>): ReadonlyArray<ChartPoint> => {
  const density = (s: ReadonlyArray<ChartPoint>) => (s.length < 2 ? 0 : (s.length - 1) / Math.max(1, s[s.length - 1]!.time - s[0]!.time))
  const ordered = series
    .filter((s) => s.length > 0)
    .slice()
    .sort((a, b) => density(b) - density(a))
  const ranges: Array<readonly [number, number]> = []
  const kept: Array<readonly [number, number]> = []
  for (const s of ordered) {
    const covered = (time: number) => ranges.some(([from, to]) => time >= from && time <= to)
    for (const point of s) if (!covered(point.time)) kept.push([point.time, point.price])
    ranges.push([s[0]!.time, s[s.length - 1]!.time])
  }
  return normalizePoints(kept)
}
