import styles from "./Spinner.module.css"
import { cx } from "./utils.ts"

export type SpinnerSize = "s" | "m" | "l"
const PX: Record<SpinnerSize, number> = { s: 16, m: 24, l: 40 }

export interface SpinnerProps {
  size?: SpinnerSize | number
  /** Accessible label ("Loading"); without it the spinner is decorative (aria-hidden). */
  label?: string
  className?: string
}

export function Spinner({ size = "m", label, className }: SpinnerProps) {
  const px = typeof size === "number" ? size : PX[size]
  const stroke = Math.max(2, Math.round(px / 10))
  const r = (px - stroke) / 2
  const c = 2 * Math.PI * r
  return (
    <svg
      className={cx(styles.root, className)}
      width={px}
      height={px}
      viewBox={`0 0 ${px} ${px}`}
      {...(label ? { role: "status", "aria-label": label } : { "aria-hidden": true })}
    >
      <circle cx={px / 2} cy={px / 2} r={r} strokeWidth={stroke} strokeDasharray={`${c * 0.7} ${c}`} />
    </svg>
  )
}
