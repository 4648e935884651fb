import { useKernel, useT } from "@wallet/kernel-react"
import { Avatar, Cell } from "@wallet/kernel-react/ui"
import type { Transaction } from "../../api.ts"
import { currencyInfo } from "../../currencies.ts"
import { formatCryptoAmount, formatTime, shortAddress } from "./format.ts"
import { mapStatus, rowAppearance, type RowAppearance } from "./status.ts"
import { AssetAvatar, NS } from "./ui.tsx"
import styles from "./wallet.module.css"

const amountClass: Record<RowAppearance, string | undefined> = {
  default: undefined,
  success: styles.amountIn,
  canceled: styles.amountCanceled,
  error: styles.amountError,
  muted: styles.amountMuted,
}

/** Who or where: the Telegram user, else the address, else the gateway's label. */
export const counterpartyLine = (tx: Transaction, t: (key: string, options?: Record<string, unknown>) => string): string => {
  const incoming = tx.type === "deposit"
  if (tx.name) return t(incoming ? "history.from" : "history.to", { name: tx.username ? `@${tx.username}` : tx.name })
  const address = incoming ? tx.inputAddresses[0] : tx.recipientAddress
  if (address) return t(incoming ? "history.fromAddress" : "history.toAddress", { address: shortAddress(address) })
  return t(`gateway.${tx.gateway}`)
}

/** The received side of an exchange row (gateway crypto_exchange with its pair), else null. */
export const exchangePair = (tx: Transaction): { readonly amount: string; readonly currency: string } | null =>
  tx.gateway === "crypto_exchange" && tx.pairTransactionAmount !== null && tx.pairTransactionCurrency !== null
    ? { amount: tx.pairTransactionAmount, currency: tx.pairTransactionCurrency }
    : null

/** One history row with the spec 1 §4 appearance (deposit success, pending muted, fail error, …). */
export function TransactionRow({ tx, onOpen }: { readonly tx: Transaction; readonly onOpen: (tx: Transaction) => void }) {
  const t = useT(NS)
  const kernel = useKernel()
  const language = kernel.i18n.language()
  const appearance = rowAppearance(tx)
  const decimals = currencyInfo(tx.currency)?.decimals ?? 9
  const sign = tx.type === "deposit" ? "+" : "\u2212"
  const status = mapStatus(tx.status === "new" ? "pending" : tx.status)
  const pair = exchangePair(tx)
  if (pair !== null) {
    // An exchange: what came in (the pair) beside what went out, both currencies in the subtitle.
    const pairDecimals = currencyInfo(pair.currency)?.decimals ?? 9
    return (
      <Cell
        data-transaction={tx.id}
        data-appearance={appearance}
        before={<AssetAvatar currency={pair.currency} />}
        title={t("history.exchange")}
        subtitle={`${tx.currency} \u2192 ${pair.currency}`}
        after={<span className={styles.amountIn}>{`+${formatCryptoAmount(pair.amount, pairDecimals, pair.currency, language)}`}</span>}
        afterSubtitle={`\u2212${formatCryptoAmount(tx.amount, decimals, tx.currency, language)}`}
        onClick={() => onOpen(tx)}
      />
    )
  }
  return (
    <Cell
      data-transaction={tx.id}
      data-appearance={appearance}
      before={tx.name ? <Avatar size={40} name={tx.name} {...(tx.photoUrl ? { src: tx.photoUrl } : {})} /> : <AssetAvatar currency={tx.currency} />}
      title={t(tx.type === "deposit" ? "history.deposit" : "history.withdraw")}
      subtitle={counterpartyLine(tx, t)}
      after={<span className={amountClass[appearance]}>{`${sign}${formatCryptoAmount(tx.amount, decimals, tx.currency, language)}`}</span>}
      afterSubtitle={status === "accepted" ? formatTime(tx.date, language) : t(`history.status.${status}`)}
      onClick={() => onOpen(tx)}
    />
  )
}
