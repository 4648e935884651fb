/**
 * Spec 1 §4 "Action availability" for one asset's action (the asset page): the access flag first
 * (functionality-unavailable popup), then a future scheduledAt (popup with date and time), then
 * isEnabled (never available otherwise).
 */
import type { AssetAction } from "../../api.ts"

export type Availability = { readonly kind: "available" } | { readonly kind: "scheduled"; readonly at: Date } | { readonly kind: "never" } | { readonly kind: "restricted" }

export function assetActionAvailability(action: AssetAction | undefined, accessFlag: boolean | undefined, now: Date): Availability {
  if (accessFlag === false) return { kind: "restricted" }
  if (action?.scheduledAt) {
    const at = new Date(action.scheduledAt)
    if (at.getTime() > now.getTime()) return { kind: "scheduled", at }
  }
  return action?.isEnabled ? { kind: "available" } : { kind: "never" }
}

/** The access flag gating each asset action (spec 1 §3, §6). */
export const ACCESS_FLAG_OF: Readonly<Record<string, "accessToWithdraws" | "accessToExchanges" | "accessToCreateAddress" | undefined>> = {
  send: "accessToWithdraws",
  exchange: "accessToExchanges",
  receive: "accessToCreateAddress",
}
