/**
 * Emulation rejects (spec 2 §5 and §8): before a transfer is signed for sending, its emulation must
 * show what the user asked for. A reject fails with "Unable to emulate boc: {reason}".
 */
import { Schema } from "effect"
import type { MessageConsequences, Trace } from "@wallet/kernel/chain"

export const EMULATION_REASONS = {
  noActions: "no actions",
  onlyDeploy: 'only "ContractDeploy" presented',
  failed: "failed",
  invalidTrace: "invalid trace",
  actionsCount: "unexpected actions count",
  unknownAction: 'unexpected "Unknown" action',
  expired: "expired",
  unknown: "unknown error",
} as const
export type EmulationReason = (typeof EMULATION_REASONS)[keyof typeof EMULATION_REASONS]

export class EmulationRejected extends Schema.TaggedError<EmulationRejected>()("EmulationRejected", {
  reason: Schema.String,
  message: Schema.String,
}) {}

export const emulationRejected = (reason: EmulationReason) => new EmulationRejected({ reason, message: `Unable to emulate boc: ${reason}` })

export interface EmulationRules {
  /** Actions with status failed are allowed (e.g. a dApp's request the user insists on). */
  readonly allowFailed?: boolean
  readonly allowUnknown?: boolean
  /** Check every transaction of the trace succeeded. */
  readonly checkTrace?: boolean
  /** The number of actions the messages should produce (deploys of the sender not counted). */
  readonly expectedActions?: number
}

const traceOk = (trace: Trace): boolean => trace.transaction.success && (trace.children ?? []).every(traceOk)

/** The reason to reject, or null when the emulated consequences match the request. */
export const emulationReject = (consequences: Pick<MessageConsequences, "event" | "trace">, rules: EmulationRules = {}): EmulationReason | null => {
  const actions = consequences.event.actions
  if (actions.length === 0) return EMULATION_REASONS.noActions
  if (actions.length === 1 && actions[0]!.type === "ContractDeploy") return EMULATION_REASONS.onlyDeploy
  if (!rules.allowFailed && actions.some((a) => a.status !== "ok")) return EMULATION_REASONS.failed
  if (rules.checkTrace && !traceOk(consequences.trace)) return EMULATION_REASONS.invalidTrace
  const counted = actions.filter((a) => a.type !== "ContractDeploy")
  if (rules.expectedActions !== undefined && counted.length !== rules.expectedActions) return EMULATION_REASONS.actionsCount
  if (!rules.allowUnknown && actions.some((a) => a.type === "Unknown")) return EMULATION_REASONS.unknownAction
  return null
}

/** The reason for an emulation call that failed: exit codes 36 and 136 mean the message expired. */
export const emulationErrorReason = (error: { readonly code?: number | undefined }): EmulationReason =>
  error.code === 36 || error.code === 136 ? EMULATION_REASONS.expired : EMULATION_REASONS.unknown
