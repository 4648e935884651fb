/** Pieces the maker's and profile screens share: the load error, a message placeholder, the draft's storage, refusal texts. */
import type { CSSProperties, ReactNode } from "react"
import { useT } from "@wallet/kernel-react"
import { Button, Placeholder } from "@wallet/kernel-react/ui"
import { DRAFT_KEY, parseDraft, serialiseDraft, type OfferDraft } from "./maker.ts"
import { pageStyle } from "./marketParts.tsx"

export const subtitleStyle: CSSProperties = { margin: "-4px 16px 12px", color: "var(--wk-color-hint)", lineHeight: 1.4 }
export const noteStyle: CSSProperties = {
  margin: "4px 16px 8px",
  color: "var(--wk-color-hint)",
  fontSize: "var(--wk-font-size-footnote, 13px)",
  lineHeight: 1.4,
}
export const fieldBoxStyle: CSSProperties = { padding: "8px 16px", display: "flex", flexDirection: "column", gap: 6 }
export const labelStyle: CSSProperties = {
  fontSize: "var(--wk-font-size-subheadline, 15px)",
  color: "var(--wk-color-section-header-text, var(--wk-color-hint))",
}
export const problemStyle: CSSProperties = { margin: 0, color: "var(--wk-color-destructive)", fontSize: 14 }
export const selectStyle: CSSProperties = {
  font: "inherit",
  padding: "10px 12px",
  borderRadius: "var(--wk-radius-m, 10px)",
  border: "1px solid var(--wk-color-separator)",
  background: "var(--wk-color-section-bg, var(--wk-color-bg))",
  color: "var(--wk-color-text)",
}

/** A read failed: say so and offer a retry (role=alert comes with the error placeholder). */
export function MakerLoadError({ retry }: { readonly retry: () => void }) {
  const t = useT("p2p")
  return (
    <Placeholder
      kind="error"
      title={t("maker.loadError")}
      action={
        <Button look="secondary" size="s" onClick={retry}>
          {t("maker.retry")}
        </Button>
      }
    />
  )
}

/** A whole page saying one thing (not found, nothing to preview), with an optional way on. */
export function MessagePage({
  title,
  description,
  action,
  testId,
}: {
  readonly title: string
  readonly description?: string
  readonly action?: ReactNode
  readonly testId?: string
}) {
  return (
    <main style={pageStyle} data-testid={testId}>
      <Placeholder title={title} description={description} action={action} />
    </main>
  )
}

/** The i18n key of a refusal the maker's screens explain; anything else reads as the generic message. */
export const makerErrorKey = (code: string | undefined): string =>
  code !== undefined &&
  [
    "insufficient_funds",
    "invalid_offer",
    "verification_limit",
    "payment_method_required",
    "invalid_payment_details",
    "amount_out_of_limits",
    "offer_state_changed",
    "offer_not_found",
    "payment_details_not_found",
    "wrong_side",
    "p2p_unavailable",
  ].includes(code)
    ? `maker.errors.${code}`
    : "maker.errors.generic"

/** The stored offer draft (sessionStorage; null when absent, corrupt or storage is closed). */
export const readDraft = (): OfferDraft | null => {
  try {
    return parseDraft(window.sessionStorage.getItem(DRAFT_KEY))
  } catch {
    return null
  }
}

export const writeDraft = (draft: OfferDraft): void => {
  try {
    window.sessionStorage.setItem(DRAFT_KEY, serialiseDraft(draft))
  } catch {
    // Storage full or closed: the form still works; only a reload loses it.
  }
}

export const clearDraft = (): void => {
  try {
    window.sessionStorage.removeItem(DRAFT_KEY)
  } catch {
    // nothing stored
  }
}

/** Back in history when there is some, else `fallback`. */
export const backOr = (fallback: () => void): void => {
  if (window.history.length > 1) window.history.back()
  else fallback()
}
