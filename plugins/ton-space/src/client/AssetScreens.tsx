/**
 * The asset page (/scw/assets/$address: TON as "TON" or a jetton master), the extra-currency page
 * (/scw/assets/extra-currency/$id) and the profit-and-loss view (/scw/pnl/$address). Spec 2 §3
 * routes, "Price chart points", §5 flags; ADRs 0630 (extra currencies), 0631 (chart and PnL).
 */
import { useMemo, useState, type ReactNode } from "react"
import { useParams } from "@tanstack/react-router"
import { Effect } from "effect"
import { Icon, useFlag, useGo, useHideTabBar, useKernel, useT } from "@wallet/kernel-react"
import { Banner, Button, Cell, LineChart, List, Placeholder, Section, SegmentedControl, Skeleton, SkeletonList } from "@wallet/kernel-react/ui"
import { chartGeometry } from "@wallet/kernel"
import { formatDisplay } from "../core/amount.ts"
import { buildAssetList, eventsOfAsset, type Asset } from "../core/assets.ts"
import { CHART_PERIODS, CHART_REQUEST_POINTS, mergeSeries, summarize, type ChartPeriod } from "../core/chart.ts"
import { HISTORY_PAGE_SIZE } from "../core/history.ts"
import { computePnl, fiatValue, fixedRate, formatBps, jettonFlows, priceFlows, tonFlows } from "../core/pnl.ts"
import { fiatText } from "./AssetScreens.format.ts"
import { chartToken, useChart, useExtraCurrencies, useExtraHistory, useFiat, useRate, useWalletData, type ExtraTransferRow } from "./data.ts"
import { displayAddress, EventRow } from "./events.tsx"
import { chainFor, NS, useChainQuery, useWallet } from "./hooks.ts"
import { tonSpaceKeys } from "./queryKeys.ts"
import { useTon } from "./ton.ts"
import styles from "./assets.module.css"
import screen from "./ton.module.css"
import { mainRoute, pnlRoute, qrRoute, sendRoute } from "../routes.ts"

const CHART_WIDTH = 320
const CHART_HEIGHT = 140
/** Rows of the asset's history shown on its page. */
const ASSET_HISTORY_ROWS = 20

// ---------------------------------------------------------------- shared pieces

const sameAddress = (a: string, b: string, ton: ReturnType<typeof useTon>) => {
  if (a.toLowerCase() === b.toLowerCase()) return true
  const pa = ton?.parseAddress(a)
  const pb = ton?.parseAddress(b)
  return pa !== null && pb !== null && pa !== undefined && pb !== undefined && pa.raw === pb.raw
}

function useLanguage() {
  const kernel = useKernel()
  return kernel.i18n.language()
}

/** The wallet's assets with the flag rules, and the one of the route. */
function useAsset(address: string) {
  const [state, update] = useWallet()
  const ton = useTon()
  const data = useWalletData(state.raw)
  const { account, jettons } = data
  const assets = useMemo(
    () =>
      account.data
        ? buildAssetList({
            network: state.walletNetwork,
            tonBalance: account.data.balance,
            jettons: jettons.data ?? [],
            riskChecked: new Set(state.riskChecked),
          })
        : undefined,
    [account.data, jettons.data, state.walletNetwork, state.riskChecked],
  )
  const asset = assets?.find((a) => sameAddress(a.address, address, ton))
  // Jettons load after the account: the asset is "loading" until both answered.
  const loading = !assets || (address !== "TON" && jettons.data === undefined && !jettons.error)
  const failed = (account.error && !account.data) || (address !== "TON" && jettons.error && !jettons.data)
  const retry = () => {
    account.reload()
    jettons.reload()
  }
  const markChecked = (master: string) => update((s) => ({ ...s, riskChecked: [...new Set([...s.riskChecked, master])] }))
  return { state, ton, data, asset, loading, failed: Boolean(failed), retry, markChecked }
}

function AssetHero({
  icon,
  image,
  name,
  amount,
  fiat,
}: {
  readonly icon: string
  readonly image?: string | undefined
  readonly name: string
  readonly amount: string
  readonly fiat?: ReactNode
}) {
  return (
    <section className={styles.hero} aria-live="polite">
      <div className={styles.heroIcon} aria-hidden="true">
        {image && !image.includes("devnet.local") ? <img src={image} alt="" /> : <Icon name={icon} size={32} />}
      </div>
      <h1 className={styles.name}>{name}</h1>
      <p className={styles.amount} data-testid="asset-balance">
        {amount}
      </p>
      {fiat !== undefined && <p className={styles.fiat}>{fiat}</p>}
    </section>
  )
}

function HeroSkeleton() {
  return (
    <section className={styles.hero}>
      <Skeleton shape="circle" width={56} height={56} />
      <Skeleton shape="text" width={120} height={20} />
      <Skeleton shape="text" width={180} height={40} />
      <Skeleton shape="text" width={90} height={16} />
    </section>
  )
}

/** The price chart with its periods (the kernel's chart geometry and `LineChart`). */
export function PriceChart({ token, fiat }: { readonly token: string; readonly fiat: string }) {
  const t = useT(NS)
  const language = useLanguage()
  const [period, setPeriod] = useState<ChartPeriod>("day")
  const chart = useChart(token, fiat, period)
  const points = chart.data
  const geometry = points ? chartGeometry(points, CHART_WIDTH, CHART_HEIGHT) : undefined
  const summary = points ? summarize(points) : undefined
  const tone = geometry?.trend === "up" ? "up" : geometry?.trend === "down" ? "down" : "flat"
  const lastRate = summary?.last ? fixedRate(summary.last.price) : undefined
  const change = summary?.changePercent
  const changeText = change === undefined ? "" : `${change > 0 ? "+" : ""}${change.toFixed(2)}%`
  const periodLabel = t(`asset.periods.${period}`)
  return (
    <section className={styles.chart} aria-label={t("asset.chart")}>
      <div className={styles.chartHead}>
        <span className={styles.chartPrice}>{lastRate !== undefined ? fiatText(lastRate, fiat, language) : "\u00a0"}</span>
        <span className={styles[tone]}>{changeText || "\u00a0"}</span>
      </div>
      <div className={styles.chartBox}>
        {!points ? (
          chart.error ? (
            <p className={styles.chartEmpty} role="alert">
              {t("asset.chartError")}{" "}
              <Button size="s" look="plain" onClick={chart.reload}>
                {t("errors.retry")}
              </Button>
            </p>
          ) : (
            <Skeleton shape="rect" height={CHART_HEIGHT} radius={12} />
          )
        ) : !geometry || geometry.line === "" ? (
          <p className={styles.chartEmpty}>{t("asset.chartEmpty")}</p>
        ) : (
          <LineChart
            className={styles.chartSvg}
            geometry={geometry}
            width={CHART_WIDTH}
            height={CHART_HEIGHT}
            aria-label={t("asset.chartLabel", { period: periodLabel, change: changeText || "0%", points: points.length })}
            data-testid="price-chart"
            data-period={period}
            data-points={points.length}
          />
        )}
      </div>
      <SegmentedControl
        className={styles.periods}
        aria-label={t("asset.periods.label")}
        stretched
        items={CHART_PERIODS.map((value) => ({ value, label: t(`asset.periods.${value}`) }))}
        value={period}
        onChange={(value) => setPeriod(value as ChartPeriod)}
      />
    </section>
  )
}

function FlagBanner({ asset, onChecked }: { readonly asset: Asset; readonly onChecked: () => void }) {
  const t = useT(NS)
  if (asset.isScam) return <Banner tone="error" title={t("asset.scamTitle")} description={t("asset.scamText")} />
  if (!asset.verified)
    return (
      <Banner
        tone="warning"
        title={t("asset.unverifiedTitle")}
        description={t("asset.unverifiedText")}
        {...(asset.risky
          ? {
              action: (
                <Button size="s" look="secondary" onClick={onChecked}>
                  {t("asset.markChecked")}
                </Button>
              ),
            }
          : {})}
      />
    )
  return null
}

// ---------------------------------------------------------------- /scw/assets/$address

/** /scw/assets/$address: balance in the asset and in fiat, send and receive, chart, flags, history. */
export function AssetScreen() {
  const t = useT(NS)
  const go = useGo()
  const language = useLanguage()
  const { address = "TON" } = useParams({ strict: false }) as { address?: string }
  const { state, ton, data, asset, loading, failed, retry, markChecked } = useAsset(address)
  const fiat = useFiat()
  const token = asset ? chartToken(asset.address) : undefined
  // Values are hidden where the flag rules hide the TON value (scam, unverified on mainnet).
  const showValue = asset !== undefined && (asset.kind === "ton" || asset.tonValue !== undefined)
  // The PnL view only with the tonspace_pnl feature flag (spec 1 §3).
  const pnlEnabled = useFlag("tonspace_pnl")
  const rate = useRate(showValue ? token : undefined, fiat)
  useHideTabBar()

  if (failed)
    return (
      <main className={screen.screen}>
        <Placeholder
          kind="error"
          title={t("errors.load")}
          action={
            <Button size="s" onClick={retry}>
              {t("errors.retry")}
            </Button>
          }
        />
      </main>
    )
  if (loading)
    return (
      <main className={screen.screen} aria-busy="true" aria-label={t("asset.loading")}>
        <HeroSkeleton />
        <div className={styles.chart}>
          <Skeleton shape="rect" height={200} radius={12} />
        </div>
        <SkeletonList label={t("asset.loading")} />
      </main>
    )
  if (!asset)
    return (
      <main className={screen.screen}>
        <Placeholder
          title={t("asset.notFound")}
          description={t("asset.notFoundText")}
          action={
            <Button size="s" onClick={() => void go(mainRoute)}>
              {t("asset.backToWallet")}
            </Button>
          }
        />
      </main>
    )

  const fixed = fixedRate(rate.data)
  const fiatLine = !showValue
    ? t("asset.valueHidden")
    : fixed !== undefined
      ? `≈ ${fiatText(fiatValue(asset.balance, asset.decimals, fixed), fiat, language)}`
      : rate.error
        ? t("asset.rateUnavailable")
        : "\u00a0"
  const history = data.events.data ? eventsOfAsset(data.events.data, asset.address).slice(0, ASSET_HISTORY_ROWS) : undefined
  return (
    <main className={screen.screen}>
      <AssetHero
        icon={asset.kind === "ton" ? "ton" : "currency"}
        image={asset.image}
        name={asset.name}
        amount={`${formatDisplay(asset.balance, asset.decimals)} ${asset.currency}`}
        fiat={fiatLine}
      />
      <div className={styles.actions}>
        <Button look="primary" disabled={asset.isScam} onClick={() => void go(sendRoute, { search: asset.kind === "jetton" ? { asset: asset.address } : {} })}>
          {t("main.send")}
        </Button>
        <Button look="secondary" onClick={() => void go(qrRoute)}>
          {t("main.receive")}
        </Button>
      </div>
      <List>
        <FlagBanner asset={asset} onChecked={() => markChecked(asset.address)} />
      </List>
      {showValue && token && <PriceChart token={token} fiat={fiat} />}
      <List>
        {showValue && pnlEnabled && (
          <Section>
            <Cell title={t("pnl.title")} subtitle={t("pnl.entry")} chevron onClick={() => void go(pnlRoute, { params: { address: asset.address } })} />
          </Section>
        )}
        <Section header={t("history.title")}>
          {!history ? (
            data.events.error ? (
              <Placeholder
                kind="error"
                title={t("errors.load")}
                action={
                  <Button size="s" onClick={data.events.reload}>
                    {t("errors.retry")}
                  </Button>
                }
              />
            ) : (
              <SkeletonList label={t("history.loading")} />
            )
          ) : history.length === 0 ? (
            <Placeholder title={t("asset.historyEmpty")} />
          ) : (
            history.map((event) => <EventRow key={event.event_id} event={event} raw={state.raw!} network={state.walletNetwork} ton={ton} />)
          )}
        </Section>
      </List>
    </main>
  )
}

// ---------------------------------------------------------------- /scw/assets/extra-currency/$id

function ExtraRow({
  row,
  network,
  ton,
  symbol,
  decimals,
}: {
  readonly row: ExtraTransferRow
  readonly network: "mainnet" | "testnet"
  readonly ton: ReturnType<typeof useTon>
  readonly symbol: string
  readonly decimals: number
}) {
  const t = useT(NS)
  const time = new Date(row.timestamp * 1000).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" })
  return (
    <Cell
      title={t(row.incoming ? "history.received" : "history.sent")}
      subtitle={`${displayAddress(ton, row.counterparty, network)} · ${time}`}
      after={
        <span className={row.incoming ? styles.positive : undefined}>
          {row.incoming ? "+" : "−"}
          {formatDisplay(row.amount, decimals)} {symbol}
        </span>
      }
      {...(row.failed
        ? { description: t("history.failed") }
        : row.inProgress
          ? { description: t("history.pending") }
          : row.comment
            ? { description: row.comment }
            : {})}
    />
  )
}

/** /scw/assets/extra-currency/$id: an extra currency's balance, send and receive, its transfers. */
export function ExtraCurrencyScreen() {
  const t = useT(NS)
  const go = useGo()
  const { id: idParam = "" } = useParams({ strict: false }) as { id?: string }
  const id = /^\d+$/.test(idParam) ? Number(idParam) : Number.NaN
  const [state] = useWallet()
  const ton = useTon()
  const extras = useExtraCurrencies(state.raw)
  const history = useExtraHistory(Number.isFinite(id) ? state.raw : undefined, id)
  useHideTabBar()
  const asset = extras.data?.find((a) => a.extraCurrencyId === id)

  if (extras.error && !extras.data)
    return (
      <main className={screen.screen}>
        <Placeholder
          kind="error"
          title={t("errors.load")}
          action={
            <Button size="s" onClick={extras.reload}>
              {t("errors.retry")}
            </Button>
          }
        />
      </main>
    )
  if (!extras.data)
    return (
      <main className={screen.screen} aria-busy="true" aria-label={t("asset.loading")}>
        <HeroSkeleton />
        <SkeletonList label={t("asset.loading")} />
      </main>
    )
  if (!asset)
    return (
      <main className={screen.screen}>
        <Placeholder
          title={t("extra.notHeld")}
          description={t("extra.notHeldText", { id: idParam })}
          action={
            <Button size="s" onClick={() => void go(mainRoute)}>
              {t("asset.backToWallet")}
            </Button>
          }
        />
      </main>
    )
  return (
    <main className={screen.screen}>
      <AssetHero
        icon="currency"
        image={asset.image}
        name={t("extra.name", { symbol: asset.currency })}
        amount={`${formatDisplay(asset.balance, asset.decimals)} ${asset.currency}`}
        fiat={t("extra.noPrice")}
      />
      <div className={styles.actions}>
        <Button look="primary" onClick={() => void go(sendRoute, { search: { asset: asset.address } })}>
          {t("main.send")}
        </Button>
        <Button look="secondary" onClick={() => void go(qrRoute)}>
          {t("main.receive")}
        </Button>
      </div>
      <List>
        <Section header={t("extra.about")} footer={t("extra.aboutText")}>
          <Cell title={t("extra.id")} after={String(asset.extraCurrencyId)} />
          <Cell title={t("extra.decimals")} after={String(asset.decimals)} />
        </Section>
        <Section header={t("history.title")}>
          {!history.data ? (
            history.error ? (
              <Placeholder
                kind="error"
                title={t("errors.load")}
                action={
                  <Button size="s" onClick={history.reload}>
                    {t("errors.retry")}
                  </Button>
                }
              />
            ) : (
              <SkeletonList label={t("history.loading")} />
            )
          ) : history.data.length === 0 ? (
            <Placeholder title={t("asset.historyEmpty")} />
          ) : (
            history.data.map((row) => (
              <ExtraRow
                key={`${row.eventId}:${row.incoming}`}
                row={row}
                network={state.walletNetwork}
                ton={ton}
                symbol={asset.currency}
                decimals={asset.decimals}
              />
            ))
          )}
        </Section>
      </List>
    </main>
  )
}

// ---------------------------------------------------------------- /scw/pnl/$address

/** /scw/pnl/$address: cost basis and unrealised PnL in fiat by average cost (ADR 0631). */
export function PnlScreen() {
  const t = useT(NS)
  const kernel = useKernel()
  const go = useGo()
  const language = useLanguage()
  const { address = "TON" } = useParams({ strict: false }) as { address?: string }
  const { state, data, asset, loading, failed, retry } = useAsset(address)
  const fiat = useFiat()
  const token = asset ? chartToken(asset.address) : undefined
  // Old flows are priced from "all", recent ones from "month" and "day" (finer steps, ADR 0631).
  const chartAll = useChart(token, fiat, "all", CHART_REQUEST_POINTS)
  const chartMonth = useChart(token, fiat, "month", CHART_REQUEST_POINTS)
  const chartDay = useChart(token, fiat, "day", CHART_REQUEST_POINTS)
  const series = useMemo(
    () => (chartAll.data && chartMonth.data && chartDay.data ? mergeSeries(chartAll.data, chartMonth.data, chartDay.data) : undefined),
    [chartAll.data, chartMonth.data, chartDay.data],
  )
  const chartError = chartAll.error ?? chartMonth.error ?? chartDay.error
  const chart = {
    data: series,
    error: chartError,
    reload: () => {
      chartAll.reload()
      chartMonth.reload()
      chartDay.reload()
    },
  }
  const rate = useRate(token, fiat)
  const chain = chainFor(kernel, state.walletNetwork)
  const jettonHistory = useChainQuery(
    asset?.kind === "jetton" && state.raw ? tonSpaceKeys.jettonHistory(state.walletNetwork, state.raw, asset.address) : null,
    () => chain.getJettonHistory(state.raw!, { limit: HISTORY_PAGE_SIZE, jettonId: asset!.address }).pipe(Effect.map((r) => r.operations)),
  )
  useHideTabBar()

  const flows =
    !asset || !state.raw
      ? undefined
      : asset.kind === "ton"
        ? data.events.data
          ? tonFlows(data.events.data, state.raw)
          : undefined
        : jettonHistory.data
          ? jettonFlows(jettonHistory.data, state.raw)
          : undefined
  const pnl = useMemo(
    () =>
      asset && flows && chart.data && rate.data !== undefined
        ? computePnl({ flows: priceFlows(flows, chart.data), decimals: asset.decimals, balance: asset.balance, currentRate: fixedRate(rate.data) })
        : undefined,
    [asset, flows, chart.data, rate.data],
  )
  const loadError =
    failed ||
    (!flows && (asset?.kind === "ton" ? data.events.error : jettonHistory.error)) ||
    (!chart.data && chart.error) ||
    (rate.data === undefined && rate.error)
  const reloadAll = () => {
    retry()
    data.events.reload()
    jettonHistory.reload()
    chart.reload()
    rate.reload()
  }

  if (loadError)
    return (
      <main className={screen.screen}>
        <Placeholder
          kind="error"
          title={t("errors.load")}
          action={
            <Button size="s" onClick={reloadAll}>
              {t("errors.retry")}
            </Button>
          }
        />
      </main>
    )
  if (!loading && !asset)
    return (
      <main className={screen.screen}>
        <Placeholder
          title={t("asset.notFound")}
          action={
            <Button size="s" onClick={() => void go(mainRoute)}>
              {t("asset.backToWallet")}
            </Button>
          }
        />
      </main>
    )
  // Signed and coloured only when the shown cents are not zero (a -0.4 cent result reads "$0.00", neutral).
  const cents = (nanos: bigint) => nanos / 10_000_000n
  const money = (nanos: bigint | undefined) => (nanos === undefined ? "—" : fiatText(nanos, fiat, language))
  const signed = (nanos: bigint | undefined) => (nanos === undefined ? "—" : `${cents(nanos) > 0n ? "+" : ""}${fiatText(nanos, fiat, language)}`)
  const tone = (nanos: bigint | undefined) => (nanos === undefined || cents(nanos) === 0n ? undefined : nanos > 0n ? styles.positive : styles.negative)
  return (
    <main className={screen.screen}>
      <h1 className={screen.title}>{asset ? t("pnl.heading", { currency: asset.currency }) : t("pnl.title")}</h1>
      {!pnl || !asset ? (
        <div aria-busy="true">
          <SkeletonList rows={5} label={t("pnl.loading")} />
        </div>
      ) : (
        <List>
          <Section header={t("pnl.unrealised")}>
            <Cell
              title={
                <span className={tone(pnl.unrealised)} data-testid="pnl-unrealised">
                  {signed(pnl.unrealised)}
                </span>
              }
              after={pnl.unrealisedBps !== undefined ? <span className={tone(pnl.unrealised)}>{formatBps(pnl.unrealisedBps)}%</span> : undefined}
            />
          </Section>
          <Section footer={t("pnl.method")}>
            <Cell title={t("pnl.holding")} after={`${formatDisplay(pnl.tracked, asset.decimals)} ${asset.currency}`} />
            <Cell title={t("pnl.averageCost")} after={pnl.averageCost === undefined ? "—" : money(pnl.averageCost)} />
            <Cell title={t("pnl.costBasis")} after={money(pnl.costBasis)} />
            <Cell title={t("pnl.marketValue")} after={money(pnl.marketValue)} />
            <Cell title={t("pnl.realised")} after={<span className={tone(pnl.realised)}>{signed(pnl.realised)}</span>} />
          </Section>
          {pnl.untracked > 0n && (
            <p className={styles.note}>{t("pnl.untracked", { amount: `${formatDisplay(pnl.untracked, asset.decimals)} ${asset.currency}` })}</p>
          )}
          {pnl.unpriced > 0 && <p className={styles.note}>{t("pnl.unpriced", { count: pnl.unpriced })}</p>}
          {asset.kind === "ton" && <p className={styles.note}>{t("pnl.feesNote")}</p>}
        </List>
      )}
    </main>
  )
}
