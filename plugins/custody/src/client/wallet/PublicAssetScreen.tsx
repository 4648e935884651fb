import { useParams } from "@tanstack/react-router"
import { Icon, MainButton, useGo, useKernel, useT } from "@wallet/kernel-react"
import { Cell, List, Placeholder, Section } from "@wallet/kernel-react/ui"
import { useAssetPage, AssetSkeleton } from "./AssetScreen.tsx"
import { formatFiatValue, formatPercent, formatPrice } from "./format.ts"
import { PriceChart } from "./PriceChart.tsx"
import { AssetAvatar, LoadError, NS, Screen, useAssetName } from "./ui.tsx"
import styles from "./wallet.module.css"
import { receiveRoute } from "../../routes.ts"

/** /assets-public/{assetCurrency}: price with its 24h change, the chart and the description; no balance. */
export default function PublicAssetScreen() {
  const t = useT(NS)
  const kernel = useKernel()
  const go = useGo()
  const nameOf = useAssetName()
  const { assetCurrency = "" } = useParams({ strict: false }) as { assetCurrency?: string }
  const { loaded, reload } = useAssetPage(assetCurrency)
  const language = kernel.i18n.language()

  if (loaded.state === "loading") return <AssetSkeleton />
  if (loaded.state === "error")
    return (
      <Screen>
        <LoadError onRetry={reload} />
      </Screen>
    )
  const { asset, fiat, accounts } = loaded.value
  if (!asset)
    return (
      <Screen>
        <Placeholder
          icon={<Icon name="search" size={48} />}
          title={t("asset.unknownTitle")}
          description={t("asset.unknownText", { currency: assetCurrency })}
        />
      </Screen>
    )
  const canReceive = asset.networks.length > 0 && asset.actions.receive.isEnabled && accounts.accessFlags.accessToCreateAddress

  return (
    <Screen>
      <section className={styles.hero}>
        <AssetAvatar currency={asset.currency} size={64} />
        <p className={styles.heroName}>{nameOf(asset)}</p>
        <p className={styles.heroValue} data-testid="asset-price">
          {formatPrice(asset.rate, asset.fiatCurrency, language)}
        </p>
        <p className={`${styles.heroSub} ${asset.percentChange > 0 ? styles.up : asset.percentChange < 0 ? styles.down : ""}`}>
          {formatPercent(asset.percentChange, language)}
        </p>
      </section>
      {accounts.accessFlags.accessToAssetCharts && <PriceChart crypto={asset.currency} fiat={fiat} />}
      <List>
        <Section header={t("asset.about", { name: nameOf(asset) })}>
          <p className={styles.description}>{asset.description ?? t("asset.noDescription")}</p>
          {asset.marketCap !== null && <Cell title={t("asset.marketCap")} after={formatFiatValue(asset.marketCap, asset.fiatCurrency, language)} />}
        </Section>
      </List>
      {canReceive && (
        <MainButton text={t("actions.receive")} onClick={() => void go(receiveRoute, { search: { assetCurrency: asset.currency, source: "asset_public" } })} />
      )}
    </Screen>
  )
}
