/**
 * The tab bar's strip source (manifest `tabStrip`; spec 1 §2, spec 3 §2.1, §9): polls the active
 * orders (page 20, every 5 s, stale 5 s) and reports the strip while there are any.
 */
import { useEffect } from "react"
import { useQuery } from "@tanstack/react-query"
import { useKernel, type TabStripSource } from "@wallet/kernel-react"
import ActiveOrdersStrip from "./ActiveOrdersStrip.tsx"
import { ACTIVE_ORDERS, keys, loadActiveOrders } from "./client.ts"

const render = ({ compact }: { readonly compact: boolean }) => <ActiveOrdersStrip compact={compact} />

const StripSource: TabStripSource = ({ onChange }) => {
  const kernel = useKernel()
  const active = useQuery({
    queryKey: keys.active,
    queryFn: () => loadActiveOrders(kernel),
    staleTime: ACTIVE_ORDERS.pollMs,
    refetchInterval: ACTIVE_ORDERS.pollMs,
  })
  const any = (active.data?.length ?? 0) > 0
  useEffect(() => {
    onChange(any ? render : undefined)
  }, [any, onChange])
  useEffect(() => () => onChange(undefined), [onChange])
  return null
}

export default StripSource
