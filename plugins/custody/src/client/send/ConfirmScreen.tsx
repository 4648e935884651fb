import { useState } from "react"
import { useSearch } from "@tanstack/react-router"
import { analyticsOf, invalidateBalances, type Kernel, kernelQueryClient, MainButton, useGo, useKernel, useT } from "@wallet/kernel-react"
import { Button, Cell, CellSkeleton, List, Placeholder, Section, useSnackbar } from "@wallet/kernel-react/ui"
import { currencyInfo } from "../../currencies.ts"
import { toClientAddressError, type CreateWithdrawRequest } from "../../api.ts"
import { withdrawalOperation } from "../../operations.ts"
import { call, chainClient, custodyClient, errorCode, errorTag, idempotencyKey } from "./clients.ts"
import { operationGate, operationTokenErrorKey } from "./gate.ts"
import { networkLabel } from "./hooks.ts"
import { useQuery } from "@tanstack/react-query"
import { asLoad, FRESH_EACH_VISIT, unwrap } from "../query.ts"
import { custodyKeys } from "../queryKeys.ts"
import { formatAmount, toMinor } from "./logic.ts"
import { cleanSearch, qrFallbackSearch, type SendParams } from "./search.ts"
import styles from "./send.module.css"
import { firstTransactionRoute, sendRoute, sendStatusRoute } from "../../routes.ts"

/**
 * Whether the withdrawal just made is the user's first one (its history holds no other on-chain
 * withdrawal): then /first-transaction celebrates it. Any doubt (a failed call) says no.
 */
async function isFirstWithdrawal(kernel: Kernel): Promise<boolean> {
  const client = await custodyClient(kernel).catch(() => undefined)
  if (!client) return false
  const page = await call(kernel, client.custodyTransactions.list({ query: { limit: 50 } }))
  if (!page.ok) return false
  return page.value.items.filter((item) => item.gateway === "withdraw_onchain").length <= 1 && page.value.nextCursor === null
}

/** /assets/send-request-confirmation: the summary, confirmed with the main button. */
export default function ConfirmScreen() {
  const t = useT("custody")
  const kernel = useKernel()
  const go = useGo()
  const snackbar = useSnackbar()
  const search = useSearch({ strict: false }) as SendParams
  const language = kernel.i18n.language()
  const [key] = useState(idempotencyKey)
  const [sending, setSending] = useState(false)

  const currency = search.assetCurrency
  const info = currency ? currencyInfo(currency) : undefined
  const network = search.assetNetwork ?? info?.networks[0]
  const amount = info && search.value ? toMinor(search.value, info.decimals) : undefined
  const complete =
    currency !== undefined &&
    info !== undefined &&
    network !== undefined &&
    info.networks.includes(network) &&
    search.address !== undefined &&
    amount !== undefined &&
    amount > 0n
  const maxValue = search.maxBalanceUsedAmount !== undefined && search.maxBalanceUsedAmount === search.value

  const details = asLoad(
    useQuery({
      queryKey: custodyKeys.withdrawCheck(currency ?? "", network ?? "", search.address ?? ""),
      queryFn: async () => {
        const client = await chainClient(kernel)
        const [limits, address] = await Promise.all([
          call(kernel, client.custodyChain.withdrawLimits({ query: { currency: currency!, network: network! } })),
          call(kernel, client.custodyChain.validateAddress({ query: { currency: currency!, network: network!, address: search.address! } })),
        ])
        return { limits: unwrap(limits), address: unwrap(address) }
      },
      enabled: complete,
      ...FRESH_EACH_VISIT,
    }),
  )

  const backToForm = (withQr: boolean) => go(sendRoute, { search: cleanSearch({ ...search, qr: withQr ? true : undefined }), replace: true })

  const failureText = (error: unknown): string => {
    const refused = operationTokenErrorKey(errorTag(error), errorCode(error))
    if (refused) return t(refused)
    if (errorTag(error) === "AddressCheckError") return t(`send.address.error.${toClientAddressError(errorCode(error))}`)
    const code = errorCode(error)
    if (errorTag(error) === "ChainRequestError" && code) return t(`send.error.${code}`)
    return t("send.error.generic")
  }

  const submit = async () => {
    if (!complete || sending || details.load.state !== "ok") return
    analyticsOf(kernel).track("custody.send_submit", { currency: currency ?? null, network: network ?? null, kind: "chain" })
    setSending(true)
    try {
      const payload: CreateWithdrawRequest = {
        amount: amount!,
        currency: currency!,
        max_value: maxValue,
        address: search.address!,
        network: network!,
        idempotency_key: key,
        ...(search.comment ? { comment: search.comment } : {}),
      }
      // The operation token for exactly this withdrawal (decision 0550); the gate fails closed.
      const gate = await operationGate(kernel, withdrawalOperation(payload))
      if (gate.kind === "cancelled") return
      if (gate.kind === "unavailable") {
        kernel.telegram.haptic({ type: "notification", kind: "error" })
        snackbar.show({ id: "custody-send-failed", text: t("send.operationToken.unavailable") })
        return
      }
      const client = await chainClient(kernel)
      const result = await call(kernel, client.custodyChain.createWithdraw({ headers: gate.headers, payload }))
      if (result.ok && result.value.kind === "transaction") {
        kernel.telegram.haptic({ type: "notification", kind: "success" })
        // Money moved: every balances query (wallet main's included) is stale now.
        void invalidateBalances(kernelQueryClient(kernel))
        const id = result.value.transaction.id
        if (await isFirstWithdrawal(kernel)) await go(firstTransactionRoute, { search: { withdrawTransactionId: id }, replace: true })
        else await go(sendStatusRoute, { search: cleanSearch({ transactionId: id }), replace: true })
        return
      }
      kernel.telegram.haptic({ type: "notification", kind: "error" })
      if (result.ok) {
        const banner = result.value.kind === "alerting_banner" ? result.value.alerting_banner : undefined
        snackbar.show({ id: "custody-send-banner", text: banner?.title ?? t("send.error.generic"), ...(banner ? { description: banner.message } : {}) })
        return
      }
      // Spec 1 §4: a failed withdraw request from a QR with an amount opens the manual send form prefilled.
      const fallback = qrFallbackSearch(search)
      if (fallback) {
        snackbar.show({ id: "custody-send-failed", text: failureText(result.error), description: t("send.confirm.qrFallback"), persistAcrossNavigation: true })
        await go(sendRoute, { search: fallback, replace: true })
        return
      }
      snackbar.show({ id: "custody-send-failed", text: failureText(result.error) })
    } finally {
      setSending(false)
    }
  }

  if (!complete) {
    return (
      <main className={styles.screen}>
        <Placeholder
          kind="error"
          title={t("send.confirm.incomplete")}
          action={
            <Button look="secondary" onClick={() => void backToForm(search.qr === true)}>
              {t("send.confirm.edit")}
            </Button>
          }
        />
      </main>
    )
  }

  const decimals = info.decimals
  const fee = details.load.state === "ok" ? details.load.value.limits.fee : undefined
  return (
    <main className={styles.screen}>
      <div className={styles.hero}>
        <p className={styles.heroText}>{t("send.confirm.title")}</p>
        <p className={styles.heroAmount}>{formatAmount(amount, decimals, currency, language)}</p>
      </div>
      <List>
        {details.load.state === "loading" ? (
          <Section>
            <CellSkeleton before={false} />
            <CellSkeleton before={false} />
            <CellSkeleton before={false} />
          </Section>
        ) : details.load.state === "error" ? (
          <Placeholder
            kind="error"
            title={failureText(details.load.error)}
            action={
              <Button look="secondary" onClick={() => void backToForm(search.qr === true)}>
                {t("send.confirm.edit")}
              </Button>
            }
          />
        ) : (
          <Section>
            <Cell
              multiline
              title={t("send.confirm.to")}
              description={
                <span className={styles.mono}>
                  {details.load.value.address.domain ? `${details.load.value.address.domain} · ` : ""}
                  {details.load.value.address.address}
                </span>
              }
            />
            <Cell title={t("send.network")} after={networkLabel(network, currency)} />
            <Cell title={t("send.confirm.fee")} after={formatAmount(fee!, decimals, currency, language)} />
            <Cell title={t("send.confirm.total")} after={formatAmount(amount + fee!, decimals, currency, language)} />
            {search.comment && <Cell multiline title={t("send.comment.label")} description={search.comment} />}
          </Section>
        )}
      </List>
      <MainButton text={t("send.confirm.send")} progress={sending} disabled={details.load.state !== "ok"} onClick={() => void submit()} />
    </main>
  )
}
