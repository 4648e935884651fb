import type { ButtonHTMLAttributes, MouseEvent, ReactNode, Ref } from "react"
import styles from "./Button.module.css"
import { Spinner } from "./Spinner.tsx"
import { cx } from "./utils.ts"

/** `confirm` is the spec's name of the primary bottom-button look; both render alike. */
export type ButtonLook = "primary" | "confirm" | "secondary" | "destructive" | "plain"
export type ButtonSize = "s" | "m" | "l"

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  look?: ButtonLook
  size?: ButtonSize
  /** Full width. */
  stretched?: boolean
  /** Shows a spinner, keeps the width, ignores clicks, sets aria-busy; the button stays focusable. */
  loading?: boolean
  /** Accessible name of the spinner while loading (i18n, e.g. "Loading"). */
  loadingLabel?: string
  before?: ReactNode
  after?: ReactNode
  ref?: Ref<HTMLButtonElement>
}

export function Button({
  look = "primary",
  size = "l",
  stretched = false,
  loading = false,
  loadingLabel,
  before,
  after,
  className,
  children,
  type = "button",
  onClick,
  ref,
  ...rest
}: ButtonProps) {
  const lookClass = look === "confirm" ? styles.primary : styles[look]
  const handleClick = (event: MouseEvent<HTMLButtonElement>) => {
    if (loading) {
      event.preventDefault()
      return
    }
    onClick?.(event)
  }
  return (
    <button
      {...rest}
      ref={ref}
      type={type}
      className={cx(styles.root, styles[size], lookClass, stretched && styles.stretched, loading && styles.loading, className)}
      aria-busy={loading || undefined}
      aria-disabled={loading || rest["aria-disabled"] || undefined}
      data-look={look}
      onClick={handleClick}
    >
      <span className={styles.content}>
        {before}
        {children}
        {after}
      </span>
      {loading && <Spinner className={styles.spinner} size={size === "l" ? "m" : "s"} label={loadingLabel} />}
    </button>
  )
}
