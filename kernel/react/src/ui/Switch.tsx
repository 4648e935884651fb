import type { InputHTMLAttributes, Ref } from "react"
import styles from "./Switch.module.css"
import { cx } from "./utils.ts"

export interface SwitchProps extends Omit<InputHTMLAttributes<HTMLInputElement>, "type" | "onChange" | "role"> {
  checked: boolean
  onChange: (checked: boolean) => void
  /** Label it with aria-label, aria-labelledby (e.g. the cell title's id) or a wrapping <label>. */
  "aria-label"?: string
  ref?: Ref<HTMLInputElement>
}

/** An on/off toggle: a native checkbox with role="switch" (Space toggles, form-friendly). */
export function Switch({ checked, onChange, className, ref, ...rest }: SwitchProps) {
  return (
    <span className={cx(styles.root, className)}>
      <input
        {...rest}
        ref={ref}
        type="checkbox"
        role="switch"
        className={styles.input}
        checked={checked}
        aria-checked={checked}
        onChange={(e) => onChange(e.currentTarget.checked)}
      />
      <span className={styles.track} aria-hidden="true">
        <span className={styles.thumb} />
      </span>
    </span>
  )
}
