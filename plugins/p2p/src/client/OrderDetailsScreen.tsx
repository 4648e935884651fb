import type { Order } from "../api.ts"
import { useGo, useKernel, useT } from "@wallet/kernel-react"
import { Cell, List, Section } from "@wallet/kernel-react/ui"
import { offerRoute } from "../routes.ts"
import { formatCrypto, formatFiat } from "./market.ts"
import { formatTime, pageStyle, titleStyle } from "./marketParts.tsx"
import { WithOrder } from "./withOrder.tsx"

/** /p2p/orders/$id/details (spec 3 §2.1): every fact of the order: ids, times, amounts, fees, method and terms. */
function OrderDetails({ order }: { readonly order: Order }) {
  const kernel = useKernel()
  const t = useT("p2p")
  const go = useGo()
  const locale = kernel.i18n.language()
  const time = (iso: string | null) => formatTime(iso, locale)
  return (
    <main style={pageStyle} data-testid="p2p-order-details-page">
      <h1 style={titleStyle}>{t("order.detailsTitle")}</h1>
      <List>
        <Section>
          <Cell title={t("order.id")} after={`#${order.id}`} />
          <Cell title={t("order.offerId")} after={`#${order.offerId}`} chevron onClick={() => void go(offerRoute, { params: { id: String(order.offerId) } })} />
          <Cell title={t("order.statusLabel")} after={t(`order.status.${order.status}`)} />
          <Cell title={t("order.sideLabel")} after={t(order.side === "buyer" ? "order.sideBuyer" : "order.sideSeller")} />
          <Cell title={t("order.roleLabel")} after={t(order.role === "maker" ? "order.roleMaker" : "order.roleTaker")} />
          <Cell title={t("order.buyer")} after={order.buyer.name} />
          <Cell title={t("order.seller")} after={order.seller.name} />
        </Section>
        <Section header={t("order.amounts")}>
          <Cell title={t("order.amount")} after={formatCrypto(order.amount, order.crypto)} />
          <Cell title={t("order.fiatAmount")} after={formatFiat(order.fiatAmount, order.fiat, locale)} />
          <Cell title={t("order.price")} after={t("order.priceValue", { price: formatFiat(order.priceCents, order.fiat, locale), crypto: order.crypto })} />
          <Cell title={t("order.sellerFee")} after={formatCrypto(order.sellerFee, order.crypto)} />
          <Cell title={t("order.buyerFee")} after={formatCrypto(order.buyerFee, order.crypto)} />
          <Cell title={t("order.youReceive")} after={formatCrypto(order.buyerReceives, order.crypto)} subtitle={t("order.buyerReceivesNote")} />
        </Section>
        <Section header={t("order.payment")}>
          <Cell title={t("order.method")} after={t(`market.methods.${order.paymentMethod.code}`, { defaultValue: order.paymentMethod.name })} />
          <Cell title={t("order.window")} after={t("market.offer.minutes", { count: order.paymentWindowMinutes })} />
          {order.terms !== null && order.terms.trim() !== "" && <Cell multiline title={t("market.offer.terms")} description={order.terms} />}
        </Section>
        <Section header={t("order.times")}>
          <Cell title={t("order.createdAt")} after={time(order.createdAt)} />
          {order.acceptedAt !== null && <Cell title={t("order.acceptedAt")} after={time(order.acceptedAt)} />}
          {order.paidAt !== null && <Cell title={t("order.paidAt")} after={time(order.paidAt)} />}
          {order.completedAt !== null && <Cell title={t("order.completedAt")} after={time(order.completedAt)} />}
          {order.closedAt !== null && <Cell title={t("order.closedAt")} after={time(order.closedAt)} />}
          {order.deadline !== null && <Cell title={t("order.deadline")} after={time(order.deadline)} />}
          {order.cancelledBy !== null && <Cell title={t("order.cancelledByLabel")} after={t(`order.cancelledBy.${order.cancelledBy}`)} />}
        </Section>
      </List>
    </main>
  )
}

export default function OrderDetailsScreen() {
  return <WithOrder rows={8}>{(order) => <OrderDetails order={order} />}</WithOrder>
}
