import { useEffect, useState } from "react"
import { useSearch } from "@tanstack/react-router"
import { Icon, MainButton, useGo, useKernel, useT } from "@wallet/kernel-react"
import { Cell, List, Placeholder, Section, Skeleton, Spinner } from "@wallet/kernel-react/ui"
import { currencyInfo } from "../../currencies.ts"
import type { WithdrawTransaction } from "../../api.ts"
import { call, chainClient } from "./clients.ts"
import { networkLabel } from "./hooks.ts"
import { formatAmount, isFinalStatus, mapGenericStatus, shortAddress } from "./logic.ts"
import styles from "./send.module.css"
import { walletMainRoute } from "../../routes.ts"

/** How often a withdrawal that is not final is asked again (the devnet makes a block every 400 ms). */
export const STATUS_POLL_MS = 1500

/** Polls a withdrawal until its status is final; `undefined` while the first answer is awaited. */
export function useWithdrawal(id: string | undefined) {
  const kernel = useKernel()
  const [tx, setTx] = useState<WithdrawTransaction | undefined>()
  const [failed, setFailed] = useState(false)
  useEffect(() => {
    if (!id) return
    let stopped = false
    let timer: ReturnType<typeof setTimeout> | undefined
    const poll = async () => {
      const client = await chainClient(kernel).catch(() => undefined)
      const result = client ? await call(kernel, client.custodyChain.getWithdraw({ params: { id } })) : { ok: false as const, error: undefined }
      if (stopped) return
      if (result.ok) {
        setTx(result.value)
        setFailed(false)
        if (isFinalStatus(mapGenericStatus(result.value.status))) return
      } else {
        setFailed(true)
      }
      timer = setTimeout(() => void poll(), STATUS_POLL_MS)
    }
    void poll()
    return () => {
      stopped = true
      if (timer) clearTimeout(timer)
    }
  }, [id, kernel])
  return { tx, failed }
}

/** /assets/send-request-status: follows the withdrawal until it is final (success or failed). */
export default function StatusScreen() {
  const t = useT("custody")
  const kernel = useKernel()
  const go = useGo()
  const { transactionId } = useSearch({ strict: false }) as { transactionId?: string }
  const { tx, failed } = useWithdrawal(transactionId)
  const language = kernel.i18n.language()

  const rawStatus = tx?.status
  useEffect(() => {
    if (!rawStatus) return
    const final = mapGenericStatus(rawStatus)
    if (final === "accepted") kernel.telegram.haptic({ type: "notification", kind: "success" })
    if (final === "failed" || final === "rejected") kernel.telegram.haptic({ type: "notification", kind: "error" })
  }, [rawStatus, kernel])

  if (!transactionId) {
    return (
      <main className={styles.screen}>
        <Placeholder kind="error" title={t("send.status.missing")} />
        <MainButton text={t("send.status.done")} onClick={() => void go(walletMainRoute)} />
      </main>
    )
  }

  const shown = tx ? mapGenericStatus(tx.status) : "pending"
  const decimals = tx ? (currencyInfo(tx.currency)?.decimals ?? 0) : 0
  const iconClass = shown === "accepted" ? styles.heroIconSuccess : shown === "pending" ? styles.heroIconPending : styles.heroIconFailed
  return (
    <main className={styles.screen}>
      <div className={styles.hero} role="status" aria-live="polite">
        <div className={iconClass}>{shown === "pending" ? <Spinner size="l" /> : <Icon name={shown === "accepted" ? "check" : "alert"} size={44} />}</div>
        {tx ? (
          <>
            <p className={styles.heroAmount}>{formatAmount(tx.amount, decimals, tx.currency, language)}</p>
            <h1 className={styles.heroTitle}>{t(`send.status.${shown}.title`)}</h1>
            <p className={styles.heroText}>{t(`send.status.${shown}.text`, { address: shortAddress(tx.address) })}</p>
          </>
        ) : (
          <>
            <Skeleton shape="text" width={180} height={34} />
            <Skeleton shape="text" width={220} />
          </>
        )}
        {failed && <p className={styles.error}>{t("send.status.offline")}</p>}
      </div>
      {tx && (
        <List>
          <Section>
            <Cell multiline title={t("send.confirm.to")} description={<span className={styles.mono}>{tx.address}</span>} />
            <Cell title={t("send.network")} after={networkLabel(tx.network_code, tx.currency)} />
            <Cell title={t("send.confirm.fee")} after={formatAmount(tx.fee, decimals, tx.currency, language)} />
            {tx.comment && <Cell multiline title={t("send.comment.label")} description={tx.comment} />}
            {tx.tx_hash && <Cell multiline title={t("send.status.hash")} description={<span className={styles.mono}>{tx.tx_hash}</span>} />}
          </Section>
        </List>
      )}
      <MainButton text={t("send.status.done")} onClick={() => void go(walletMainRoute)} />
    </main>
  )
}
