import type { SVGProps } from "react"
import type { ChartGeometry } from "@wallet/kernel"
import { cx } from "./utils.ts"
import styles from "./LineChart.module.css"

export interface LineChartProps extends Omit<SVGProps<SVGSVGElement>, "viewBox" | "children"> {
  /** The series scaled by `chartGeometry(points, width, height)` from `@wallet/kernel`. */
  readonly geometry: ChartGeometry
  /** The box `geometry` was computed for (the SVG stretches it to its CSS size). */
  readonly width: number
  readonly height: number
}

const TONE = {
  up: { line: styles.up, area: styles.areaUp },
  down: { line: styles.down, area: styles.areaDown },
  flat: { line: styles.flat, area: styles.areaFlat },
}

/**
 * The one line chart (decision 0130): the line over a soft area, coloured by the period's trend.
 * Give it a height with `className`; `role="img"` wants an `aria-label` from the caller.
 */
export function LineChart({ geometry, width, height, className, ...svg }: LineChartProps) {
  const tone = TONE[geometry.trend]
  return (
    <svg className={cx(styles.svg, className)} viewBox={`0 0 ${width} ${height}`} preserveAspectRatio="none" role="img" data-trend={geometry.trend} {...svg}>
      <path className={cx(styles.area, tone.area)} d={geometry.area} />
      <path className={cx(styles.line, tone.line)} d={geometry.line} />
    </svg>
  )
}
