import { useQuery } from "@tanstack/react-query"
import { useGo, useKernel, useT } from "@wallet/kernel-react"
import { orderRoute, p2pHomeRoute } from "../routes.ts"
import { keys, loadActiveOrders } from "./client.ts"

/**
 * The active-order strip above the tab bar (spec 3 §2.1, §9): polled every 5 s (stale after 5 s); nothing
 * without active orders. One order opens it; several open the home's active orders.
 */
export default function ActiveOrdersStrip({ compact }: { compact: boolean }) {
  const kernel = useKernel()
  const t = useT("p2p")
  const go = useGo()
  const active = useQuery({ queryKey: keys.active, queryFn: () => loadActiveOrders(kernel), staleTime: 5000, refetchInterval: 5000 })
  const orders = active.data ?? []
  if (orders.length === 0) return null
  const count = orders.length
  const open = () => {
    const only = orders[0]
    if (count === 1 && only !== undefined) void go(orderRoute, { params: { id: String(only.id) } })
    else void go(p2pHomeRoute, { search: { filter: "active" } })
  }
  return (
    <button
      type="button"
      data-testid="p2p-strip"
      data-count={count}
      onClick={open}
      style={{
        display: "flex",
        alignItems: "center",
        justifyContent: "center",
        gap: 8,
        width: "100%",
        height: "100%",
        minHeight: 36,
        border: "none",
        padding: "0 12px",
        font: "inherit",
        fontSize: "var(--wk-font-size-subheadline, 15px)",
        fontWeight: 600,
        cursor: "pointer",
        background: "var(--wk-color-button)",
        color: "var(--wk-color-button-text)",
      }}
    >
      <span aria-hidden="true" style={{ width: 8, height: 8, borderRadius: "50%", background: "currentColor", flex: "none" }} />
      <span>{t(compact ? "strip.compact" : "strip.active", { count })}</span>
    </button>
  )
}
