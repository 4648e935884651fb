/** The trusted-merchant badge (issue 21): beside a trader's name on offers, the offer page, the profile and the order. */
import { Icon, useT } from "@wallet/kernel-react"
import { Badge, Cell } from "@wallet/kernel-react/ui"

/**
 * Renders nothing unless `trusted`. A screen reader reads "Trusted merchant" once (the badge is one
 * image with that name); sighted users see a check and "Trusted".
 */
export function TrustedBadge({ trusted, testId = "p2p-trusted-badge" }: { readonly trusted: boolean | undefined; readonly testId?: string }) {
  const t = useT("p2p")
  if (trusted !== true) return null
  return (
    <Badge
      tone="success"
      role="img"
      aria-label={t("merchant.badge.label")}
      title={t("merchant.badge.label")}
      data-testid={testId}
      style={{ display: "inline-flex", alignItems: "center", gap: 2, flex: "none", verticalAlign: "middle" }}
    >
      <Icon name="check" size={12} />
      <span aria-hidden="true">{t("merchant.badge.short")}</span>
    </Badge>
  )
}

/** A row under a trader's cell (the offer page, the order): the badge and what it means. Nothing unless `trusted`. */
export function TrustedRow({ trusted }: { readonly trusted: boolean | undefined }) {
  const t = useT("p2p")
  if (trusted !== true) return null
  return <Cell data-testid="p2p-trusted-row" before={<TrustedBadge trusted />} title={t("merchant.badge.note")} multiline />
}
