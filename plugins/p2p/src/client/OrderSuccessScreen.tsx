import { useParams } from "@tanstack/react-router"
import { useGo, useKernel, useT } from "@wallet/kernel-react"
import { Button, Cell, List, Placeholder, Section, SkeletonList } from "@wallet/kernel-react/ui"
import { orderRoute, p2pHomeRoute, walletMainRoute } from "../routes.ts"
import { errorCode } from "./client.ts"
import { formatCrypto, formatFiat, idOf } from "./market.ts"
import { LoadError, NotFound, padStyle, pageStyle } from "./marketParts.tsx"
import { useOrder } from "./orderHooks.ts"

/** /p2p/orders/$id/success (spec 3 §2.1): the order completed, what changed hands, and where to go next. */
export default function OrderSuccessScreen() {
  const kernel = useKernel()
  const t = useT("p2p")
  const go = useGo()
  const params = useParams({ strict: false }) as { readonly id?: string }
  const id = idOf(params.id)
  const query = useOrder(id)
  const locale = kernel.i18n.language()
  const home = (
    <Button look="secondary" size="s" onClick={() => void go(p2pHomeRoute)}>
      {t("market.toHome")}
    </Button>
  )
  if (id === null) return <NotFound kind="order" action={home} />
  const order = query.data
  if (order === undefined) {
    if (query.status === "error" && errorCode(query.error) === "order_not_found") return <NotFound kind="order" action={home} />
    return (
      <main style={pageStyle}>
        {query.status === "error" ? <LoadError retry={() => void query.refetch()} /> : <SkeletonList rows={3} label={t("market.loading")} />}
      </main>
    )
  }
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
