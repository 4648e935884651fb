import { useId, useLayoutEffect, useRef, type ChangeEvent, type ClipboardEvent, type InputHTMLAttributes, type ReactNode, type Ref } from "react"
import styles from "./AmountInput.module.css"
import { formatAmountForInput, sanitizeAmountInput, sanitizePastedAmount } from "./amount.ts"
import { cx } from "./utils.ts"

export interface AmountInputProps extends Omit<InputHTMLAttributes<HTMLInputElement>, "value" | "defaultValue" | "onChange" | "type" | "inputMode" | "size"> {
  /** Canonical decimal string with '.' ("", "0", "12.5"). Convert with amountToMinorUnits(). */
  value: string
  onChange: (value: string) => void
  /** Max digits after the separator (the currency's decimals; 0 for whole units). */
  decimals: number
  maxIntegerDigits?: number
  /** Separator shown to the user (from the locale); both ',' and '.' are accepted when typing. */
  decimalSeparator?: "." | ","
  /** Currency label (e.g. "TON", "$"). */
  currency?: ReactNode
  currencyPosition?: "before" | "after"
  size?: "m" | "l"
  /** Error look + aria-invalid (e.g. amount above the balance). */
  invalid?: boolean
  /** Class of the wrapper (`className` goes to the wrapper too). */
  inputClassName?: string
  ref?: Ref<HTMLInputElement>
}

/** Decimal amount field. Never parses to a float: the value stays a string. */
export function AmountInput({
  value,
  onChange,
  decimals,
  maxIntegerDigits,
  decimalSeparator = ".",
  currency,
  currencyPosition = "after",
  size = "m",
  invalid = false,
  disabled,
  className,
  inputClassName,
  placeholder = "0",
  ref,
  onPaste,
  ...rest
}: AmountInputProps) {
  const inputRef = useRef<HTMLInputElement | null>(null)
  const currencyId = useId()
  const pendingCaret = useRef<number | null>(null)
  const display = formatAmountForInput(value, decimalSeparator)
  const rules = { decimals, maxIntegerDigits }

  const setRefs = (el: HTMLInputElement | null) => {
    inputRef.current = el
    if (typeof ref === "function") ref(el)
    else if (ref) ref.current = el
  }

  const applyCaret = () => {
    const el = inputRef.current
    const caret = pendingCaret.current
    if (!el || caret === null || el.ownerDocument.activeElement !== el) return
    const at = Math.min(caret, el.value.length)
    try {
      el.setSelectionRange(at, at)
    } catch {
      // input types without selection
    }
  }

  useLayoutEffect(() => {
    applyCaret()
    pendingCaret.current = null
  })

  const commit = (el: HTMLInputElement, raw: string, caretInRaw: number, next: string | null) => {
    const shown = next === null ? display : formatAmountForInput(next, decimalSeparator)
    pendingCaret.current = Math.max(0, Math.min(shown.length, caretInRaw + (shown.length - raw.length)))
    // A rejected or cleaned edit may re-render nothing. React DOM puts the controlled value back after
    // this handler; Preact, which the app renders with (decision 0011), leaves the typed text: so the
    // field shows what it holds here, on both.
    if (el.value !== shown) el.value = shown
    queueMicrotask(applyCaret)
    if (next !== null && next !== value) onChange(next)
  }

  const handleChange = (event: ChangeEvent<HTMLInputElement>) => {
    const raw = event.target.value
    commit(event.target, raw, event.target.selectionStart ?? raw.length, sanitizeAmountInput(raw, rules))
  }

  const handlePaste = (event: ClipboardEvent<HTMLInputElement>) => {
    onPaste?.(event)
    if (event.defaultPrevented) return
    const pasted = event.clipboardData.getData("text")
    const el = event.currentTarget
    const start = el.selectionStart ?? display.length
    const end = el.selectionEnd ?? start
    const raw = display.slice(0, start) + pasted + display.slice(end)
    event.preventDefault()
    commit(el, raw, start + pasted.length, sanitizeAmountInput(raw, rules) ?? sanitizePastedAmount(raw, rules))
  }

  const label =
    currency !== undefined && currency !== null ? (
      <span id={currencyId} className={styles.currency} aria-hidden="true">
        {currency}
      </span>
    ) : null

  return (
    <div className={cx(styles.root, styles[size], invalid && styles.invalid, disabled && styles.disabled, className)} onClick={() => inputRef.current?.focus()}>
      {currencyPosition === "before" && label}
      <input
        {...rest}
        ref={setRefs}
        className={cx(styles.input, inputClassName)}
        type="text"
        inputMode="decimal"
        autoComplete="off"
        autoCorrect="off"
        spellCheck={false}
        enterKeyHint={rest.enterKeyHint ?? "done"}
        placeholder={placeholder}
        disabled={disabled}
        aria-invalid={invalid || undefined}
        aria-describedby={cx(rest["aria-describedby"], label !== null && currencyId) || undefined}
        value={display}
        // the big variant hugs its text so the currency label follows the number
        style={size === "l" ? { width: `calc(${Math.max(1, (display || placeholder).length)}ch + 2px)`, flex: "none", ...rest.style } : rest.style}
        onChange={handleChange}
        onPaste={handlePaste}
      />
      {currencyPosition === "after" && label}
    </div>
  )
}
