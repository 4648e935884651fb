import { useState } from "react"
import { useQuery } from "@tanstack/react-query"
import { useParams, useSearch } from "@tanstack/react-router"
import { chartGeometry } from "@wallet/kernel"
import { Icon, useAnalytics, useGo, useKernel, useT, useTrackEvent } from "@wallet/kernel-react"
import { BottomSheet, Button, Cell, LineChart, List, Placeholder, Section, SegmentedControl, Skeleton, useSnackbar } from "@wallet/kernel-react/ui"
import type { ChartPeriod } from "@wallet/plugin-custody/api"
import type { CoinDetails } from "../api.ts"
import { isSecurity, stockAccess } from "../rules.ts"
import { exchangeRoute, type CoinPageSearch } from "../routes.ts"
import { accessQuery, chartQuery, coinQuery, errorTag } from "./client.ts"
import { formatCompactFiat, formatPrice } from "./format.ts"
import { Change, CoinAvatar, ListSkeleton, LoadError, NS, SandboxLabel, Screen, useFiat } from "./ui.tsx"
import styles from "./trade.module.css"

const PERIODS: ReadonlyArray<ChartPeriod> = ["day", "week", "month", "year", "all"]
const WIDTH = 320
const HEIGHT = 160
/** The asset notice shows once per device (and whenever a link asks with assetNoticeModal). */
const NOTICE_SEEN_KEY = "wallet:trade:asset-notice-seen"

/**
 * /trade/coins/{symbol}: a catalog coin's page: price and 24 h change, the chart (custodial coins,
 * custody's chart, when the access flag allows), the description, market cap and volume, and Buy
 * and Sell through the exchange for custodial coins. Stocks and ETFs first show the asset notice;
 * a restricted user gets the never-available or trades-unavailable toast instead (spec 1 §5, §8).
 */
export default function CoinScreen() {
  const t = useT(NS)
  const kernel = useKernel()
  const { symbol = "" } = useParams({ strict: false }) as { symbol?: string }
  const search = useSearch({ strict: false }) as CoinPageSearch
  const fiat = useFiat()
  const language = kernel.i18n.language()
  const details = useQuery({ ...coinQuery(kernel, symbol, fiat ?? "USD", language), enabled: fiat !== undefined })
  useTrackEvent("trade.coin_opened", { symbol, from: search.source ?? "link" })

  if (fiat === undefined || details.status === "pending") return <CoinSkeleton />
  if (details.status === "error") {
    if (errorTag(details.error) === "TradeNotFound")
      return (
        <Screen testId="trade-coin-unknown">
          <Placeholder icon={<Icon name="search" size={48} />} title={t("coin.unknownTitle")} description={t("coin.unknownText", { symbol })} />
        </Screen>
      )
    return (
      <Screen>
        <LoadError onRetry={() => void details.refetch()} />
      </Screen>
    )
  }
  return <CoinPage details={details.data} askedNotice={search.assetNoticeModal === true} />
}

function CoinSkeleton() {
  return (
    <Screen>
      <div className={styles.hero}>
        <Skeleton shape="circle" width={64} height={64} />
        <Skeleton width={120} height={20} />
        <Skeleton width={160} height={36} />
      </div>
      <ListSkeleton rows={3} />
    </Screen>
  )
}

function CoinPage({ details, askedNotice }: { readonly details: CoinDetails; readonly askedNotice: boolean }) {
  const t = useT(NS)
  const kernel = useKernel()
  const language = kernel.i18n.language()
  const { coin, fiat } = details
  const access = useQuery({ ...accessQuery(kernel), enabled: coin.custodial })
  const security = isSecurity(coin.category)
  // Decided once when the page opens: the link asks, or this device has not seen it yet.
  const [notice, setNotice] = useState(() => security && (askedNotice || localStorage.getItem(NOTICE_SEEN_KEY) !== "1"))
  const closeNotice = () => {
    localStorage.setItem(NOTICE_SEEN_KEY, "1")
    setNotice(false)
  }

  return (
    <Screen testId="trade-coin-screen">
      <section className={styles.hero} data-testid={`trade-coin-page-${coin.symbol}`}>
        <CoinAvatar symbol={coin.symbol} size={64} />
        <p className={styles.heroName}>
          {coin.name} · {coin.symbol}
        </p>
        <p className={styles.heroValue} data-testid="trade-coin-price">
          {formatPrice(coin.price, fiat, language)}
        </p>
        <p className={styles.heroSub}>
          <Change value={coin.change24h} testId="trade-coin-change" /> <span className={styles.flat}>{t("coin.today")}</span>
        </p>
      </section>
      <SandboxLabel source={details.source} />
      {coin.custodial && access.data?.accessToAssetCharts === true && <CoinChart symbol={coin.symbol} fiat={fiat} />}
      {coin.custodial ? <TradeButtons details={details} flags={access.data} /> : <p className={`${styles.sandbox}`}>{t("coin.notInWallet")}</p>}
      <List>
        <Section header={t("coin.about", { name: coin.name })}>
          <p className={styles.description} data-testid="trade-coin-description">
            {details.description ?? t("coin.noDescription")}
          </p>
        </Section>
        <Section header={t("coin.market")}>
          <Cell title={t("coin.marketCap")} after={coin.marketCap === null ? t("coin.unknown") : formatCompactFiat(coin.marketCap, fiat, language)} />
          <Cell title={t("coin.volume")} after={coin.volume24h === null ? t("coin.unknown") : formatCompactFiat(coin.volume24h, fiat, language)} />
          <Cell title={t("coin.category")} after={t(`categories.${coin.category}`)} />
        </Section>
      </List>
      <BottomSheet open={notice} onClose={closeNotice} title={t("notice.title")} closeLabel={t("notice.close")}>
        <div data-testid="trade-asset-notice">
          <p className={styles.notice}>{t("notice.text", { name: coin.name })}</p>
          <p className={styles.notice}>{t("notice.hours")}</p>
          <Button look="primary" stretched onClick={closeNotice} data-testid="trade-asset-notice-ok">
            {t("notice.ok")}
          </Button>
        </div>
      </BottomSheet>
    </Screen>
  )
}

/** Buy and Sell of a custodial coin: the exchange on the pair; stocks check their access first. */
function TradeButtons({
  details,
  flags,
}: {
  readonly details: CoinDetails
  readonly flags: { readonly accessToTradeStocksAndEtfs: boolean; readonly accessToTradeStocksAndEtfsByCountry: boolean } | undefined
}) {
  const t = useT(NS)
  const go = useGo()
  const snackbar = useSnackbar()
  const analytics = useAnalytics()
  const { coin } = details
  const trade = (side: "buy" | "sell") => {
    if (isSecurity(coin.category) && flags !== undefined) {
      // The KYC level is not known here; the server enforces the level rule (spec 1 §5) on the exchange.
      const access = stockAccess({ belowLevel1: false, ...flags })
      if (access !== "available") {
        const never = access === "COUNTRY_CODE_RESTRICTION"
        analytics.track("trade.trade_pressed", { symbol: coin.symbol, side, outcome: never ? "never_available" : "trades_unavailable" })
        snackbar.show({
          id: "trade-stock-restricted",
          icon: <Icon name="alert" />,
          text: never ? t("toast.neverAvailable") : t("toast.tradesUnavailable", { currency: coin.symbol }),
        })
        return
      }
    }
    analytics.track("trade.trade_pressed", { symbol: coin.symbol, side, outcome: "exchange" })
    void go(exchangeRoute, { search: side === "buy" ? { receiveCurrency: coin.symbol, source: "trade" } : { payCurrency: coin.symbol, source: "trade" } })
  }
  return (
    <div className={styles.buttons}>
      <Button look="primary" onClick={() => trade("buy")} data-testid="trade-coin-buy">
        {t("coin.buy")}
      </Button>
      <Button look="secondary" onClick={() => trade("sell")} data-testid="trade-coin-sell">
        {t("coin.sell")}
      </Button>
    </div>
  )
}

function CoinChart({ symbol, fiat }: { readonly symbol: string; readonly fiat: string }) {
  const t = useT(NS)
  const kernel = useKernel()
  const [period, setPeriod] = useState<ChartPeriod>("day")
  const chart = useQuery(chartQuery(kernel, symbol, fiat, period))
  const geometry =
    chart.status === "success"
      ? chartGeometry(
          chart.data.points.map((p) => ({ time: Date.parse(p.time), price: Number(p.price) })),
          WIDTH,
          HEIGHT,
        )
      : undefined
  // A chart the server refuses (the access flag) or cannot draw leaves the page without it.
  if (chart.status === "error") return null
  return (
    <div className={styles.chartBox}>
      {geometry ? (
        <LineChart
          geometry={geometry}
          width={WIDTH}
          height={HEIGHT}
          className={styles.chart}
          aria-label={t("coin.chart", { period: t(`periods.${period}`) })}
        />
      ) : (
        <Skeleton width="100%" height={HEIGHT} />
      )}
      <SegmentedControl
        stretched
        aria-label={t("coin.periods")}
        items={PERIODS.map((value) => ({ value, label: t(`periods.${value}`) }))}
        value={period}
        onChange={setPeriod}
      />
    </div>
  )
}
