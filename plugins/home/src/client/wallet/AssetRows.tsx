import { useKernel, useT } from "@wallet/kernel-react"
import { Avatar, Badge, Cell } from "@wallet/kernel-react/ui"
import type { Asset, FrozenBalance } from "@wallet/plugin-custody/api"
import { parseAmount } from "@wallet/plugin-custody/currencies"
import { formatCrypto, formatFiatAmount, formatFiatDecimal, formatPercentChange } from "./format.ts"
import styles from "./content.module.css"

/** Reasons with an explanation (spec 1 §3: FR_1, FR_3 and FR_4 have modal texts). */
const EXPLAINED_REASONS = new Set(["FR_1", "FR_3", "FR_4"])

/** Asset colours for the letter avatars (brand-like; anything else gets a seeded colour). */
const ASSET_COLORS: Readonly<Record<string, number>> = { TON: 5, USDT: 3, BTC: 1, ETH: 6, XAUT: 2 }

export const minorOf = (decimal: string, decimals: number): bigint => parseAmount(decimal, decimals) ?? 0n

export function AssetAvatar({ currency, size = 40 }: { readonly currency: string; readonly size?: number }) {
  return <Avatar size={size} initials={currency.slice(0, 2).toUpperCase()} name={currency} colorSeed={ASSET_COLORS[currency] ?? currency} />
}

/**
 * One asset row: name, price with 24h change (no rate line for USDT when the fiat is USD), the crypto
 * balance and its fiat value, a 'new' badge for a new currency with zero balance, then its frozen rows.
 */
export function AssetRow({
  asset,
  frozen,
  onOpen,
}: {
  readonly asset: Asset
  readonly frozen: ReadonlyArray<FrozenBalance>
  readonly onOpen: (asset: Asset) => void
}) {
  const t = useT("home")
  const tc = useT("custody")
  const kernel = useKernel()
  const language = kernel.i18n.language()
  const balance = minorOf(asset.balance, asset.decimals)
  const showRate = !(asset.currency === "USDT" && asset.fiatCurrency === "USD")
  const change = formatPercentChange(asset.percentChange, language)
  const trend = asset.percentChange > 0 ? styles.up : asset.percentChange < 0 ? styles.down : undefined
  const isNew = asset.isNewCurrency && balance === 0n
  // Spec 1 §5: USDT shows as dollars and XAUT as gold, in the user's language.
  const nameKey = `assetNames.${asset.currency}`
  const name = t(nameKey) === nameKey ? asset.name : t(nameKey)

  const explain = async (item: FrozenBalance) => {
    await kernel.telegram.popup({
      title: tc(`frozen.reasons.${item.reason}.title`),
      message: tc(`frozen.reasons.${item.reason}.text`),
      buttons: [{ id: "ok", type: "ok", text: tc("frozen.ok") }],
    })
  }

  return (
    <>
      <Cell
        data-asset={asset.currency}
        before={<AssetAvatar currency={asset.currency} />}
        title={
          <span className={styles.assetTitle}>
            {name}
            {isNew && <Badge tone="accent">{t("new")}</Badge>}
          </span>
        }
        subtitle={
          showRate ? (
            <span>
              {formatFiatDecimal(asset.rate, asset.fiatCurrency, language)} <span className={trend}>{change}</span>
            </span>
          ) : undefined
        }
        after={formatCrypto(balance, asset.decimals, asset.currency, language)}
        afterSubtitle={formatFiatAmount(asset.fiatBalance, asset.fiatCurrency, language)}
        onClick={() => onOpen(asset)}
      />
      {frozen.map((item) => (
        <Cell
          key={`${item.currency}-${item.reason}`}
          data-frozen={item.reason}
          className={styles.frozenRow}
          before={<FrozenIcon />}
          title={t("frozen.title")}
          subtitle={formatFiatAmount(item.fiat_amount, item.fiatCurrency, language)}
          after={formatCrypto(minorOf(item.amount, asset.decimals), asset.decimals, item.currency, language)}
          {...(EXPLAINED_REASONS.has(item.reason) ? { onClick: () => void explain(item), chevron: true } : {})}
        />
      ))}
    </>
  )
}

function FrozenIcon() {
  return (
    <span className={styles.frozenIcon} aria-hidden="true">
      <svg width="20" height="20" viewBox="0 0 24 24" fill="currentColor" focusable="false">
        <path d="M11 2h2v3.6l2.5-2.5 1.4 1.4L13 8.4V11h2.6l3.9-3.9 1.4 1.4-2.5 2.5H22v2h-3.6l2.5 2.5-1.4 1.4-3.9-3.9H13v2.6l3.9 3.9-1.4 1.4-2.5-2.5V22h-2v-3.6l-2.5 2.5-1.4-1.4 3.9-3.9V13H8.4l-3.9 3.9-1.4-1.4L5.6 13H2v-2h3.6L3.1 8.5l1.4-1.4L8.4 11H11V8.4L7.1 4.5l1.4-1.4L11 5.6V2Z" />
      </svg>
    </span>
  )
}
