import type { HTMLAttributes, ReactNode } from "react"
import styles from "./Placeholder.module.css"
import { cx } from "./utils.ts"

export interface PlaceholderProps extends Omit<HTMLAttributes<HTMLDivElement>, "title"> {
  /** Illustration or icon (decorative). */
  icon?: ReactNode
  title?: ReactNode
  description?: ReactNode
  /** Usually a <Button>. */
  action?: ReactNode
  /** Heading level of the title; default 2. */
  headingLevel?: 1 | 2 | 3
  /** "error" also marks the block role="alert" so it is announced. */
  kind?: "empty" | "error"
}

/** Empty and error states. */
export function Placeholder({ icon, title, description, action, headingLevel = 2, kind = "empty", className, children, ...rest }: PlaceholderProps) {
  const H = `h${headingLevel}` as "h1" | "h2" | "h3"
  return (
    <div role={kind === "error" ? "alert" : undefined} {...rest} className={cx(styles.root, className)} data-kind={kind}>
      {icon !== undefined && icon !== null && (
        <div className={styles.icon} aria-hidden="true">
          {icon}
        </div>
      )}
      {title !== undefined && title !== null && <H className={styles.title}>{title}</H>}
      {description !== undefined && description !== null && <p className={styles.description}>{description}</p>}
      {children}
      {action !== undefined && action !== null && <div className={styles.action}>{action}</div>}
    </div>
  )
}
