import { useQuery } from "@tanstack/react-query"
import { Icon, useGo, useKernel, useT } from "@wallet/kernel-react"
import { Button, List, Section } from "@wallet/kernel-react/ui"
import { coinRoute, tradeRoute } from "../routes.ts"
import { listQuery } from "./client.ts"
import { CoinCell, ListSkeleton, LoadError, NS, SandboxLabel, Screen, useFiat } from "./ui.tsx"
import styles from "./trade.module.css"

/**
 * /stocks-bonus (spec 1 §2): what tokenized stocks and ETFs are, the ones the wallet lists (stocks,
 * then ETFs) and the way to the stocks tab of /trade.
 */
export default function StocksBonusScreen() {
  const t = useT(NS)
  const kernel = useKernel()
  const go = useGo()
  const fiat = useFiat()
  const stocks = useQuery({ ...listQuery(kernel, fiat ?? "USD", "stocks"), enabled: fiat !== undefined })
  const etfs = useQuery({ ...listQuery(kernel, fiat ?? "USD", "etfs"), enabled: fiat !== undefined })
  const failed = stocks.status === "error" || etfs.status === "error"
  return (
    <Screen testId="trade-stocks-bonus">
      <section className={styles.bonus}>
        <Icon name="currency" size={56} />
        <h1 className={styles.bonusTitle}>{t("bonus.title")}</h1>
        <p className={styles.bonusText}>{t("bonus.text")}</p>
      </section>
      <SandboxLabel source={stocks.data?.source} />
      {failed ? (
        <LoadError
          onRetry={() => {
            void stocks.refetch()
            void etfs.refetch()
          }}
        />
      ) : stocks.data === undefined || etfs.data === undefined ? (
        <ListSkeleton rows={4} />
      ) : (
        <List>
          {[
            { key: "stocks", rows: stocks.data.items },
            { key: "etfs", rows: etfs.data.items },
          ].map((group) => (
            <Section key={group.key} header={t(`rankings.${group.key}`)}>
              {group.rows.map((coin) => (
                <CoinCell
                  key={coin.symbol}
                  coin={coin}
                  fiat={stocks.data.fiat}
                  onOpen={() => void go(coinRoute, { params: { symbol: coin.symbol }, search: { source: "stocks_bonus" } })}
                />
              ))}
            </Section>
          ))}
        </List>
      )}
      <div className={styles.pad}>
        <p className={styles.bonusText}>{t("bonus.note")}</p>
      </div>
      <div className={styles.pad}>
        <Button look="primary" stretched data-testid="trade-bonus-explore" onClick={() => void go(tradeRoute, { search: { ranking: "stocks" } })}>
          {t("bonus.explore")}
        </Button>
      </div>
    </Screen>
  )
}
