import { useId, type HTMLAttributes, type ReactNode } from "react"
import styles from "./List.module.css"
import { cx } from "./utils.ts"

/** Vertical stack of sections with the screen's side padding. */
export function List({ className, ...rest }: HTMLAttributes<HTMLDivElement>) {
  return <div {...rest} className={cx(styles.list, className)} />
}

export interface SectionHeaderProps extends Omit<HTMLAttributes<HTMLHeadingElement>, "children"> {
  children: ReactNode
  /** Right-aligned slot (e.g. a "See all" button). */
  after?: ReactNode
  /** Heading level for assistive technology; default 2. */
  level?: 2 | 3 | 4
  /** Big bold header instead of the small caps caption. */
  large?: boolean
}

export function SectionHeader({ children, after, level = 2, large = false, className, ...rest }: SectionHeaderProps) {
  const H = `h${level}` as "h2" | "h3" | "h4"
  return (
    <div className={cx(styles.header, large && styles.large, className)}>
      <H {...rest} style={{ font: "inherit", margin: 0 }}>
        {children}
      </H>
      {after !== undefined && <span className={styles.headerAfter}>{after}</span>}
    </div>
  )
}

export function SectionFooter({ className, ...rest }: HTMLAttributes<HTMLDivElement>) {
  return <div {...rest} className={cx(styles.footer, className)} />
}

export interface SectionProps extends Omit<HTMLAttributes<HTMLElement>, "title"> {
  /** A string becomes a <SectionHeader> that also labels the section; any other node is rendered as is. */
  header?: ReactNode
  /** A string becomes a <SectionFooter>. */
  footer?: ReactNode
  /** Class of the rounded card holding the cells. */
  bodyClassName?: string
}

/** A titled group of cells on a rounded card. */
export function Section({ header, footer, children, className, bodyClassName, ...rest }: SectionProps) {
  const headerId = useId()
  const textHeader = typeof header === "string"
  return (
    <section
      {...rest}
      aria-labelledby={rest["aria-labelledby"] ?? (textHeader && !rest["aria-label"] ? headerId : undefined)}
      className={cx(styles.section, className)}
    >
      {textHeader ? <SectionHeader id={headerId}>{header}</SectionHeader> : header}
      <div className={cx(styles.body, bodyClassName)}>{children}</div>
      {typeof footer === "string" ? <SectionFooter>{footer}</SectionFooter> : footer}
    </section>
  )
}
