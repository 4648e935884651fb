/**
 * The passcode gate before money leaves (docs/decisions/0550). It asks the kernel's Passcode
 * service for an operation token bound to the operation and its parameters (the same
 * `transferOperation` / `withdrawalOperation` the server checks with) and answers the headers to
 * send. It fails closed:
 * - the user closed the passcode screen: `cancelled` (nothing is sent);
 * - the passcode plugin is in the region but its code did not load (`load-failed`), or anything
 *   else broke: `unavailable` (nothing is sent; the screen says why);
 * - no passcode provider in this region (`no-provider`): the send goes without a token and the
 *   server decides (it refuses when a token is needed).
 */
import { Effect } from "effect"
import { operationTokenHeaders, type PasscodeShape } from "@wallet/kernel"
import type { OperationRequest } from "@wallet/kernel/api"
import type { Kernel } from "@wallet/kernel-react"

/** The headers of a token-consuming custody endpoint. */
export interface OperationHeaders {
  readonly "x-wallet-operation-token"?: string
  readonly "x-wallet-device-serial"?: string
}

export type OperationGate = { readonly kind: "go"; readonly headers: OperationHeaders } | { readonly kind: "cancelled" } | { readonly kind: "unavailable" }

type Outcome = OperationGate

/** Runs the gate for `operation` with the kernel's Passcode service (absent: no provider). */
export async function operationGate(kernel: Kernel, operation: OperationRequest): Promise<OperationGate> {
  const passcode: PasscodeShape | undefined = kernel.passcode
  if (!passcode) return { kind: "go", headers: {} }
  try {
    return await kernel.runtime.runPromise(
      passcode.operationToken({ operation: operation.name, params: operation.params }).pipe(
        Effect.map((grant): Outcome => ({ kind: "go", headers: operationTokenHeaders(grant) })),
        Effect.catch((error): Effect.Effect<Outcome> => {
          if (error._tag === "PasscodeCancelled") return Effect.succeed({ kind: "cancelled" })
          return Effect.succeed(error.reason === "no-provider" ? { kind: "go", headers: {} } : { kind: "unavailable" })
        }),
      ),
    )
  } catch {
    // A defect inside the provider: never send on a broken gate.
    return { kind: "unavailable" }
  }
}

/** The text key of a refusal by the server's token check, when `tag` is one. */
export const operationTokenErrorKey = (tag: string | undefined, code: string | undefined): string | undefined =>
  tag === "OperationTokenError" && code !== undefined && code.startsWith("operation_token_") ? `send.operationToken.${code}` : undefined
