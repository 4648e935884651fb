/**
 * Wallet main's action buttons (spec 1 §2, §4, §6): one button per action over all assets. An action
 * is available when at least one asset offers it; otherwise the earliest scheduled date explains it,
 * else it is never available. An access flag that is off wins (functionality-unavailable popup).
 */
import { actionAvailability, type ActionState, type Availability } from "@wallet/plugin-custody/availability"

export type MainActionName = "receive" | "send" | "exchange" | "buy"

/** The access flag that gates each action (spec 1 §3 access flags; buy has none of its own). */
export const ACTION_ACCESS_FLAG: Readonly<Record<MainActionName, string | undefined>> = {
  receive: "accessToCreateAddress",
  send: "accessToWithdraws",
  exchange: "accessToExchanges",
  buy: undefined,
}

export function mainActionAvailability(
  actions: ReadonlyArray<ActionState | undefined>,
  accessFlag: boolean | undefined,
  now: Date,
): Availability {
  if (accessFlag === false) return { kind: "restricted" }
  const each = actions.map((action) => actionAvailability(action, undefined, now))
  if (each.some((a) => a.kind === "available")) return { kind: "available" }
  const scheduled = each.flatMap((a) => (a.kind === "scheduled" ? [a.at] : []))
  if (scheduled.length > 0) return { kind: "scheduled", at: new Date(Math.min(...scheduled.map((d) => d.getTime()))) }
  return { kind: "never" }
}
