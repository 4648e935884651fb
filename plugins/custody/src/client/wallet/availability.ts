/**
 * Spec 1 §4 "Action availability" and §6 access flags: whether an asset action (receive, send,
 * exchange, buy) can run now, and if not, which popup explains it. Wallet main (the home plugin)
 * and the asset page both use it (`@wallet/plugin-custody/availability`).
 */
export interface ActionState {
  readonly isEnabled: boolean
  readonly isPopular?: boolean
  /** ISO date-time from which the action becomes available. */
  readonly scheduledAt?: string | null
}

export type Availability =
  | { readonly kind: "available" }
  /** Not yet available: the popup names the date and time. */
  | { readonly kind: "scheduled"; readonly at: Date }
  /** Not enabled and no date: never available. */
  | { readonly kind: "never" }
  /** An access flag is off: the functionality-unavailable popup. */
  | { readonly kind: "restricted" }

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
