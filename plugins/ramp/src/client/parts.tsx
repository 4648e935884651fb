/** Pieces the ramp screens share: the page frame, the load error, the fiat picker, provider names. */
import type { CSSProperties, ReactNode } from "react"
import { useT } from "@wallet/kernel-react"
import { Button, Placeholder, SkeletonList } from "@wallet/kernel-react/ui"
import type { Provider } from "../domain.ts"

export const NS = "ramp"

export const pageStyle: CSSProperties = { padding: "16px 0 96px" }
export const titleStyle: CSSProperties = { margin: "8px 16px 16px", fontSize: 28, lineHeight: 1.2 }
export const padStyle: CSSProperties = { padding: "8px 16px" }
export const hintStyle: CSSProperties = { margin: "4px 16px", fontSize: 14, color: "var(--tg-theme-hint-color, #707579)" }
export const alertStyle: CSSProperties = { margin: "8px 16px", fontSize: 14, color: "var(--tg-theme-destructive-text-color, #e53935)" }
const selectStyle: CSSProperties = {
  width: "100%",
  minHeight: 44,
  padding: "0 12px",
  borderRadius: 12,
  border: "1px solid var(--tg-theme-section-separator-color, #d0d0d0)",
  background: "var(--tg-theme-section-bg-color, #fff)",
  color: "var(--tg-theme-text-color, #000)",
  fontSize: 16,
}

export const PROVIDER_NAMES: Readonly<Record<Provider, string>> = { moonpay: "MoonPay", mercuryo: "Mercuryo" }

export function Page({ title, children }: { readonly title: string; readonly children: ReactNode }) {
  return (
    <main style={pageStyle}>
      <h1 style={titleStyle}>{title}</h1>
      {children}
    </main>
  )
}

export function Loading({ label }: { readonly label: string }) {
  return <SkeletonList rows={3} label={label} />
}

export function LoadError({ onRetry }: { readonly onRetry: () => void }) {
  const t = useT(NS)
  return (
    <Placeholder
      kind="error"
      title={t("loadError")}
      action={
        <Button look="secondary" size="s" onClick={onRetry}>
          {t("retry")}
        </Button>
      }
    />
  )
}

/** The fiat currency choice: a native select (keyboard and screen readers work as the platform does). */
export function FiatSelect({
  value,
  fiats,
  onChange,
}: {
  readonly value: string
  readonly fiats: ReadonlyArray<string>
  readonly onChange: (fiat: string) => void
}) {
  const t = useT(NS)
  const list = fiats.includes(value) ? fiats : [value, ...fiats]
  return (
    <label style={{ display: "block", ...padStyle }}>
      <span style={{ display: "block", fontSize: 14, marginBottom: 6 }}>{t("fiat.label")}</span>
      <select style={selectStyle} value={value} onChange={(event) => onChange(event.target.value)} data-testid="ramp-fiat">
        {list.map((code) => (
          <option key={code} value={code}>
            {code}
          </option>
        ))}
      </select>
    </label>
  )
}
