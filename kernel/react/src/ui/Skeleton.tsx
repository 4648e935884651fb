import type { CSSProperties } from "react"
import styles from "./Skeleton.module.css"
import { cx } from "./utils.ts"

export type SkeletonShape = "text" | "circle" | "rect"

export interface SkeletonProps {
  shape?: SkeletonShape
  /** CSS length or px number. Text defaults to 100%, circle to 40. */
  width?: number | string
  height?: number | string
  /** Text only: number of lines; the last one is 60% wide. */
  lines?: number
  radius?: number | string
  /** Shimmer (off under prefers-reduced-motion anyway). */
  animated?: boolean
  className?: string
  style?: CSSProperties
}

const len = (v: number | string | undefined) => (typeof v === "number" ? `${v}px` : v)

/** A decorative placeholder shape; always aria-hidden (announce loading on the container). */
export function Skeleton({ shape = "text", width, height, lines = 1, radius, animated = true, className, style }: SkeletonProps) {
  const cls = cx(styles.root, styles[shape], animated && styles.animated, className)
  if (shape === "text" && lines > 1) {
    return (
      <span aria-hidden="true" style={{ display: "block", width: len(width) ?? "100%" }}>
        {Array.from({ length: lines }, (_, i) => (
          <span
            key={i}
            className={cls}
            data-shape="text"
            style={{ ...style, width: i === lines - 1 ? "60%" : "100%", height: len(height), borderRadius: len(radius) }}
          />
        ))}
      </span>
    )
  }
  const side = shape === "circle" ? 40 : undefined
  return (
    <span
      aria-hidden="true"
      className={cls}
      data-shape={shape}
      style={{
        ...style,
        width: len(width ?? side) ?? "100%",
        height: len(height ?? (shape === "circle" ? (width ?? side) : undefined)),
        borderRadius: len(radius),
      }}
    />
  )
}
