import type { HTMLAttributes } from "react"
import styles from "./VisuallyHidden.module.css"
import { cx } from "./utils.ts"

/** Text for assistive technology only. */
export function VisuallyHidden({ className, ...rest }: HTMLAttributes<HTMLSpanElement>) {
  return <span {...rest} className={cx(styles.root, className)} />
}
