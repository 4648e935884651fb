import type { ButtonHTMLAttributes, Ref } from "react"
import styles from "./IconButton.module.css"
import { cx } from "./utils.ts"

export interface IconButtonProps extends Omit<ButtonHTMLAttributes<HTMLButtonElement>, "aria-label"> {
  /** Required: an icon-only button has no other accessible name. */
  "aria-label": string
  size?: "s" | "m" | "l"
  look?: "plain" | "secondary"
  ref?: Ref<HTMLButtonElement>
}

export function IconButton({ size = "m", look = "plain", className, type = "button", ref, ...rest }: IconButtonProps) {
  return <button {...rest} ref={ref} type={type} className={cx(styles.root, styles[size], styles[look], className)} />
}
