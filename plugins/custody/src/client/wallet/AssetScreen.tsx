import { useEffect, useState } from "react"
import { useQuery } from "@tanstack/react-query"
import { useParams } from "@tanstack/react-router"
import { Effect } from "effect"
import { Icon, useGo, useGoTo, useKernel, useT } from "@wallet/kernel-react"
import { Button, List, Placeholder, Section, Skeleton, SkeletonList } from "@wallet/kernel-react/ui"
import type { AccountsData, Asset, Transaction } from "../../api.ts"
import { currencyInfo } from "../../currencies.ts"
import { ACCESS_FLAG_OF, actionAvailability } from "./availability.ts"
import { loadedOf, type Loaded } from "../query.ts"
import { custodyKeys } from "../queryKeys.ts"
import { accountsQuery, callWallet, useFiat } from "./data.ts"
import { formatCryptoAmount, formatFiatValue, formatPercent, formatPrice } from "./format.ts"
import { PriceChart } from "./PriceChart.tsx"
import { TransactionRow } from "./TransactionRow.tsx"
import { ActionButtons, AssetAvatar, LoadError, NS, Screen, useAssetName, type ActionItem } from "./ui.tsx"
import styles from "./wallet.module.css"
import { receiveRoute, sendRoute, transactionsListRoute, transactionsRoute } from "../../routes.ts"

/** How many of the asset's transactions the page shows before "All transactions". */
const LAST_TRANSACTIONS = 5

export interface AssetPageData {
  readonly fiat: string
  readonly accounts: AccountsData
  readonly asset: Asset | undefined
}

/** The accounts in the user's fiat and the asset of the route (undefined when unknown). */
export const useAssetPage = (currency: string): { readonly loaded: Loaded<AssetPageData>; readonly reload: () => void } => {
  const kernel = useKernel()
  const fiat = useFiat(kernel).data
  const query = useQuery({ ...accountsQuery(kernel, fiat ?? ""), enabled: fiat !== undefined })
  const accounts = loadedOf(query)
  const loaded: Loaded<AssetPageData> =
    accounts.state !== "ok" || fiat === undefined
      ? accounts.state === "error"
        ? accounts
        : { state: "loading" }
      : {
          state: "ok",
          value: { fiat, accounts: accounts.value, asset: accounts.value.assets.find((a) => a.currency.toLowerCase() === currency.toLowerCase()) },
        }
  return { loaded, reload: () => void query.refetch() }
}

/** /assets/{assetCurrency}: balance, its fiat value, actions, price chart and the last transactions. */
export default function AssetScreen() {
  const t = useT(NS)
  const kernel = useKernel()
  const go = useGo()
  const goTo = useGoTo()
  const nameOf = useAssetName()
  const { assetCurrency = "" } = useParams({ strict: false }) as { assetCurrency?: string }
  // No polling (spec 1 §7: asset polling is off): the balance is refetched once it is 60 s old.
  const { loaded, reload } = useAssetPage(assetCurrency)
  const [now] = useState(() => new Date())
  const language = kernel.i18n.language()

  const asset = loaded.state === "ok" ? loaded.value.asset : undefined
  // Opening the asset page counts as seeing a new currency (its 'new' badge goes away).
  useEffect(() => {
    if (asset?.isNewCurrency)
      void callWallet(kernel, (c) => c.custody.custodyAccounts.setNewCurrencySeen({ query: { currency: asset.currency } }).pipe(Effect.ignore))
  }, [kernel, asset])

  if (loaded.state === "loading") return <AssetSkeleton />
  if (loaded.state === "error")
    return (
      <Screen>
        <LoadError onRetry={reload} />
      </Screen>
    )
  const { accounts, fiat } = loaded.value
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

  const paths = new Set(kernel.composition.routes.map((r) => r.fullPath))
  const flags = accounts.accessFlags as Readonly<Record<string, boolean>>
  const item = (name: ActionItem["name"], run: () => void): ActionItem => {
    const flag = ACCESS_FLAG_OF[name]
    return { name, availability: actionAvailability(asset.actions[name], flag ? flags[flag] : undefined, now), onRun: run }
  }
  const receive = () => void go(receiveRoute, { search: { assetCurrency: asset.currency, source: "asset" } })
  const send = () => void go(sendRoute, { search: { assetCurrency: asset.currency } })
  const category = currencyInfo(asset.currency)?.category
  const items: ActionItem[] = []
  if (category === "stock" || category === "etf") {
    // A stock token is bought and sold for USDT through the exchange (its buy and sell actions carry the market's
    // next opening when it is closed); it is never deposited, and sent only where send is allowed (spec 1 §6).
    if (paths.has("/exchange")) {
      const trade = (tradingMode: "buy" | "sell") => () =>
        void goTo({
          to: "/exchange",
          search:
            tradingMode === "buy"
              ? { payCurrency: "USDT", receiveCurrency: asset.currency, tradingMode }
              : { payCurrency: asset.currency, receiveCurrency: "USDT", tradingMode },
        })
      items.push(item("buy", trade("buy")), item("sell", trade("sell")))
    }
    if (paths.has("/assets/send")) items.push(item("send", send))
  } else {
    items.push(item("receive", receive))
    if (paths.has("/assets/send")) items.push(item("send", send))
    // Another plugin's screen, in some regions only: a plain target to the path composition serves.
    if (paths.has("/exchange")) items.push(item("exchange", () => void goTo({ to: "/exchange", search: { payCurrency: asset.currency } })))
    // The ramp plugin's purchase and sale (issue 23), where a region serves them.
    if (paths.has("/purchase-options"))
      items.push(item("buy", () => void goTo({ to: "/purchase-options", search: { assetCurrency: asset.currency, source: "asset" } })))
    if (paths.has("/sell-options")) items.push(item("sell", () => void goTo({ to: "/sell-options", search: { source: "asset" } })))
  }

  return (
    <Screen>
      <section className={styles.hero} aria-live="polite">
        <AssetAvatar currency={asset.currency} size={64} />
        <p className={styles.heroName}>{nameOf(asset)}</p>
        <p className={styles.heroValue} data-testid="asset-balance">
          {formatCryptoAmount(asset.balance, asset.decimals, asset.currency, language)}
        </p>
        <p className={styles.heroSub}>{formatFiatValue(asset.fiatBalance, asset.fiatCurrency, language)}</p>
      </section>
      <ActionButtons items={items} onDeposit={receive} />
      {accounts.accessFlags.accessToAssetCharts && <PriceChart crypto={asset.currency} fiat={fiat} />}
      <List>
        <Section header={t("asset.price")}>
          <div className={styles.description}>
            {formatPrice(asset.rate, asset.fiatCurrency, language)}{" "}
            <span className={asset.percentChange > 0 ? styles.up : asset.percentChange < 0 ? styles.down : undefined}>
              {formatPercent(asset.percentChange, language)}
            </span>
          </div>
        </Section>
        <LastTransactions currency={asset.currency} />
      </List>
    </Screen>
  )
}

function LastTransactions({ currency }: { readonly currency: string }) {
  const t = useT(NS)
  const kernel = useKernel()
  const go = useGo()
  const query = useQuery({
    queryKey: custodyKeys.lastTransactions(currency, LAST_TRANSACTIONS),
    queryFn: () => callWallet(kernel, (c) => c.custody.custodyTransactions.list({ query: { currency, limit: LAST_TRANSACTIONS } })),
  })
  const loaded = loadedOf(query)
  const reload = () => void query.refetch()
  const open = (tx: Transaction) => void go(transactionsRoute, { search: { transactionId: tx.id } })
  return (
    <Section header={t("asset.lastTransactions")}>
      {loaded.state === "loading" ? (
        <SkeletonList />
      ) : loaded.state === "error" ? (
        <LoadError onRetry={reload} />
      ) : loaded.value.items.length === 0 ? (
        <Placeholder title={t("asset.noTransactions", { currency })} />
      ) : (
        <>
          {loaded.value.items.map((tx) => (
            <TransactionRow key={tx.id} tx={tx} onOpen={open} />
          ))}
          <Button look="plain" stretched onClick={() => void go(transactionsListRoute, { search: { assetCurrency: currency } })}>
            {t("asset.allTransactions")}
          </Button>
        </>
      )}
    </Section>
  )
}

export function AssetSkeleton() {
  const t = useT(NS)
  return (
    <Screen>
      <section className={styles.hero} aria-busy="true" aria-label={t("common.loading")}>
        <Skeleton shape="circle" width={64} height={64} />
        <Skeleton shape="text" width={120} />
        <Skeleton shape="text" width={200} height={34} />
      </section>
      <List>
        <Section>
          <SkeletonList />
        </Section>
      </List>
    </Screen>
  )
}
