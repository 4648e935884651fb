import type { ReactNode } from "react"
import { useParams } from "@tanstack/react-router"
import { useGo, useT } from "@wallet/kernel-react"
import { Button, SkeletonList } from "@wallet/kernel-react/ui"
import type { Order } from "../api.ts"
import { p2pHomeRoute } from "../routes.ts"
import { errorCode } from "./client.ts"
import { idOf } from "./market.ts"
import { LoadError, NotFound, pageStyle } from "./marketParts.tsx"
import { useOrder } from "./orderHooks.ts"

/**
 * The order of the route's `$id` for the order's sub-screens (read cached 3.5 s, retried 5 times): a
 * non-numeric or unknown id is not found, a failed read offers a retry, a pending one a skeleton; then
 * `children(order)` (a component, so it may use hooks of its own).
 */
export function WithOrder({ children, rows = 3 }: { readonly children: (order: Order) => ReactNode; readonly rows?: number }) {
  const t = useT("p2p")
  const go = useGo()
  const params = useParams({ strict: false }) as { readonly id?: string }
  const id = idOf(params.id)
  const query = useOrder(id)
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
        {query.status === "error" ? <LoadError retry={() => void query.refetch()} /> : <SkeletonList rows={rows} label={t("market.loading")} />}
      </main>
    )
  }
  return children(order)
}
