import { useSearch } from "@tanstack/react-router"
import { Icon, MainButton, useGo, useKernel, useT } from "@wallet/kernel-react"
import { Placeholder, Skeleton, Spinner } from "@wallet/kernel-react/ui"
import { currencyInfo } from "../../currencies.ts"
import { formatAmount, mapGenericStatus, shortAddress } from "./logic.ts"
import { cleanSearch } from "./search.ts"
import { useWithdrawal } from "./StatusScreen.tsx"
import styles from "./send.module.css"
import { transactionsRoute, walletMainRoute } from "../../routes.ts"

/** /first-transaction: the celebration after a user's first withdrawal, following its status. */
export default function FirstTransactionScreen() {
  const t = useT("custody")
  const kernel = useKernel()
  const go = useGo()
  const { withdrawTransactionId } = useSearch({ strict: false }) as { withdrawTransactionId?: string }
  const { tx } = useWithdrawal(withdrawTransactionId)
  const language = kernel.i18n.language()

  if (!withdrawTransactionId) {
    return (
      <main className={styles.screen}>
        <Placeholder kind="error" title={t("send.status.missing")} />
        <MainButton text={t("send.status.done")} onClick={() => void go(walletMainRoute)} />
      </main>
    )
  }
  const shown = tx ? mapGenericStatus(tx.status) : "pending"
  const decimals = tx ? (currencyInfo(tx.currency)?.decimals ?? 0) : 0
  return (
    <main className={styles.screen}>
      <div className={styles.hero} role="status" aria-live="polite">
        <div className={shown === "failed" || shown === "rejected" ? styles.heroIconFailed : styles.heroIconSuccess}>
          {shown === "pending" ? <Spinner size="l" /> : <Icon name={shown === "accepted" ? "check" : "alert"} size={44} />}
        </div>
        <h1 className={styles.heroTitle}>{t("send.first.title")}</h1>
        {tx ? (
          <>
            <p className={styles.heroAmount}>{formatAmount(tx.amount, decimals, tx.currency, language)}</p>
            <p className={styles.heroText}>{t(`send.status.${shown}.text`, { address: shortAddress(tx.address) })}</p>
          </>
        ) : (
          <Skeleton shape="text" width={200} height={34} />
        )}
        <p className={styles.heroText}>{t("send.first.text")}</p>
      </div>
      <MainButton
        text={t("send.first.history")}
        onClick={() => void go(transactionsRoute, { search: cleanSearch({ withdrawTransactionId, from: "history" as const }) })}
      />
    </main>
  )
}
