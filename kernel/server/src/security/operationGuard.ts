/**
 * The `OperationGuard` port (docs/decisions/0550): handlers of any module call
 * `requireOperation({ operation, params, usdCents })` before an operation that moves value or
 * weakens security; it reads the operation token and the device serial from the current request's
 * headers and succeeds, or fails with the kernel's `OperationTokenError` (403).
 *
 * One server module implements the check (the passcode plugin: its tokens, its passcodes, its
 * forced-passcode rule); no module imports another. Without an implementation the server refuses
 * what it cannot judge (fails closed): `security` operations and names outside the kernel's
 * catalogue; `value` operations pass, since no user can have a passcode without the passcode
 * module, so the policy asks for nothing.
 */
import { Context, Effect } from "effect"
import { HttpServerRequest } from "effect/http"
import {
  CurrentSession,
  OPERATION_DEVICE_SERIAL_HEADER,
  OPERATION_TOKEN_HEADER,
  OperationTokenError,
  operationSpec,
  type OperationRequest,
} from "@wallet/kernel/api"

/** One check: who, from which device, with which token, for what. */
export interface OperationCheck {
  readonly userId: number
  /** The `x-wallet-device-serial` header; undefined when absent. */
  readonly deviceSerial: string | undefined
  /** The `x-wallet-operation-token` header; undefined when absent. */
  readonly token: string | undefined
  readonly operation: string
  /** The parameters the consuming handler computed from its own payload. */
  readonly params: Readonly<Record<string, string>>
  /**
   * The operation's value in US cents, for the limit; undefined when unknown (then it counts as
   * above any limit). An Effect is run only when the policy needs the value.
   */
  readonly usdCents: bigint | undefined | Effect.Effect<bigint | undefined>
  /**
   * The operation's own idempotency identity (e.g. `custody:tg:<sender>:<idempotency key>`): a
   * token consumed for it passes again for the same key and parameters while it is valid, so an
   * HTTP retry racing the first request replays instead of failing `operation_token_used`.
   */
  readonly replayKey?: string
}

export interface OperationGuardShape {
  readonly check: (input: OperationCheck) => Effect.Effect<void, OperationTokenError>
}

const noVerifier = () => new OperationTokenError({ code: "operation_token_invalid", message: "This server cannot verify operation tokens for this operation" })

export class OperationGuard extends Context.Service<OperationGuard, OperationGuardShape>()("wallet/server/OperationGuard") {
  /** Without a provider: `value` operations pass; `security` and unknown operations are refused. */
  static readonly none: OperationGuardShape = {
    check: (input) => (operationSpec(input.operation)?.kind === "value" ? Effect.void : Effect.fail(noVerifier())),
  }
}

/** What a handler passes: the operation (`operationRequest(...)` of the catalogue) and its value. */
export interface RequireOperationInput {
  readonly operation: OperationRequest
  readonly usdCents: OperationCheck["usdCents"]
  readonly replayKey?: string
}

const header = (headers: Readonly<Record<string, string | undefined>>, name: string): string | undefined => {
  const value = headers[name]
  return value === undefined || value === "" ? undefined : value
}

/**
 * Checks the current request for `operation` (the session's user, the token and device-serial
 * headers). Call it in a handler before the operation runs.
 */
export const requireOperation = (input: RequireOperationInput) =>
  Effect.gen(function* () {
    const guard = yield* OperationGuard
    const session = yield* CurrentSession
    const request = yield* HttpServerRequest.HttpServerRequest
    return yield* guard.check({
      userId: session.userId,
      deviceSerial: header(request.headers, OPERATION_DEVICE_SERIAL_HEADER),
      token: header(request.headers, OPERATION_TOKEN_HEADER),
      operation: input.operation.name,
      params: input.operation.params,
      usdCents: input.usdCents,
      ...(input.replayKey !== undefined ? { replayKey: input.replayKey } : {}),
    })
  })
