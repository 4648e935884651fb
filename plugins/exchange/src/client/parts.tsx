/** Pieces the exchange screens share: styles, the trading-hours and region sheets, the load error. */
import type { CSSProperties } from "react"
import { useKernel, useT } from "@wallet/kernel-react"
import { BottomSheet, Button, Placeholder } from "@wallet/kernel-react/ui"

export const pageStyle: CSSProperties = { padding: "8px 0 calc(24px + var(--wk-safe-area-bottom, 0px))" }
export const titleStyle: CSSProperties = { margin: "8px 16px 16px", fontSize: 28, fontWeight: 700 }
export const padStyle: CSSProperties = { padding: "8px 16px", display: "flex", flexDirection: "column", gap: 8 }
export const hintStyle: CSSProperties = { color: "var(--wk-color-hint)", fontSize: 14 }
export const alertStyle: CSSProperties = { color: "var(--wk-color-destructive)", fontSize: 14 }

/** The Telegram client's platform (the server's iOS/macOS rule reads it). */
export const usePlatform = (): string => useKernel().telegram.launchParams.platform

/** A time in the user's language (the market's next opening). */
export const formatWhen = (iso: string, locale: string): string =>
  new Intl.DateTimeFormat(locale, { weekday: "long", hour: "2-digit", minute: "2-digit", timeZoneName: "short" }).format(new Date(iso))

/** Stock tokens trade in US market hours only: why, and when they open next. */
export function TradingHoursSheet({ open, nextOpening, onClose }: { readonly open: boolean; readonly nextOpening: string; readonly onClose: () => void }) {
  const t = useT("exchange")
  const locale = useKernel().i18n.language()
  return (
    <BottomSheet
      open={open}
      onClose={onClose}
      title={t("tradingHours.title")}
      closeLabel={t("close")}
      footer={
        <Button look="primary" size="l" stretched data-testid="exchange-trading-hours-ok" onClick={onClose}>
          {t("tradingHours.ok")}
        </Button>
      }
    >
      <div data-testid="exchange-trading-hours" style={{ padding: "0 16px 8px", display: "flex", flexDirection: "column", gap: 8 }}>
        <p style={{ margin: 0 }}>{t("tradingHours.text")}</p>
        <p style={{ margin: 0, ...hintStyle }} data-testid="exchange-trading-hours-next">
          {t("tradingHours.next", { when: formatWhen(nextOpening, locale) })}
        </p>
      </div>
    </BottomSheet>
  )
}

/** The exchange region popup (spec 3 §4.2: iOS or macOS at level 1 without accessToExchangesByCountry). */
export function RegionSheet({ open, onClose }: { readonly open: boolean; readonly onClose: () => void }) {
  const t = useT("exchange")
  return (
    <BottomSheet
      open={open}
      onClose={onClose}
      title={t("region.title")}
      closeLabel={t("close")}
      footer={
        <Button look="primary" size="l" stretched onClick={onClose}>
          {t("region.ok")}
        </Button>
      }
    >
      <p data-testid="exchange-region-restricted" style={{ margin: 0, padding: "0 16px 8px" }}>
        {t("error_region_restricted")}
      </p>
    </BottomSheet>
  )
}

export function LoadError({ retry }: { readonly retry: () => void }) {
  const t = useT("exchange")
  return (
    <Placeholder
      kind="error"
      data-testid="exchange-load-error"
      title={t("loadError")}
      action={
        <Button look="secondary" size="s" onClick={retry}>
          {t("retry")}
        </Button>
      }
    />
  )
}
