import { useEffect, useState } from "react"
import { useParams } from "@tanstack/react-router"
import { invalidateBalances, kernelQueryClient, MainButton, useGo, useKernel, useT } from "@wallet/kernel-react"
import { Avatar, Button, Cell, CellSkeleton, List, Placeholder, Section, Skeleton, useSnackbar } from "@wallet/kernel-react/ui"
import { currencyInfo, parseAmount } from "../../currencies.ts"
import type { CustodyTransfer } from "../../api.ts"
import { call, custodyClient, errorCode, errorTag } from "./clients.ts"
import { useQuery } from "@tanstack/react-query"
import { accountsQuery } from "../wallet/data.ts"
import { asLoad, FRESH_EACH_VISIT, freshLoadedOf, unwrap } from "../query.ts"
import { custodyKeys } from "../queryKeys.ts"
import { daysLeft, formatAmount, mapTransferStatus, transferView } from "./logic.ts"
import styles from "./send.module.css"
import { scwRoute, walletMainRoute } from "../../routes.ts"

/** While a transfer is pending its page asks again this often (the other side may act). */
export const TRANSFER_POLL_MS = 3000

/**
 * /transfers/$transferId: one custody transfer. By role (spec 1 §2): the receiver accepts it, the
 * sender may cancel it; without custody, or once final, it is shown as a transaction.
 */
export default function TransferScreen() {
  const t = useT("custody")
  const kernel = useKernel()
  const go = useGo()
  const snackbar = useSnackbar()
  const { transferId } = useParams({ strict: false }) as { transferId?: string }
  const language = kernel.i18n.language()
  const [acting, setActing] = useState(false)
  const [now] = useState(() => new Date())
  const valid = transferId !== undefined && /^[1-9][0-9]{0,18}$/.test(transferId)
  const queryClient = kernelQueryClient(kernel)
  const transferKey = custodyKeys.transfer(transferId ?? "")
  const { load, reload } = asLoad(
    useQuery({
      queryKey: transferKey,
      queryFn: async () => {
        const client = await custodyClient(kernel)
        return unwrap(await call(kernel, client.custodyTransfers.get({ params: { transfer_id: transferId! } })))
      },
      enabled: valid,
      ...FRESH_EACH_VISIT,
    }),
  )
  const setTransfer = (value: CustodyTransfer) => queryClient.setQueryData(transferKey, value)
  const transfer: CustodyTransfer | undefined = load.state === "ok" ? load.value : undefined
  const status = transfer ? mapTransferStatus(transfer.tg_transfer_status) : undefined
  // Once the receiver has it (or the sender has it back), show where the balance stands now.
  const settled = transfer !== undefined && ((transfer.role === "receiver" && status === "accepted") || (transfer.role === "sender" && status === "rejected"))
  // The balances query (refetched: the accept or cancel made it stale); the old balance never shows.
  const balanceQuery = useQuery({ ...accountsQuery(kernel, ""), enabled: settled })
  const balance = { load: freshLoadedOf(balanceQuery) }

  // Follow a pending transfer quietly: the other side may accept or cancel it meanwhile.
  useEffect(() => {
    if (!valid || status !== "pending") return
    const timer = setInterval(() => {
      void custodyClient(kernel).then((client) =>
        call(kernel, client.custodyTransfers.get({ params: { transfer_id: transferId! } })).then((result) => {
          if (result.ok && result.value.tg_transfer_status !== "new") queryClient.setQueryData(custodyKeys.transfer(transferId!), result.value)
        }),
      )
    }, TRANSFER_POLL_MS)
    return () => clearInterval(timer)
  }, [valid, status, kernel, transferId, queryClient])

  if (!valid || (load.state === "error" && errorTag(load.error) === "CustodyNotFound")) {
    return (
      <main className={styles.screen}>
        <Placeholder kind="error" title={t("send.transferPage.notFound")} />
        <MainButton text={t("send.status.done")} onClick={() => void go(walletMainRoute)} />
      </main>
    )
  }
  if (load.state === "error") {
    return (
      <main className={styles.screen}>
        <Placeholder
          kind="error"
          title={t("send.transferPage.loadError")}
          action={
            <Button look="secondary" size="s" onClick={reload}>
              {t("send.retry")}
            </Button>
          }
        />
      </main>
    )
  }
  if (!transfer || !status) {
    return (
      <main className={styles.screen} aria-busy="true">
        <div className={styles.hero}>
          <Skeleton shape="circle" width={72} height={72} />
          <Skeleton shape="text" width={200} height={34} />
          <Skeleton shape="text" width={160} />
        </div>
        <List>
          <Section>
            <CellSkeleton before={false} />
            <CellSkeleton before={false} />
          </Section>
        </List>
      </main>
    )
  }

  const user = kernel.user()
  const view = transferView({ role: transfer.role, custody: user?.isCustodyAvailable !== false, status })
  const decimals = currencyInfo(transfer.currency)?.decimals ?? 9
  const amount = formatAmount(parseAmount(transfer.amount, decimals) ?? 0n, decimals, transfer.currency, language)
  const other =
    transfer.role === "receiver"
      ? { name: transfer.sender_name, username: transfer.sender_username, photo: transfer.sender_photo_url, id: transfer.sender_id }
      : { name: transfer.receiver_name, username: transfer.receiver_username, photo: transfer.receiver_photo_url, id: transfer.receiver_id }
  const left = daysLeft(transfer.created_at, now)
  const expires = new Intl.DateTimeFormat(language, { dateStyle: "medium", timeStyle: "short" }).format(new Date(transfer.expires_at))

  const act = async (action: "approve" | "cancel") => {
    if (acting) return
    if (action === "cancel") {
      const answer = await kernel.telegram.popup({
        title: t("send.transferPage.cancelConfirmTitle"),
        message: t("send.transferPage.cancelConfirmText", { amount, name: other.name }),
        buttons: [
          { id: "cancel-transfer", type: "destructive", text: t("send.transferPage.cancel") },
          { id: "keep", type: "cancel" },
        ],
      })
      if (answer !== "cancel-transfer") return
    }
    setActing(true)
    try {
      const client = await custodyClient(kernel)
      const result = await call(
        kernel,
        action === "approve"
          ? client.custodyTransfers.approve({ params: { transfer_id: transfer.id }, query: {} })
          : client.custodyTransfers.cancel({ params: { transfer_id: transfer.id } }),
      )
      if (result.ok) {
        kernel.telegram.haptic({ type: "notification", kind: "success" })
        setTransfer(result.value)
        // An accepted or cancelled transfer changes balances: wallet main refetches them.
        void invalidateBalances(kernelQueryClient(kernel))
        snackbar.show({ id: "custody-transfer-done", text: t(action === "approve" ? "send.transferPage.accepted" : "send.transferPage.canceled", { amount }) })
        return
      }
      kernel.telegram.haptic({ type: "notification", kind: "error" })
      const code = errorCode(result.error)
      snackbar.show({ id: "custody-transfer-failed", text: code ? t(`send.transfer.error.${code}`) : t("send.error.generic") })
      reload()
    } finally {
      setActing(false)
    }
  }

  const heading = transfer.role === "receiver" ? t("send.transferPage.fromTitle", { name: other.name }) : t("send.transferPage.toTitle", { name: other.name })

  return (
    <main className={styles.screen}>
      <div className={styles.hero}>
        <Avatar src={other.photo ?? undefined} name={other.name} colorSeed={other.id} size={72} />
        <p className={styles.heroText}>{heading}</p>
        <p className={styles.heroAmount}>{amount}</p>
        <span className={styles[status]} role="status">
          {t(`send.transferStatus.${status}`)}
        </span>
        {view === "accept" && <p className={styles.heroText}>{t("send.transferPage.acceptText", { days: left, count: left })}</p>}
        {view === "cancel" && <p className={styles.heroText}>{t("send.transferPage.waitingText", { name: other.name, days: left, count: left })}</p>}
        {view === "transaction" && user?.isCustodyAvailable === false && <p className={styles.heroText}>{t("send.transferPage.noCustody")}</p>}
      </div>
      <List>
        <Section>
          <Cell
            title={transfer.role === "receiver" ? t("send.transferPage.from") : t("send.transferPage.to")}
            after={other.username ? `@${other.username}` : other.name}
          />
          <Cell
            title={t("send.transferPage.created")}
            after={new Intl.DateTimeFormat(language, { dateStyle: "medium", timeStyle: "short" }).format(new Date(transfer.created_at))}
          />
          {status === "pending" && <Cell title={t("send.transferPage.expires")} after={expires} />}
          {transfer.comment && <Cell multiline title={t("send.comment.label")} description={transfer.comment} />}
        </Section>
        {settled && (
          <Section>
            {balance.load.state === "ok" ? (
              (() => {
                const asset = balance.load.value.assets.find((a) => a.currency === transfer.currency)
                return asset ? (
                  <Cell
                    title={t("send.transferPage.balance")}
                    after={formatAmount(parseAmount(asset.balance, asset.decimals) ?? 0n, asset.decimals, asset.currency, language)}
                  />
                ) : null
              })()
            ) : balance.load.state === "loading" ? (
              <CellSkeleton before={false} />
            ) : null}
          </Section>
        )}
      </List>
      {view === "accept" ? (
        <MainButton text={t("send.transferPage.accept", { amount })} progress={acting} onClick={() => void act("approve")} />
      ) : view === "cancel" ? (
        <MainButton text={t("send.transferPage.cancel")} look="destructive" progress={acting} onClick={() => void act("cancel")} />
      ) : (
        <MainButton text={t("send.transferPage.openWallet")} onClick={() => void (user?.isCustodyAvailable === false ? go(scwRoute) : go(walletMainRoute))} />
      )}
    </main>
  )
}
