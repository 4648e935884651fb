import type { Order } from "../api.ts"
import { useGo, useKernel, useT } from "@wallet/kernel-react"
import { Button, Cell, List, Placeholder, Section } from "@wallet/kernel-react/ui"
import { orderRoute, p2pHomeRoute, walletMainRoute } from "../routes.ts"
import { formatCrypto, formatFiat } from "./market.ts"
import { WithOrder } from "./withOrder.tsx"
import { padStyle, pageStyle } from "./marketParts.tsx"
import { FeedbackBlock } from "./reputationParts.tsx"

/** /p2p/orders/$id/success (spec 3 §2.1): the order completed, what changed hands, and where to go next. */
function OrderSuccess({ order }: { readonly order: Order }) {
  const kernel = useKernel()
  const t = useT("p2p")
  const go = useGo()
  const locale = kernel.i18n.language()
  const completed = order.status === "COMPLETED"
  const buyer = order.side === "buyer"
  return (
    <main style={pageStyle} data-testid="p2p-order-success" data-status={order.status}>
      <Placeholder
        headingLevel={1}
        icon={
          <span style={{ fontSize: 56, color: "var(--wk-color-success)" }} aria-hidden="true">
            ✓
          </span>
        }
        title={completed ? t("order.success.title") : t(`order.status.${order.status}`)}
        description={
          completed
            ? t(buyer ? "order.success.bought" : "order.success.sold", {
                amount: formatCrypto(buyer ? order.buyerReceives : order.amount, order.crypto),
                fiat: formatFiat(order.fiatAmount, order.fiat, locale),
              })
            : undefined
        }
      />
      <List>
        <Section>
          <Cell title={t(buyer ? "order.youReceive" : "order.youSell")} after={formatCrypto(buyer ? order.buyerReceives : order.amount, order.crypto)} />
          <Cell title={t(buyer ? "order.youPay" : "order.youGet")} after={formatFiat(order.fiatAmount, order.fiat, locale)} />
          <Cell title={t("order.id")} after={`#${order.id}`} chevron onClick={() => void go(orderRoute, { params: { id: String(order.id) } })} />
        </Section>
      </List>
      <FeedbackBlock order={order} />
      <div style={padStyle}>
        <Button look="primary" stretched data-testid="p2p-success-home" onClick={() => void go(p2pHomeRoute, { replace: true })}>
          {t("order.success.toMarket")}
        </Button>
        <Button look="secondary" stretched data-testid="p2p-success-wallet" onClick={() => void go(walletMainRoute, { replace: true })}>
          {t("order.success.toWallet")}
        </Button>
      </div>
    </main>
  )
}

export default function OrderSuccessScreen() {
  return <WithOrder>{(order) => <OrderSuccess order={order} />}</WithOrder>
}
