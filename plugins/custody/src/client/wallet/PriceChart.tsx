import { useState } from "react"
import { useKernel, useT } from "@wallet/kernel-react"
import { LineChart, SegmentedControl, Skeleton } from "@wallet/kernel-react/ui"
import { chartGeometry } from "@wallet/kernel"
import { CHART_PERIODS, type ChartPeriod } from "./chart.ts"
import { useQuery } from "@tanstack/react-query"
import { loadedOf } from "../query.ts"
import { custodyKeys } from "../queryKeys.ts"
import { callWallet } from "./data.ts"
import { formatPercent, formatPrice } from "./format.ts"
import styles from "./wallet.module.css"
import { NS } from "./ui.tsx"

const WIDTH = 320
const HEIGHT = 160

/** The price chart of one asset in the user's fiat, for day, week, month, year and all (inline SVG). */
export function PriceChart({ crypto, fiat }: { readonly crypto: string; readonly fiat: string }) {
  const t = useT(NS)
  const kernel = useKernel()
  const language = kernel.i18n.language()
  const [period, setPeriod] = useState<ChartPeriod>("day")
  const loaded = loadedOf(
    useQuery({
      queryKey: custodyKeys.chart(crypto, fiat, period),
      queryFn: () => callWallet(kernel, (c) => c.custody.custodyRates.chart({ params: { crypto, fiat }, query: { period } })),
    }),
  )

  const chart = loaded.state === "ok" ? loaded.value : undefined
  // Prices are only drawn here; the labels below are formatted from the exact strings.
  const geometry = chart
    ? chartGeometry(
        chart.points.map((p) => ({ time: Date.parse(p.time), price: Number(p.price) })),
        WIDTH,
        HEIGHT,
      )
    : undefined
  const last = chart?.points[chart.points.length - 1]

  return (
    <section className={styles.chart} aria-label={t("asset.chart")}>
      <div className={styles.chartBox}>
        {loaded.state === "loading" ? (
          <Skeleton shape="rect" height={HEIGHT} radius={12} />
        ) : !geometry || geometry.line === "" ? (
          <p className={styles.chartEmpty}>{t("asset.chartUnavailable")}</p>
        ) : (
          <LineChart
            className={styles.chartSvg}
            geometry={geometry}
            width={WIDTH}
            height={HEIGHT}
            aria-label={`${t("asset.chart")}: ${t(`asset.periods.${period}`)}, ${formatPercent(chart!.percentChange, language)}`}
            data-testid="price-chart"
          />
        )}
      </div>
      <div className={styles.chartMeta}>
        <span>{last ? formatPrice(last.price, fiat, language) : "\u00a0"}</span>
        <span className={chart ? (chart.percentChange > 0 ? styles.up : chart.percentChange < 0 ? styles.down : undefined) : undefined}>
          {chart ? t("asset.change", { change: formatPercent(chart.percentChange, language) }) : "\u00a0"}
        </span>
      </div>
      <SegmentedControl
        aria-label={t("asset.periods.label")}
        stretched
        items={CHART_PERIODS.map((value) => ({ value, label: t(`asset.periods.${value}`) }))}
        value={period}
        onChange={(value) => setPeriod(value as ChartPeriod)}
      />
    </section>
  )
}
