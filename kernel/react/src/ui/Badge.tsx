import type { HTMLAttributes, ReactNode } from "react"
import styles from "./Badge.module.css"
import { IconButton } from "./IconButton.tsx"
import { cx } from "./utils.ts"

export interface BadgeProps extends HTMLAttributes<HTMLSpanElement> {
  tone?: "accent" | "destructive" | "success" | "neutral"
}

/** A small pill ("NEW", a count) next to a title. */
export function Badge({ tone = "accent", className, ...rest }: BadgeProps) {
  return <span {...rest} className={cx(styles.root, styles[tone], className)} />
}

export interface BannerProps extends Omit<HTMLAttributes<HTMLDivElement>, "title"> {
  tone?: "info" | "accent" | "warning" | "error"
  icon?: ReactNode
  title?: ReactNode
  description?: ReactNode
  /** Usually a plain <Button size="s">. */
  action?: ReactNode
  /** With `closeLabel`, shows a × that calls this. */
  onClose?: () => void
  closeLabel?: string
}

/** An inline notice (degradation, KYC, terms, promo). Warnings and errors are announced (role=alert). */
export function Banner({ tone = "info", icon, title, description, action, onClose, closeLabel, className, children, ...rest }: BannerProps) {
  return (
    <div role={tone === "error" || tone === "warning" ? "alert" : undefined} {...rest} className={cx(styles.banner, className)} data-tone={tone}>
      {icon !== undefined && icon !== null && (
        <span className={styles.bannerIcon} aria-hidden="true">
          {icon}
        </span>
      )}
      <div className={styles.bannerBody}>
        {title !== undefined && title !== null && <span className={styles.bannerTitle}>{title}</span>}
        {description !== undefined && description !== null && <span className={styles.bannerText}>{description}</span>}
        {children}
        {action !== undefined && action !== null && <span className={styles.bannerAction}>{action}</span>}
      </div>
      {onClose && closeLabel && (
        <IconButton aria-label={closeLabel} size="s" onClick={onClose} style={{ color: "var(--wk-color-hint)" }}>
          <svg width="12" height="12" viewBox="0 0 12 12" aria-hidden="true" focusable="false">
            <path d="M1 1l10 10M11 1L1 11" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" />
          </svg>
        </IconButton>
      )}
    </div>
  )
}
