/** Pieces the market and order screens share: the page frame, the load error, not found, a ticking clock. */
import { useEffect, useState, type CSSProperties, type ReactNode } from "react"
import { useT } from "@wallet/kernel-react"
import { Button, Placeholder } from "@wallet/kernel-react/ui"

export const pageStyle: CSSProperties = { padding: "8px 0 calc(24px + var(--wk-tab-bar-height, 0px) + var(--wk-safe-area-bottom, 0px))" }
export const titleStyle: CSSProperties = {
  margin: "8px 16px 12px",
  fontSize: "var(--wk-font-size-title1, 28px)",
  fontWeight: "var(--wk-font-weight-bold, 700)" as CSSProperties["fontWeight"],
}
export const leadStyle: CSSProperties = { margin: "0 16px 16px", color: "var(--wk-color-hint)", lineHeight: 1.4 }
export const padStyle: CSSProperties = { padding: "8px 16px", display: "flex", flexDirection: "column", gap: 8 }
export const alertStyle: CSSProperties = { margin: "8px 16px", color: "var(--wk-color-destructive)" }
export const chipRowStyle: CSSProperties = { display: "flex", gap: 8, overflowX: "auto", padding: "4px 16px 8px" }

/** A small toggle chip (crypto, payment method filters): a button with aria-pressed. */
export function Chip({
  pressed,
  onClick,
  children,
  testId,
}: {
  readonly pressed: boolean
  readonly onClick: () => void
  readonly children: ReactNode
  readonly testId?: string
}) {
  return (
    <button
      type="button"
      aria-pressed={pressed}
      data-testid={testId}
      onClick={onClick}
      style={{
        flex: "none",
        border: "none",
        borderRadius: "var(--wk-radius-pill, 999px)",
        padding: "6px 14px",
        font: "inherit",
        fontSize: "var(--wk-font-size-subheadline, 15px)",
        cursor: "pointer",
        background: pressed ? "var(--wk-color-button)" : "var(--wk-color-button-secondary-bg, var(--wk-color-secondary-bg))",
        color: pressed ? "var(--wk-color-button-text)" : "var(--wk-color-text)",
      }}
    >
      {children}
    </button>
  )
}

/** The read failed: say so and offer a retry (role=alert comes with the error placeholder). */
export function LoadError({ retry, title }: { readonly retry: () => void; readonly title?: string }) {
  const t = useT("p2p")
  return (
    <Placeholder
      kind="error"
      title={title ?? t("market.loadError")}
      action={
        <Button look="secondary" size="s" onClick={retry}>
          {t("market.retry")}
        </Button>
      }
    />
  )
}

/** A path id that is not a number, or a record the server does not know. */
export function NotFound({ kind, action }: { readonly kind: "order" | "offer"; readonly action?: ReactNode }) {
  const t = useT("p2p")
  return (
    <main style={pageStyle}>
      <Placeholder title={t(kind === "order" ? "order.notFound" : "market.offerNotFound")} action={action} />
    </main>
  )
}

/** The time now, ticking every second while `active`. */
export function useNow(active: boolean): number {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    if (!active) return
    const timer = setInterval(() => setNow(Date.now()), 1000)
    return () => clearInterval(timer)
  }, [active])
  return now
}

/** A checkbox with its label (the confirm screens). */
export function CheckRow({
  checked,
  onChange,
  label,
  testId,
}: {
  readonly checked: boolean
  readonly onChange: (checked: boolean) => void
  readonly label: string
  readonly testId?: string
}) {
  return (
    <label style={{ display: "flex", gap: 12, alignItems: "flex-start", padding: "12px 16px", cursor: "pointer", lineHeight: 1.4 }}>
      <input
        type="checkbox"
        checked={checked}
        data-testid={testId}
        onChange={(event) => onChange(event.currentTarget.checked)}
        style={{ width: 20, height: 20, flex: "none", margin: 0, accentColor: "var(--wk-color-button)" }}
      />
      <span>{label}</span>
    </label>
  )
}

/** Formats an ISO time for the locale; the raw text when it does not parse. */
export const formatTime = (iso: string | null, locale: string): string => {
  if (iso === null) return "—"
  const ms = Date.parse(iso)
  if (Number.isNaN(ms)) return iso
  try {
    return new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short" }).format(ms)
  } catch {
    return iso
  }
}

/** One choice of a radio group (payment method, payment details), with its label and an optional second line. */
export function RadioRow({
  name,
  checked,
  onChange,
  label,
  detail,
  testId,
}: {
  readonly name: string
  readonly checked: boolean
  readonly onChange: () => void
  readonly label: string
  readonly detail?: string
  readonly testId?: string
}) {
  return (
    <label style={{ display: "flex", gap: 12, alignItems: "center", padding: "12px 16px", cursor: "pointer" }}>
      <input
        type="radio"
        name={name}
        checked={checked}
        data-testid={testId}
        onChange={onChange}
        style={{ width: 20, height: 20, flex: "none", margin: 0, accentColor: "var(--wk-color-button)" }}
      />
      <span style={{ display: "flex", flexDirection: "column", gap: 2, minWidth: 0 }}>
        <span>{label}</span>
        {detail !== undefined && <span style={{ color: "var(--wk-color-hint)", fontSize: 14 }}>{detail}</span>}
      </span>
    </label>
  )
}
