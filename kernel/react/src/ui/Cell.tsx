import type { HTMLAttributes, MouseEventHandler, ReactNode, Ref } from "react"
import styles from "./Cell.module.css"
import { Skeleton } from "./Skeleton.tsx"
import { cx } from "./utils.ts"

export interface CellProps extends Omit<HTMLAttributes<HTMLElement>, "title" | "onClick"> {
  /** Left slot: icon, avatar, checkbox. */
  before?: ReactNode
  /** Right slot. A string is shown as the right title (e.g. a balance). */
  after?: ReactNode
  /** Second line of the right column (e.g. the fiat value). */
  afterSubtitle?: ReactNode
  /** Main text; `children` is used when `title` is absent. */
  title?: ReactNode
  /** Second line, smaller and muted. */
  subtitle?: ReactNode
  /** Third line, caption size. */
  description?: ReactNode
  /** Trailing disclosure arrow. */
  chevron?: boolean
  /** Makes the cell a native <button> (keyboard operable, focusable). */
  onClick?: MouseEventHandler<HTMLElement>
  disabled?: boolean
  /** Let texts wrap instead of ending in an ellipsis. */
  multiline?: boolean
  /** Title colour. */
  tone?: "default" | "accent" | "destructive"
  ref?: Ref<HTMLElement>
}

function Chevron() {
  return (
    <svg className={styles.chevron} width="8" height="14" viewBox="0 0 8 14" aria-hidden="true" focusable="false">
      <path d="M1 1l6 6-6 6" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  )
}

/** One row of a section. */
export function Cell({
  before,
  after,
  afterSubtitle,
  title,
  subtitle,
  description,
  chevron = false,
  onClick,
  disabled = false,
  multiline = false,
  tone = "default",
  className,
  children,
  ref,
  ...rest
}: CellProps) {
  const cls = cx(styles.cell, multiline && styles.multiline, tone === "accent" && styles.accent, tone === "destructive" && styles.destructive, className)
  const hasAfter = (after !== undefined && after !== null) || (afterSubtitle !== undefined && afterSubtitle !== null)
  const content = (
    <>
      {before !== undefined && before !== null && <span className={styles.before}>{before}</span>}
      <span className={styles.main}>
        <span className={styles.body}>
          <span className={styles.title}>{title ?? children}</span>
          {subtitle !== undefined && subtitle !== null && <span className={styles.subtitle}>{subtitle}</span>}
          {description !== undefined && description !== null && <span className={styles.description}>{description}</span>}
        </span>
        {hasAfter && (
          <span className={styles.after}>
            {typeof after === "string" || typeof after === "number" ? <span className={styles.afterTitle}>{after}</span> : after}
            {afterSubtitle !== undefined && afterSubtitle !== null && <span className={styles.afterSubtitle}>{afterSubtitle}</span>}
          </span>
        )}
        {chevron && <Chevron />}
      </span>
    </>
  )
  if (onClick) {
    return (
      <button
        {...rest}
        ref={ref as Ref<HTMLButtonElement>}
        type="button"
        className={cls}
        disabled={disabled}
        data-disabled={disabled || undefined}
        onClick={onClick}
      >
        {content}
      </button>
    )
  }
  return (
    <div {...rest} ref={ref as Ref<HTMLDivElement>} className={cls} aria-disabled={disabled || undefined} data-disabled={disabled || undefined}>
      {content}
    </div>
  )
}

export interface CellSkeletonProps {
  /** Avatar-sized circle on the left (default true). */
  before?: boolean
  /** Second text line (default true). */
  subtitle?: boolean
  /** Right column (default true). */
  after?: boolean
  className?: string
}

/** A cell-shaped loading placeholder (decorative: announce loading on the container). */
export function CellSkeleton({ before = true, subtitle = true, after = true, className }: CellSkeletonProps) {
  return (
    <div className={cx(styles.cell, className)} aria-hidden="true" data-skeleton="">
      {before && (
        <span className={styles.before}>
          <Skeleton shape="circle" width={40} />
        </span>
      )}
      <span className={styles.main} style={{ minHeight: 60 }}>
        <span className={styles.skeletonBody}>
          <Skeleton shape="text" width="45%" height={14} />
          {subtitle && <Skeleton shape="text" width="30%" height={12} />}
        </span>
        {after && (
          <span className={styles.skeletonBody} style={{ flex: "none", width: "22%", alignItems: "flex-end" }}>
            <Skeleton shape="text" width="100%" height={14} />
            {subtitle && <Skeleton shape="text" width="70%" height={12} />}
          </span>
        )}
      </span>
    </div>
  )
}
