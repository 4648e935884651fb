/**
 * History rows (spec 1 §4): the status mappings and the row appearance rules, pure.
 */
import { Gateway as GatewaySchema, mapTransferStatus, type Gateway } from "../../api.ts"

export type DisplayStatus = "pending" | "accepted" | "rejected" | "failed"

/** Generic mapping: pending -> pending; success -> accepted; canceled -> rejected; else failed. */
export const mapStatus = (status: string): DisplayStatus =>
  status === "pending" ? "pending" : status === "success" ? "accepted" : status === "canceled" ? "rejected" : "failed"

/** Custody transfers use the contract's mapping (new -> pending, …). */
export { mapTransferStatus }

export type RowAppearance = "default" | "canceled" | "error" | "muted" | "success"

export interface RowFacts {
  readonly status: string
  readonly type: "deposit" | "withdraw"
  readonly gateway: string
}

const P2P_GATEWAYS = new Set(["p2p_order", "p2p_offer", "p2p_order_inactive_offer", "p2p_refund"])

/**
 * Row appearance, first rule that applies: a crypto exchange looks default; a failed p2p withdraw is
 * canceled; fail is error; pending is muted; canceled is canceled; a deposit is success; new is muted;
 * anything else default.
 */
export function rowAppearance(row: RowFacts): RowAppearance {
  if (row.gateway === "crypto_exchange") return "default"
  if (row.status === "fail" && row.type === "withdraw" && P2P_GATEWAYS.has(row.gateway)) return "canceled"
  if (row.status === "fail") return "error"
  if (row.status === "pending") return "muted"
  if (row.status === "canceled") return "canceled"
  if (row.type === "deposit") return "success"
  if (row.status === "new") return "muted"
  return "default"
}

/** Every gateway of spec 1 §3, for the details label (`gateway.<name>` in en and ru). */
export const GATEWAYS: ReadonlyArray<Gateway> = GatewaySchema.literals

/** The i18n key of a gateway's label; an unknown gateway gets the generic one. */
export const gatewayLabelKey = (gateway: string): string => ((GATEWAYS as ReadonlyArray<string>).includes(gateway) ? `gateway.${gateway}` : "gateway.unknown")
