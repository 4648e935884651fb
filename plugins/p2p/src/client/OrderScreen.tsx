import { useEffect, useRef, useState } from "react"
import { useParams } from "@tanstack/react-router"
import { useGo, useKernel, useT } from "@wallet/kernel-react"
import { Badge, Banner, BottomSheet, Button, Cell, List, Section, SkeletonList, TextField, useSnackbar } from "@wallet/kernel-react/ui"
import { useQueryClient } from "@tanstack/react-query"
import { formatAmount } from "@wallet/kernel"
import type { Order } from "../api.ts"
import { cryptoDecimals, MAX_STATEMENT, type OrderMove } from "../domain.ts"
import { confirmReceivedRoute, confirmSentRoute, orderChatRoute, orderDetailsRoute, orderHelpRoute, orderSuccessRoute, p2pHomeRoute } from "../routes.ts"
import { badgeText, chatErrorKey } from "./chat.ts"
import { addStatement, chatKeys, errorCode, keys } from "./client.ts"
import { ReceiptFiles, ReceiptPicker } from "./orderFiles.tsx"
import { countdown, counterpartyOf, formatCrypto, formatFiat, formatFiatPlain, idOf, isActiveStatus, orderTitleKey } from "./market.ts"
import { LoadError, NotFound, padStyle, pageStyle, titleStyle, useNow } from "./marketParts.tsx"
import { useMoveOrder, useOrder } from "./orderHooks.ts"
import { FeedbackBlock, TraderCell } from "./reputationParts.tsx"

/** The seller's details the buyer pays to: each field with a copy button. */
function PaymentDetailsSection({ order }: { readonly order: Order }) {
  const t = useT("p2p")
  const snackbar = useSnackbar()
  const details = order.paymentDetails
  const copy = (value: string) =>
    void navigator.clipboard?.writeText(value).then(
      () => snackbar.show({ id: "p2p-copied", text: t("order.copied") }),
      () => undefined,
    )
  return (
    <Section header={t("order.payTo")} footer={t("order.payToFooter")}>
      <Cell title={t("order.method")} after={t(`market.methods.${order.paymentMethod.code}`, { defaultValue: order.paymentMethod.name })} />
      {details !== null &&
        Object.entries(details.fields)
          .filter(([, value]) => value.trim() !== "")
          .map(([kind, value]) => (
            <Cell
              key={kind}
              data-testid={`p2p-order-field-${kind}`}
              subtitle={t(`order.field.${kind}`, { defaultValue: kind })}
              title={
                <span style={{ fontFamily: kind === "comment" || kind === "holderName" || kind === "bankName" ? undefined : "var(--wk-font-family-mono)" }}>
                  {value}
                </span>
              }
              after={
                <Button
                  look="plain"
                  size="s"
                  aria-label={t("order.copyField", { field: t(`order.field.${kind}`, { defaultValue: kind }) })}
                  onClick={() => copy(value)}
                >
                  {t("order.copy")}
                </Button>
              }
            />
          ))}
      <Cell
        title={t("order.amountToPay")}
        after={
          <Button
            look="plain"
            size="s"
            aria-label={t("order.copyField", { field: t("order.amountToPay") })}
            onClick={() => copy(formatFiatPlain(order.fiatAmount))}
          >
            {t("order.copy")}
          </Button>
        }
        subtitle={<span data-testid="p2p-order-pay-amount">{formatFiatPlain(order.fiatAmount)}</span>}
      />
    </Section>
  )
}

/** Issue 21: the order's appeal: its state, every statement, and one more while it is open. */
function AppealSection({ order }: { readonly order: Order }) {
  const kernel = useKernel()
  const t = useT("p2p")
  const queryClient = useQueryClient()
  const snackbar = useSnackbar()
  const [text, setText] = useState("")
  const [sending, setSending] = useState(false)
  const [receiptIds, setReceiptIds] = useState<ReadonlyArray<number>>([])
  const appeal = order.appeal!
  const send = async () => {
    if (text.trim().length === 0 || sending) return
    setSending(true)
    try {
      queryClient.setQueryData(keys.order(order.id), await addStatement(kernel, { orderId: order.id, text: text.trim(), receiptIds: [...receiptIds] }))
      void queryClient.invalidateQueries({ queryKey: chatKeys.receipts(order.id) })
      setText("")
      snackbar.show({ id: "p2p-appeal", text: t("appeal.sent") })
    } catch (error) {
      snackbar.show({ id: "p2p-appeal", text: t(chatErrorKey(errorCode(error))) })
    } finally {
      setSending(false)
    }
  }
  const outcome =
    appeal.outcome === null
      ? null
      : t(`appeal.outcome.${appeal.outcome}`, {
          amount: `${formatAmount(BigInt(appeal.buyerAmount ?? "0"), cryptoDecimals(order.crypto) ?? 0)} ${order.crypto}`,
        })
  return (
    <List>
      <Section header={t("appeal.title")}>
        <Cell
          multiline
          data-testid="p2p-appeal-status"
          data-status={appeal.status}
          title={t(`appeal.status.${appeal.status}`)}
          description={outcome ?? t(`help.issues.${appeal.issue}`)}
        />
        {appeal.statements.map((statement, index) => (
          <div key={index}>
            <Cell multiline data-testid="p2p-appeal-statement" title={t(`appeal.author.${statement.author}`)} description={statement.text} />
            <ReceiptFiles orderId={order.id} files={statement.files} author={t(`appeal.author.${statement.author}`)} />
          </div>
        ))}
        {appeal.status === "OPEN" && (
          <div style={{ padding: "12px 16px", display: "flex", flexDirection: "column", gap: 8 }}>
            <TextField
              multiline
              rows={3}
              label={t("appeal.addLabel")}
              value={text}
              maxLength={MAX_STATEMENT}
              onChange={setText}
              data-testid="p2p-appeal-text"
            />
            <ReceiptPicker orderId={order.id} onIds={setReceiptIds} />
            <Button look="secondary" data-testid="p2p-appeal-add" disabled={text.trim().length === 0} loading={sending} onClick={() => void send()}>
              {t("appeal.add")}
            </Button>
          </div>
        )}
      </Section>
    </List>
  )
}

/**
 * /p2p/orders/$id (spec 3 §2.1, §4.1; decision 1000): the order as the requester's side sees it, polled
 * while active. The title says what happens now; the buyer sees where to pay and the time left; the
 * buttons are the moves the server allows (cancel asks first). A completed order moves on to its page.
 */
export default function OrderScreen() {
  const kernel = useKernel()
  const t = useT("p2p")
  const go = useGo()
  const params = useParams({ strict: false }) as { readonly id?: string }
  const id = idOf(params.id)
  const query = useOrder(id)
  const order = query.data
  const move = useMoveOrder(order)
  const [confirmCancel, setConfirmCancel] = useState(false)
  const locale = kernel.i18n.language()
  const now = useNow(order !== undefined && order.deadline !== null && isActiveStatus(order.status))

  // Spec 3 §2.1: an order that completes while open goes to its success page (not one opened completed).
  const seenStatus = useRef<string | undefined>(undefined)
  const status = order?.status
  useEffect(() => {
    if (status === undefined) return
    const before = seenStatus.current
    seenStatus.current = status
    if (before !== undefined && before !== "COMPLETED" && status === "COMPLETED" && id !== null)
      void go(orderSuccessRoute, { params: { id: String(id) }, replace: true })
  }, [status, id, go])

  const toHome = (
    <Button look="secondary" size="s" onClick={() => void go(p2pHomeRoute)}>
      {t("market.toHome")}
    </Button>
  )
  if (id === null) return <NotFound kind="order" action={toHome} />
  if (order === undefined) {
    if (query.status === "error") {
      if (errorCode(query.error) === "order_not_found") return <NotFound kind="order" action={toHome} />
      return (
        <main style={pageStyle}>
          <LoadError retry={() => void query.refetch()} />
        </main>
      )
    }
    return (
      <main style={pageStyle}>
        <SkeletonList rows={5} label={t("market.loading")} />
      </main>
    )
  }

  const other = counterpartyOf(order)
  const fiat = formatFiat(order.fiatAmount, order.fiat, locale)
  const left = isActiveStatus(order.status) ? countdown(order.deadline, now) : null
  const buyer = order.side === "buyer"
  const showDetails = buyer && (order.status === "ACCEPTED" || order.status === "PAID") && order.paymentDetails !== null
  const moves = order.moves
  const run = (m: Exclude<OrderMove, "appeal">) => move.mutate(m)

  return (
    <main style={pageStyle} data-testid="p2p-order" data-status={order.status} data-side={order.side}>
      <h1 style={titleStyle} data-testid="p2p-order-title">
        {t(orderTitleKey(order), { amount: fiat, crypto: order.crypto })}
      </h1>
      {left !== null && (
        <p style={{ margin: "0 16px 12px", color: "var(--wk-color-hint)" }} data-testid="p2p-order-countdown" aria-live="off">
          {t(order.status === "REQUESTED" ? "order.timeToAccept" : order.status === "ACCEPTED" ? "order.timeToPay" : "order.timeLeft", { time: left })}
        </p>
      )}
      {order.status === "PAID" && !buyer && (
        <div style={{ padding: "0 16px 12px" }}>
          <Banner tone="warning" title={t("order.checkAccount", { amount: fiat })} />
        </div>
      )}
      {order.status === "ACCEPTED" && buyer && (
        <div style={{ padding: "0 16px 12px" }}>
          <Banner tone="info" title={t("order.payHint", { amount: fiat })} />
        </div>
      )}
      <List>
        {showDetails && <PaymentDetailsSection order={order} />}
        <Section>
          <Cell
            title={t(buyer ? "order.youBuy" : "order.youSell")}
            after={<span data-testid="p2p-order-amount">{formatCrypto(order.amount, order.crypto)}</span>}
          />
          <Cell title={t(buyer ? "order.youPay" : "order.youGet")} after={<span data-testid="p2p-order-fiat">{fiat}</span>} />
          <Cell title={t("order.price")} after={t("order.priceValue", { price: formatFiat(order.priceCents, order.fiat, locale), crypto: order.crypto })} />
          {buyer ? (
            <Cell title={t("order.youReceive")} after={formatCrypto(order.buyerReceives, order.crypto)} />
          ) : (
            <Cell title={t("order.fee")} after={formatCrypto(order.sellerFee, order.crypto)} />
          )}
          {!showDetails && (
            <Cell title={t("order.method")} after={t(`market.methods.${order.paymentMethod.code}`, { defaultValue: order.paymentMethod.name })} />
          )}
        </Section>
        <Section>
          <TraderCell trader={other} role={t(buyer ? "order.seller" : "order.buyer")} size={36} />
          <Cell
            data-testid="p2p-order-chat"
            title={t("chat.open")}
            chevron
            onClick={() => void go(orderChatRoute, { params: { id: String(order.id) } })}
            after={
              order.unreadMessages > 0 ? (
                <Badge tone="destructive" data-testid="p2p-order-chat-unread" aria-label={t("chat.unread", { count: order.unreadMessages })}>
                  {badgeText(order.unreadMessages)}
                </Badge>
              ) : undefined
            }
          />
          <Cell title={t("order.id")} after={<span data-testid="p2p-order-id">{`#${order.id}`}</span>} />
          <Cell
            data-testid="p2p-order-details"
            title={t("order.details")}
            chevron
            onClick={() => void go(orderDetailsRoute, { params: { id: String(order.id) } })}
          />
        </Section>
      </List>
      {order.appeal !== null && <AppealSection order={order} />}
      <FeedbackBlock order={order} />
      <div style={padStyle}>
        {moves.includes("accept") && (
          <Button look="confirm" stretched data-testid="p2p-order-accept" loading={move.isPending && move.variables === "accept"} onClick={() => run("accept")}>
            {t("order.move.accept")}
          </Button>
        )}
        {moves.includes("paid") && (
          <Button
            look="confirm"
            stretched
            data-testid="p2p-order-paid"
            onClick={() => void go(confirmSentRoute, { params: { id: String(order.id) }, search: { source: "order" } })}
          >
            {t("order.move.paid")}
          </Button>
        )}
        {moves.includes("received") && (
          <Button
            look="confirm"
            stretched
            data-testid="p2p-order-received"
            onClick={() => void go(confirmReceivedRoute, { params: { id: String(order.id) }, search: { source: "order" } })}
          >
            {t("order.move.received")}
          </Button>
        )}
        {moves.includes("reject") && (
          <Button
            look="destructive"
            stretched
            data-testid="p2p-order-reject"
            loading={move.isPending && move.variables === "reject"}
            onClick={() => run("reject")}
          >
            {t("order.move.reject")}
          </Button>
        )}
        {moves.includes("appeal") && (
          <Button look="secondary" stretched data-testid="p2p-order-appeal" onClick={() => void go(orderHelpRoute, { params: { id: String(order.id) } })}>
            {t("order.move.appeal")}
          </Button>
        )}
        {moves.includes("cancel") && (
          <Button look="secondary" stretched data-testid="p2p-order-cancel" onClick={() => setConfirmCancel(true)}>
            {t("order.move.cancel")}
          </Button>
        )}
      </div>
      <BottomSheet
        open={confirmCancel}
        onClose={() => setConfirmCancel(false)}
        title={t("order.cancelSheet.title")}
        closeLabel={t("market.close")}
        footer={
          <div style={{ display: "flex", flexDirection: "column", gap: 8 }}>
            <Button
              look="destructive"
              stretched
              data-testid="p2p-order-cancel-confirm"
              loading={move.isPending && move.variables === "cancel"}
              onClick={() => move.mutate("cancel", { onSettled: () => setConfirmCancel(false) })}
            >
              {t("order.cancelSheet.confirm")}
            </Button>
            <Button look="secondary" stretched onClick={() => setConfirmCancel(false)}>
              {t("order.cancelSheet.keep")}
            </Button>
          </div>
        }
      >
        <p style={{ margin: 0, lineHeight: 1.4 }} role="alert">
          {t(buyer ? "order.cancelSheet.warningBuyer" : "order.cancelSheet.warningSeller")}
        </p>
      </BottomSheet>
    </main>
  )
}
