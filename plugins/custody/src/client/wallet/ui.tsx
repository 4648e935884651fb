import type { ReactNode } from "react"
import { Icon, useKernel, useT, useTrackEvent } from "@wallet/kernel-react"
import { Avatar, Button, Placeholder } from "@wallet/kernel-react/ui"
import type { Availability } from "./availability.ts"
import styles from "./wallet.module.css"

export const NS = "custody"

const ASSET_COLORS: Readonly<Record<string, number>> = { TON: 5, USDT: 3, BTC: 1, ETH: 6, XAUT: 2 }

/** The asset's display name: USDT as dollars and XAUT as gold in the user's language (spec 1 §5). */
export function useAssetName(): (asset: { readonly currency: string; readonly name: string }) => string {
  const t = useT(NS)
  return (asset) => {
    const key = `assetNames.${asset.currency}`
    const name = t(key)
    return name === key ? asset.name : name
  }
}

export function AssetAvatar({ currency, size = 40 }: { readonly currency: string; readonly size?: number }) {
  return <Avatar size={size} initials={currency.slice(0, 2).toUpperCase()} name={currency} colorSeed={ASSET_COLORS[currency] ?? currency} />
}

/** A failed load: the message and a retry button (role=alert through the Placeholder). */
export function LoadError({ onRetry, title }: { readonly onRetry: () => void; readonly title?: string }) {
  const t = useT(NS)
  useTrackEvent("error_shown", { where: "custody", code: "load_error", path: window.location.pathname })
  return (
    <Placeholder
      kind="error"
      icon={<Icon name="alert" size={48} />}
      title={title ?? t("common.loadErrorTitle")}
      description={t("common.loadError")}
      action={
        <Button look="secondary" onClick={onRetry}>
          {t("common.retry")}
        </Button>
      }
    />
  )
}

export function Screen({ title, children, wide }: { readonly title?: ReactNode; readonly children: ReactNode; readonly wide?: boolean }) {
  return (
    <main className={wide ? styles.screenWide : styles.screen}>
      {title !== undefined && <h1 className={styles.title}>{title}</h1>}
      {children}
    </main>
  )
}

const glyphs: Record<string, ReactNode> = {
  receive: <path d="M11 4h2v11.2l4.6-4.6 1.4 1.4-7 7-7-7 1.4-1.4 4.6 4.6V4Z" />,
  send: <path d="M11 20h2V8.8l4.6 4.6 1.4-1.4-7-7-7 7 1.4 1.4L11 8.8V20Z" />,
  exchange: <path d="M7 4 3 8l4 4V9h9V7H7V4Zm10 8v3H8v2h9v3l4-4-4-4Z" />,
  buy: <path d="M11 5h2v6h6v2h-6v6h-2v-6H5v-2h6V5Z" />,
  sell: <path d="M5 11h14v2H5v-2Z" />,
}

export interface ActionItem {
  readonly name: "receive" | "send" | "exchange" | "buy" | "sell"
  readonly availability: Availability
  readonly onRun: () => void
}

/** Round action buttons; one that cannot run explains why in a Telegram popup (spec 1 §4). */
export function ActionButtons({ items, onDeposit }: { readonly items: ReadonlyArray<ActionItem>; readonly onDeposit: () => void }) {
  const t = useT(NS)
  const kernel = useKernel()
  const explain = async (item: ActionItem) => {
    const label = t(`actions.${item.name}`)
    const a = item.availability
    kernel.telegram.haptic({ type: "notification", kind: "warning" })
    if (a.kind === "scheduled") {
      const language = kernel.i18n.language()
      const date = new Intl.DateTimeFormat(language, { dateStyle: "long" }).format(a.at)
      const time = new Intl.DateTimeFormat(language, { timeStyle: "short" }).format(a.at)
      await kernel.telegram.popup({
        title: t("actions.scheduledTitle"),
        message: t("actions.scheduledText", { action: label, date, time }),
        buttons: [{ id: "ok", type: "ok" }],
      })
    } else if (a.kind === "restricted") {
      await kernel.telegram.popup({ title: t("actions.restrictedTitle"), message: t("actions.restrictedText"), buttons: [{ id: "ok", type: "ok" }] })
    } else if (item.name === "buy") {
      const choice = await kernel.telegram.popup({
        title: t("actions.neverTitle"),
        message: t("actions.buyNeverText"),
        buttons: [
          { id: "cancel", type: "cancel" },
          { id: "ok", type: "ok" },
        ],
      })
      if (choice === "ok") onDeposit()
    } else {
      await kernel.telegram.popup({ title: t("actions.neverTitle"), message: t("actions.neverText", { action: label }), buttons: [{ id: "ok", type: "ok" }] })
    }
  }
  return (
    <nav className={styles.actions} aria-label={t("asset.actions")}>
      {items.map((item) => (
        <button
          key={item.name}
          type="button"
          className={styles.action}
          aria-disabled={item.availability.kind !== "available" || undefined}
          onClick={() => (item.availability.kind === "available" ? item.onRun() : void explain(item))}
        >
          <span className={styles.actionIcon} aria-hidden="true">
            <svg width="24" height="24" viewBox="0 0 24 24" fill="currentColor" focusable="false">
              {glyphs[item.name]}
            </svg>
          </span>
          <span className={styles.actionLabel}>{t(`actions.${item.name}`)}</span>
        </button>
      ))}
    </nav>
  )
}
