import { useRef, type KeyboardEvent } from "react"
import styles from "./SegmentedControl.module.css"
import { cx } from "./utils.ts"

export interface SegmentedControlItem<T extends string> {
  value: T
  label: string
  disabled?: boolean
}

export interface SegmentedControlProps<T extends string> {
  items: ReadonlyArray<SegmentedControlItem<T>>
  value: T
  onChange: (value: T) => void
  "aria-label"?: string
  "aria-labelledby"?: string
  /** Full width, equal segments. */
  stretched?: boolean
  className?: string
}

/**
 * A small exclusive choice (crypto / TON, buy / sell, pay / receive): a radio group with one tab
 * stop; arrow keys, Home and End move and select.
 */
export function SegmentedControl<T extends string>({ items, value, onChange, stretched = false, className, ...aria }: SegmentedControlProps<T>) {
  const refs = useRef<Array<HTMLButtonElement | null>>([])
  const enabled = items.map((item, i) => (item.disabled ? -1 : i)).filter((i) => i >= 0)
  const selected = items.findIndex((item) => item.value === value)
  const tabStop = selected >= 0 && !items[selected]?.disabled ? selected : (enabled[0] ?? -1)

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (enabled.length === 0) return
    const pos = Math.max(0, enabled.indexOf(tabStop))
    const rtl = getComputedStyle(event.currentTarget).direction === "rtl"
    const step = { ArrowRight: rtl ? -1 : 1, ArrowDown: 1, ArrowLeft: rtl ? 1 : -1, ArrowUp: -1 }[event.key]
    let next: number | undefined
    if (step !== undefined) next = enabled[(pos + step + enabled.length) % enabled.length]
    else if (event.key === "Home") next = enabled[0]
    else if (event.key === "End") next = enabled[enabled.length - 1]
    if (next === undefined) return
    event.preventDefault()
    const item = items[next]
    if (!item) return
    refs.current[next]?.focus()
    if (item.value !== value) onChange(item.value)
  }

  return (
    <div role="radiogroup" {...aria} className={cx(styles.root, stretched && styles.stretched, className)} onKeyDown={onKeyDown}>
      {items.map((item, i) => (
        <button
          key={item.value}
          ref={(el) => {
            refs.current[i] = el
          }}
          type="button"
          role="radio"
          aria-checked={item.value === value}
          tabIndex={i === tabStop ? 0 : -1}
          disabled={item.disabled}
          className={styles.item}
          onClick={() => item.value !== value && onChange(item.value)}
        >
          {item.label}
        </button>
      ))}
    </div>
  )
}
