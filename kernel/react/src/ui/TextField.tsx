import { useId, type InputHTMLAttributes, type KeyboardEvent, type ReactNode, type Ref, type TextareaHTMLAttributes } from "react"
import { IconButton } from "./IconButton.tsx"
import styles from "./TextField.module.css"
import { cx } from "./utils.ts"

type Shared = {
  /** Visible label (also the accessible name). Use aria-label when there is none. */
  label?: ReactNode
  value: string
  onChange: (value: string) => void
  /** Helper text under the field. */
  hint?: ReactNode
  /** Error text under the field; also sets aria-invalid. */
  error?: ReactNode
  before?: ReactNode
  after?: ReactNode
  className?: string
}

export type TextFieldProps =
  | (Shared & { multiline?: false; ref?: Ref<HTMLInputElement> } & Omit<InputHTMLAttributes<HTMLInputElement>, "value" | "onChange" | "className">)
  | (Shared & { multiline: true; ref?: Ref<HTMLTextAreaElement> } & Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, "value" | "onChange" | "className">)

/** Labelled text input (address, comment, memo); `multiline` makes it a textarea. */
export function TextField(props: TextFieldProps) {
  const { label, value, onChange, hint, error, before, after, className, ...rest } = props
  const id = useId()
  const inputId = rest.id ?? `${id}-input`
  const hintId = `${id}-hint`
  const errorId = `${id}-error`
  const hasError = error !== undefined && error !== null && error !== false && error !== ""
  const describedBy = cx(rest["aria-describedby"], hint !== undefined && hint !== null && hintId, hasError && errorId) || undefined
  const common = {
    id: inputId,
    className: styles.control,
    value,
    "aria-invalid": hasError || undefined,
    "aria-describedby": describedBy,
  }
  let control: ReactNode
  if (rest.multiline) {
    const { multiline: _m, ref, ...textarea } = rest
    control = <textarea rows={3} {...textarea} {...common} ref={ref} onChange={(e) => onChange(e.currentTarget.value)} />
  } else {
    const { multiline: _m, ref, ...input } = rest
    control = <input type="text" {...input} {...common} ref={ref} onChange={(e) => onChange(e.currentTarget.value)} />
  }
  return (
    <div className={cx(styles.field, hasError && styles.invalid, className)}>
      {label !== undefined && label !== null && (
        <label className={styles.label} htmlFor={inputId}>
          {label}
        </label>
      )}
      <div className={styles.box}>
        {before !== undefined && before !== null && <span className={styles.slot}>{before}</span>}
        {control}
        {after !== undefined && after !== null && <span className={styles.slot}>{after}</span>}
      </div>
      {hint !== undefined && hint !== null && (
        <div id={hintId} className={styles.hint}>
          {hint}
        </div>
      )}
      {hasError && (
        <div id={errorId} className={styles.error} role="alert">
          {error}
        </div>
      )}
    </div>
  )
}

export interface SearchInputProps extends Omit<InputHTMLAttributes<HTMLInputElement>, "value" | "onChange" | "type"> {
  value: string
  onChange: (value: string) => void
  /** Accessible name (the placeholder is not one). */
  "aria-label": string
  /** Accessible name of the clear (×) button. */
  clearLabel: string
  /** Leading icon (decorative). */
  icon?: ReactNode
  ref?: Ref<HTMLInputElement>
}

function ClearIcon() {
  return (
    <svg width="16" height="16" viewBox="0 0 16 16" aria-hidden="true" focusable="false">
      <circle cx="8" cy="8" r="8" fill="currentColor" opacity="0.5" />
      <path d="M5.5 5.5l5 5M10.5 5.5l-5 5" stroke="var(--wk-color-section-bg)" strokeWidth="1.6" strokeLinecap="round" />
    </svg>
  )
}

/** Search box: type=search, a clear button while non-empty, Escape clears. */
export function SearchInput({ value, onChange, clearLabel, icon, className, ref, onKeyDown, ...rest }: SearchInputProps) {
  const handleKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    onKeyDown?.(event)
    if (!event.defaultPrevented && event.key === "Escape" && value !== "") {
      event.preventDefault()
      event.stopPropagation()
      onChange("")
    }
  }
  return (
    <div className={cx(styles.box, styles.search, className)}>
      {icon !== undefined && icon !== null && (
        <span className={styles.slot} aria-hidden="true">
          {icon}
        </span>
      )}
      <input
        {...rest}
        ref={ref}
        type="search"
        enterKeyHint={rest.enterKeyHint ?? "search"}
        autoComplete={rest.autoComplete ?? "off"}
        className={styles.control}
        value={value}
        onChange={(e) => onChange(e.currentTarget.value)}
        onKeyDown={handleKeyDown}
      />
      {value !== "" && (
        <IconButton aria-label={clearLabel} size="s" onClick={() => onChange("")}>
          <ClearIcon />
        </IconButton>
      )}
    </div>
  )
}
