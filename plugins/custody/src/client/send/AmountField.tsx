import type { ReactNode } from "react"
import { AmountInput, Button } from "@wallet/kernel-react/ui"
import styles from "./send.module.css"

/** The amount of a send or a transfer: the kit's string-based input, a Max button, the error, and optional lines under it. */
export function AmountField(props: {
  readonly id: string
  readonly label: string
  readonly maxLabel: string
  readonly value: string
  readonly onChange: (value: string) => void
  readonly decimals: number
  readonly currency: string | undefined
  readonly language: string
  readonly error: string | undefined
  readonly disabled?: boolean
  readonly maxDisabled: boolean
  readonly onMax: () => void
  /** Lines under the field (available balance, fee), announced politely. */
  readonly meta?: ReactNode
}) {
  const metaId = props.meta === undefined ? undefined : `${props.id}-meta`
  return (
    <div className={styles.field}>
      <label className={styles.fieldLabel} htmlFor={props.id}>
        {props.label}
      </label>
      <div className={styles.amountBox}>
        <AmountInput
          id={props.id}
          value={props.value}
          onChange={props.onChange}
          decimals={props.decimals}
          currency={props.currency}
          decimalSeparator={props.language === "ru" ? "," : "."}
          invalid={props.error !== undefined}
          {...(props.disabled ? { disabled: true } : {})}
          {...(metaId ? { "aria-describedby": metaId } : {})}
        />
        <Button look="secondary" size="s" disabled={props.maxDisabled} onClick={props.onMax}>
          {props.maxLabel}
        </Button>
      </div>
      {props.error && (
        <p className={styles.error} role="alert">
          {props.error}
        </p>
      )}
      {metaId && (
        <div className={styles.meta} id={metaId} aria-live="polite">
          {props.meta}
        </div>
      )}
    </div>
  )
}
