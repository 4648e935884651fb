import { useState } from "react"
import type { Order } from "../api.ts"
import { useGo, useKernel, useT } from "@wallet/kernel-react"
import { Banner, Button, Cell, List, Placeholder, Section } from "@wallet/kernel-react/ui"
import { orderRoute } from "../routes.ts"
import { errorCode } from "./client.ts"
import { detailsLine, errorKey, formatFiat } from "./market.ts"
import { alertStyle, CheckRow, padStyle, pageStyle, titleStyle } from "./marketParts.tsx"
import { useMoveOrder } from "./orderHooks.ts"
import { WithOrder } from "./withOrder.tsx"

/**
 * /p2p/orders/$id/confirm-sent-payment (spec 3 §2.1): the buyer says they transferred the order's fiat
 * to the seller's details: a checkbox, then the `paid` move, then back to the order.
 */
function ConfirmSent({ order }: { readonly order: Order }) {
  const kernel = useKernel()
  const t = useT("p2p")
  const go = useGo()
  const move = useMoveOrder(order)
  const [checked, setChecked] = useState(false)
  const locale = kernel.i18n.language()
  const toOrder = () => void go(orderRoute, { params: { id: String(order.id) }, replace: true })
  if (!order.moves.includes("paid")) {
    return (
      <main style={pageStyle} data-testid="p2p-confirm-sent-closed">
        <Placeholder
          title={t("order.confirm.notNow")}
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
    move.mutate("paid", {
      onSuccess: () => toOrder(),
    })
  return (
    <main style={pageStyle} data-testid="p2p-confirm-sent-page">
      <h1 style={titleStyle}>{t("order.confirmSent.title")}</h1>
      <div style={{ padding: "0 16px 12px" }}>
        <Banner tone="warning" title={t("order.confirmSent.warning")} />
      </div>
      <List>
        <Section>
          <Cell title={t("order.amountToPay")} after={<span data-testid="p2p-confirm-amount">{fiat}</span>} />
          <Cell title={t("order.method")} after={t(`market.methods.${order.paymentMethod.code}`, { defaultValue: order.paymentMethod.name })} />
          {order.paymentDetails !== null && <Cell multiline title={t("order.payTo")} description={detailsLine(order.paymentDetails.fields)} />}
          <Cell title={t("order.seller")} after={order.seller.name} />
        </Section>
        <Section>
          <CheckRow
            checked={checked}
            onChange={setChecked}
            label={t("order.confirmSent.check", { amount: fiat, name: order.seller.name })}
            testId="p2p-confirm-sent-check"
          />
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
          data-testid="p2p-confirm-sent"
          disabled={!checked}
          loading={move.isPending}
          loadingLabel={t("market.loading")}
          onClick={confirm}
        >
          {t("order.confirmSent.button")}
        </Button>
        <Button look="secondary" stretched onClick={toOrder}>
          {t("market.back")}
        </Button>
      </div>
    </main>
  )
}

export default function ConfirmSentScreen() {
  return <WithOrder>{(order) => <ConfirmSent order={order} />}</WithOrder>
}
