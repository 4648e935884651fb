/** The order read and the order moves the order screens share (spec 3 §9: cached 3.5 s, retried 5 times). */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { useAnalytics, useKernel, useT } from "@wallet/kernel-react"
import { useSnackbar } from "@wallet/kernel-react/ui"
import type { Order } from "../api.ts"
import type { OrderMove } from "../domain.ts"
import { errorCode, keys, loadOrder, moveOrder, ORDER_QUERY } from "./client.ts"
import { errorKey, isActiveStatus } from "./market.ts"

/** How often an active order is read again (spec 3 §9: the order page follows the other side). */
export const ORDER_POLL_MS = 5_000

/** The order read every order screen shares (cached 3.5 s, retried 5 times; polled while active). */
export function useOrder(id: number | null) {
  const kernel = useKernel()
  return useQuery({
    queryKey: keys.order(id ?? 0),
    queryFn: () => loadOrder(kernel, id!),
    ...ORDER_QUERY,
    retry: (count, error) => errorCode(error) !== "order_not_found" && count < ORDER_QUERY.retry,
    enabled: id !== null,
    refetchInterval: (query) => (query.state.data !== undefined && isActiveStatus(query.state.data.status) ? ORDER_POLL_MS : false),
  })
}

/** A move made here: the answer becomes the order; a stale status reads the order again and says so. */
export function useMoveOrder(order: Order | undefined) {
  const kernel = useKernel()
  const t = useT("p2p")
  const queryClient = useQueryClient()
  const analytics = useAnalytics()
  const snackbar = useSnackbar()
  return useMutation({
    mutationFn: (move: Exclude<OrderMove, "appeal">) => moveOrder(kernel, { orderId: order!.id, move, status: order!.status }),
    onSuccess: async (next, move) => {
      // A read in flight from before the move must not put the old status back.
      await queryClient.cancelQueries({ queryKey: keys.order(next.id) })
      queryClient.setQueryData(keys.order(next.id), next)
      analytics.track("p2p.order_moved", { move })
      void queryClient.invalidateQueries({ queryKey: keys.active })
      void queryClient.invalidateQueries({ queryKey: ["p2p", "history"] })
      void queryClient.invalidateQueries({ queryKey: keys.user })
    },
    onError: (error) => {
      const code = errorCode(error)
      if (order !== undefined && (code === "order_state_changed" || code === "wrong_side"))
        void queryClient.invalidateQueries({ queryKey: keys.order(order.id) })
      snackbar.show({ id: "p2p-order-move", text: t(errorKey(code)) })
    },
  })
}
