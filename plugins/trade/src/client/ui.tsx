import type { KeyboardEvent, ReactNode } from "react"
import { useQuery } from "@tanstack/react-query"
import { useKernel, useT, useTrackEvent } from "@wallet/kernel-react"
import { Avatar, Badge, Button, Cell, Placeholder, Section, SkeletonList } from "@wallet/kernel-react/ui"
import type { CoinRow, PriceSource } from "../api.ts"
import type { Ranking } from "../rules.ts"
import { fiatQuery } from "./client.ts"
import { formatChange, formatPrice, trendOf } from "./format.ts"
import styles from "./trade.module.css"

export const NS = "trade"

export function Screen({ title, children, testId }: { readonly title?: ReactNode; readonly children: ReactNode; readonly testId?: string }) {
  return (
    <main className={styles.screen} data-testid={testId}>
      {title !== undefined && <h1 className={styles.title}>{title}</h1>}
      {children}
    </main>
  )
}

/** The user's fiat: undefined while the local read runs. */
export const useFiat = (): string | undefined => {
  const kernel = useKernel()
  return useQuery(fiatQuery(kernel)).data
}

export function CoinAvatar({ symbol, size = 40 }: { readonly symbol: string; readonly size?: number }) {
  return <Avatar size={size} initials={symbol.replace(/x$/, "").slice(0, 2).toUpperCase()} name={symbol} colorSeed={symbol} />
}

/** Spec: prices of the sandbox are labelled as such wherever they show. */
export function SandboxLabel({ source }: { readonly source: PriceSource | undefined }) {
  const t = useT(NS)
  if (source !== "sandbox") return null
  return (
    <p className={styles.sandbox} data-testid="trade-sandbox-label">
      <Badge tone="neutral">{t("sandbox.badge")}</Badge>
      <span>{t("sandbox.text")}</span>
    </p>
  )
}

export function Change({ value, testId }: { readonly value: number; readonly testId?: string }) {
  const kernel = useKernel()
  const trend = trendOf(value)
  return (
    <span className={`${styles.price} ${styles[trend]}`} data-testid={testId} data-change={value}>
      {formatChange(value, kernel.i18n.language())}
    </span>
  )
}

/** One coin: avatar, name and symbol, price and 24 h change; the 'new' badge when listed recently. */
export function CoinCell({
  coin,
  fiat,
  onOpen,
  testPrefix = "trade-coin",
}: {
  readonly coin: CoinRow
  readonly fiat: string
  readonly onOpen: () => void
  readonly testPrefix?: string
}) {
  const kernel = useKernel()
  const t = useT(NS)
  return (
    <Cell
      data-testid={`${testPrefix}-${coin.symbol}`}
      data-change={coin.change24h}
      before={<CoinAvatar symbol={coin.symbol} />}
      title={
        <>
          {coin.name}
          {coin.isNew && (
            <>
              {" "}
              <Badge tone="accent">{t("new")}</Badge>
            </>
          )}
        </>
      }
      subtitle={coin.symbol}
      after={<span className={styles.amount}>{formatPrice(coin.price, fiat, kernel.i18n.language())}</span>}
      afterSubtitle={<Change value={coin.change24h} />}
      onClick={onOpen}
    />
  )
}

export function ListSkeleton({ rows = 5 }: { readonly rows?: number }) {
  const t = useT(NS)
  return (
    <Section>
      <SkeletonList rows={rows} label={t("loading")} />
    </Section>
  )
}

export function LoadError({ onRetry, title }: { readonly onRetry: () => void; readonly title?: string }) {
  const t = useT(NS)
  useTrackEvent("error_shown", { where: "trade", code: "load_error", path: window.location.pathname })
  return (
    <Placeholder
      kind="error"
      title={title ?? t("error.title")}
      description={t("error.text")}
      action={
        <Button look="secondary" size="s" onClick={onRetry} data-testid="trade-retry">
          {t("retry")}
        </Button>
      }
    />
  )
}

/** The tabs in screen order: All first, where the tab opens by default. */
const TAB_ORDER: ReadonlyArray<Ranking> = ["all_limit", "gainers", "losers", "volume24h", "tonAssets", "stocks", "etfs"]

/** The ranking tabs of /trade (spec 1 §3 sorting keys) as a scrollable tab list. */
export function RankingTabs({ value, onChange }: { readonly value: Ranking; readonly onChange: (ranking: Ranking) => void }) {
  const t = useT(NS)
  // Arrow keys, Home and End move between the tabs (the tab list pattern); only the chosen one is a tab stop.
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const at = TAB_ORDER.indexOf(value)
    const rtl = getComputedStyle(event.currentTarget).direction === "rtl"
    const step = { ArrowRight: rtl ? -1 : 1, ArrowLeft: rtl ? 1 : -1 }[event.key]
    const next =
      step !== undefined
        ? TAB_ORDER[(at + step + TAB_ORDER.length) % TAB_ORDER.length]
        : event.key === "Home"
          ? TAB_ORDER[0]
          : event.key === "End"
            ? TAB_ORDER[TAB_ORDER.length - 1]
            : undefined
    if (next === undefined) return
    event.preventDefault()
    onChange(next)
    document.getElementById(`trade-tab-${next}`)?.focus()
  }
  return (
    <div className={styles.tabs} role="tablist" aria-label={t("rankings.label")} onKeyDown={onKeyDown}>
      {TAB_ORDER.map((ranking) => (
        <button
          key={ranking}
          type="button"
          role="tab"
          id={`trade-tab-${ranking}`}
          aria-selected={ranking === value}
          tabIndex={ranking === value ? 0 : -1}
          aria-controls="trade-ranking-panel"
          data-testid={`trade-ranking-${ranking}`}
          className={styles.tab}
          onClick={() => onChange(ranking)}
        >
          {t(`rankings.${ranking}`)}
        </button>
      ))}
    </div>
  )
}
