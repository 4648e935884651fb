/**
 * Spec 1 §4 "Action availability" and §6 access flags: whether an asset action (receive, send,
 * exchange, buy) can run now, and if not, which popup explains it. Custody's own: the asset page
 * uses it, and wallet main gets it through custody's `main.actions` availability module
 * (../main/actions.ts; decision 0140), not through an export of this file.
 */
import type { SlotAvailability } from "@wallet/kernel"

export interface ActionState {
  readonly isEnabled: boolean
  readonly isPopular?: boolean
  /** ISO date-time from which the action becomes available. */
  readonly scheduledAt?: string | null
}

/**
 * The kernel's slot availability: `available`; `scheduled` (not yet: the popup names the date and
 * time); `never` (not enabled and no date); `restricted` (an access flag is off: the
 * functionality-unavailable popup).
 */
export type Availability = SlotAvailability

/**
 * The access flag checked first (a user without it gets the functionality-unavailable popup), then
 * the action's own state: a future `scheduledAt` means "not yet", no date and not enabled "never".
 * A missing action (the server did not list it) is never available.
 */
export function actionAvailability(action: ActionState | undefined, accessFlag: boolean | undefined, now: Date): Availability {
  if (accessFlag === false) return { kind: "restricted" }
  if (action?.scheduledAt) {
    const at = new Date(action.scheduledAt)
    if (!Number.isNaN(at.getTime()) && at.getTime() > now.getTime()) return { kind: "scheduled", at }
  }
  return action?.isEnabled ? { kind: "available" } : { kind: "never" }
}

/** The access flag gating each asset action (spec 1 §3, §6). */
export const ACCESS_FLAG_OF: Readonly<Record<string, "accessToWithdraws" | "accessToExchanges" | "accessToCreateAddress" | undefined>> = {
  send: "accessToWithdraws",
  exchange: "accessToExchanges",
  receive: "accessToCreateAddress",
}

/**
 * Wallet main's action buttons (spec 1 §2, §4, §6): one button per action over all assets. An action
 * is available when at least one asset offers it; otherwise the earliest scheduled date explains it,
 * else it is never available. An access flag that is off wins (functionality-unavailable popup).
 */
export function mainActionAvailability(actions: ReadonlyArray<ActionState | undefined>, accessFlag: boolean | undefined, now: Date): Availability {
  if (accessFlag === false) return { kind: "restricted" }
  const each = actions.map((action) => actionAvailability(action, undefined, now))
  if (each.some((a) => a.kind === "available")) return { kind: "available" }
  const scheduled = each.flatMap((a) => (a.kind === "scheduled" ? [a.at] : []))
  if (scheduled.length > 0) return { kind: "scheduled", at: new Date(Math.min(...scheduled.map((d) => d.getTime()))) }
  return { kind: "never" }
}
