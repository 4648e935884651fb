import { useState } from "react"
import type { Order } from "../api.ts"
import { useGo, useKernel, useT } from "@wallet/kernel-react"
import { Banner, Button, Cell, List, Placeholder, Section } from "@wallet/kernel-react/ui"
import { orderRoute, orderSuccessRoute } from "../routes.ts"
import { errorCode } from "./client.ts"
import { errorKey, formatCrypto, formatFiat } from "./market.ts"
import { alertStyle, CheckRow, padStyle, pageStyle, titleStyle } from "./marketParts.tsx"
import { useMoveOrder } from "./orderHooks.ts"
import { WithOrder } from "./withOrder.tsx"

/**
 * /p2p/orders/$id/confirm-received-payment?source=notification|order|help_flow (spec 3 §2.1): the seller
 * confirms the fiat arrived. The crypto goes to the buyer at once, so the page asks to check the bank app
 * first; then the `received` move and the success page.
 */
function ConfirmReceived({ order }: { readonly order: Order }) {
  const kernel = useKernel()
  const t = useT("p2p")
  const go = useGo()
  const move = useMoveOrder(order)
  const [checked, setChecked] = useState(false)
  const locale = kernel.i18n.language()
  const toOrder = () => void go(orderRoute, { params: { id: String(order.id) }, replace: true })
  if (!order.moves.includes("received")) {
    return (
      <main style={pageStyle} data-testid="p2p-confirm-received-closed">
        <Placeholder
          title={order.status === "COMPLETED" ? t("order.title.completed") : t("order.confirm.notNow")}
          description={t(`order.status.${order.status}`)}
          action={
            <Button look="secondary" size="s" onClick={toOrder}>
              {t("order.confirm.toOrder")}
            </Button>
          }
        />
      </main>
    )
  }
  const fiat = formatFiat(order.fiatAmount, order.fiat, locale)
  const confirm = () =>
    move.mutate("received", {
      onSuccess: (next) => void go(orderSuccessRoute, { params: { id: String(next.id) }, replace: true }),
    })
  return (
    <main style={pageStyle} data-testid="p2p-confirm-received-page">
      <h1 style={titleStyle}>{t("order.confirmReceived.title")}</h1>
      <div style={{ padding: "0 16px 12px" }}>
        <Banner
          tone="warning"
          title={t("order.confirmReceived.warningTitle")}
          description={t("order.confirmReceived.warning", { amount: fiat, name: order.buyer.name })}
        />
      </div>
      <List>
        <Section>
          <Cell title={t("order.amountToReceive")} after={<span data-testid="p2p-confirm-amount">{fiat}</span>} />
          <Cell title={t("order.method")} after={t(`market.methods.${order.paymentMethod.code}`, { defaultValue: order.paymentMethod.name })} />
          <Cell title={t("order.buyer")} after={order.buyer.name} />
          <Cell title={t("order.youRelease")} after={formatCrypto(order.amount, order.crypto)} />
        </Section>
        <Section>
          <CheckRow checked={checked} onChange={setChecked} label={t("order.confirmReceived.check", { amount: fiat })} testId="p2p-confirm-received-check" />
        </Section>
      </List>
      {move.isError && (
        <p role="alert" style={alertStyle}>
          {t(errorKey(errorCode(move.error)))}
        </p>
      )}
      <div style={padStyle}>
        <Button
          look="confirm"
          stretched
          data-testid="p2p-confirm-received"
          disabled={!checked}
          loading={move.isPending}
          loadingLabel={t("market.loading")}
          onClick={confirm}
        >
          {t("order.confirmReceived.button")}
        </Button>
        <Button look="secondary" stretched onClick={toOrder}>
          {t("market.back")}
        </Button>
      </div>
    </main>
  )
}

export default function ConfirmReceivedScreen() {
  return <WithOrder>{(order) => <ConfirmReceived order={order} />}</WithOrder>
}
