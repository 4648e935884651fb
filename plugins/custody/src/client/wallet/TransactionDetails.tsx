import type { ReactNode } from "react"
import { Icon, useGo, useKernel, useT } from "@wallet/kernel-react"
import { Button, Cell, List, Placeholder, Section, Skeleton, SkeletonList, useSnackbar } from "@wallet/kernel-react/ui"
import { currencyInfo } from "../../currencies.ts"
import { useQuery } from "@tanstack/react-query"
import { loadedOf } from "../query.ts"
import { custodyKeys } from "../queryKeys.ts"
import { callWallet, errorTag } from "./data.ts"
import { formatCryptoAmount, formatDateTime, formatFiatValue } from "./format.ts"
import { networkName } from "./networks.ts"
import { gatewayLabelKey, mapStatus, rowAppearance } from "./status.ts"
import { AssetAvatar, LoadError, NS, Screen } from "./ui.tsx"
import styles from "./wallet.module.css"
import { transferRoute } from "../../routes.ts"

const statusClass = { pending: styles.statusPending, accepted: styles.statusAccepted, rejected: styles.statusRejected, failed: styles.statusFailed }

/** /transactions?transactionId=: one transaction with its gateway's label, status and every known detail. */
export function TransactionDetails({ transactionId }: { readonly transactionId: string }) {
  const t = useT(NS)
  const kernel = useKernel()
  const go = useGo()
  const snackbar = useSnackbar()
  const language = kernel.i18n.language()
  const query = useQuery({
    queryKey: custodyKeys.transaction(transactionId),
    queryFn: () => callWallet(kernel, (c) => c.custody.custodyTransactions.get({ params: { transaction_id: transactionId } })),
  })
  const loaded = loadedOf(query)
  const reload = () => void query.refetch()

  if (loaded.state === "loading") {
    return (
      <Screen>
        <section className={styles.detailsHero} aria-busy="true" aria-label={t("common.loading")}>
          <Skeleton shape="circle" width={56} height={56} />
          <Skeleton shape="text" width={180} height={30} />
        </section>
        <List>
          <Section>
            <SkeletonList rows={4} />
          </Section>
        </List>
      </Screen>
    )
  }
  if (loaded.state === "error") {
    return errorTag(loaded.error) === "CustodyNotFound" || errorTag(loaded.error) === "HttpApiDecodeError" ? (
      <Screen>
        <Placeholder icon={<Icon name="search" size={48} />} title={t("details.notFound")} />
      </Screen>
    ) : (
      <Screen>
        <LoadError onRetry={reload} />
      </Screen>
    )
  }
  const tx = loaded.value
  const decimals = currencyInfo(tx.currency)?.decimals ?? 9
  const status = mapStatus(tx.status === "new" ? "pending" : tx.status)
  const appearance = rowAppearance(tx)
  const copy = (text: string) => {
    void navigator.clipboard?.writeText(text).then(
      () => snackbar.show({ id: "details-copied", text: t("common.copied") }),
      () => undefined,
    )
  }
  const row = (title: string, value: ReactNode) => <Cell key={title} title={title} after={value} />
  // Long values (addresses, hashes) go on their own line; a tap copies them.
  const longRow = (title: string, value: string) => (
    <Cell key={title} title={title} multiline subtitle={<span className={styles.mono}>{value}</span>} onClick={() => copy(value)} />
  )
  const address = tx.type === "deposit" ? tx.inputAddresses[0] : tx.recipientAddress
  const hasTransferPage = tx.transferId !== null && kernel.composition.routes.some((r) => r.fullPath === "/transfers/$transferId")

  return (
    <Screen>
      <section className={styles.detailsHero} data-appearance={appearance}>
        <AssetAvatar currency={tx.currency} size={56} />
        <p className={styles.detailsAmount} data-testid="details-amount">
          {tx.type === "deposit" ? "+" : "\u2212"}
          {formatCryptoAmount(tx.amount, decimals, tx.currency, language, decimals)}
        </p>
        <span className={`${styles.status} ${statusClass[status]}`} data-testid="details-status">
          {t(`history.status.${status}`)}
        </span>
      </section>
      <List>
        <Section header={t("details.title")}>
          {row(t("details.gateway"), t(gatewayLabelKey(tx.gateway)))}
          {row(t("details.date"), formatDateTime(tx.date, language))}
          {row(t("details.fiat"), formatFiatValue(tx.fiatAmount, tx.fiatCurrency, language))}
          {tx.name && row(t("details.counterparty"), tx.username ? `${tx.name} (@${tx.username})` : tx.name)}
          {tx.network && row(t("details.network"), networkName(tx.network))}
          {address && longRow(tx.type === "deposit" ? t("details.sender") : t("details.recipient"), address)}
          {tx.fee && row(t("details.fee"), formatCryptoAmount(tx.fee, decimals, tx.currency, language, decimals))}
          {tx.comment && <Cell key="comment" title={t("details.comment")} multiline subtitle={tx.comment} />}
          {tx.txHash && longRow(t("details.txHash"), tx.txHash)}
        </Section>
      </List>
      {hasTransferPage && (
        <Button look="secondary" stretched onClick={() => void go(transferRoute, { params: { transferId: tx.transferId! } })}>
          {t("details.openTransfer")}
        </Button>
      )}
    </Screen>
  )
}
