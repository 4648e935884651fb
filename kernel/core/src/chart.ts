/**
 * The one line chart's geometry (decision 0130): a price series as one inline SVG path, no chart
 * library. Prices are only drawn, never summed or shown as money, so plain numbers are fine.
 */
export interface ChartPoint {
  /** Unix time in seconds or milliseconds (only the order matters). */
  readonly time: number
  readonly price: number
}

export interface ChartGeometry {
  /** The line, `M x,y L x,y …`; empty with fewer than two points. */
  readonly line: string
  /** The line closed down to the bottom edge, for a soft fill. */
  readonly area: string
  readonly min: number
  readonly max: number
  /** Direction of the whole period: last price against the first. */
  readonly trend: "up" | "down" | "flat"
}

const round = (value: number) => Math.round(value * 10) / 10

/** Scales the points into a `width` x `height` box (time left to right, higher prices up). */
export function chartGeometry(points: ReadonlyArray<ChartPoint>, width: number, height: number, padding = 4): ChartGeometry {
  const valid = points
    .filter((point) => Number.isFinite(point.price) && Number.isFinite(point.time))
    .slice()
    .sort((a, b) => a.time - b.time)
  if (valid.length < 2) return { line: "", area: "", min: valid[0]?.price ?? 0, max: valid[0]?.price ?? 0, trend: "flat" }
  const prices = valid.map((point) => point.price)
  const min = Math.min(...prices)
  const max = Math.max(...prices)
  const first = valid[0]!
  const last = valid[valid.length - 1]!
  const span = last.time - first.time || 1
  const range = max - min
  const x = (time: number) => round(((time - first.time) / span) * width)
  const y = (price: number) => round(range === 0 ? height / 2 : padding + (1 - (price - min) / range) * (height - 2 * padding))
  const line = valid.map((point, i) => `${i === 0 ? "M" : "L"}${x(point.time)},${y(point.price)}`).join(" ")
  const area = `${line} L${x(last.time)},${height} L${x(first.time)},${height} Z`
  const trend = last.price > first.price ? "up" : last.price < first.price ? "down" : "flat"
  return { line, area, min, max, trend }
}
