/**
 * Operation tokens (docs/decisions/0550): the operations that may need one, the parameters each is
 * bound to, the request headers that carry it and the error every consuming endpoint answers.
 * One place for every plugin: custody transfers and withdrawals today, P2P release, exchange, earn
 * withdrawal and wpay payments when they arrive. Browser-safe: imports only `effect`.
 *
 * The client asks for a token with `{ name, params }` (the passcode plugin's beginChallenge); the
 * consuming handler computes the same params from its own payload and the server compares their
 * canonical encoding's hash, so a token for 10 USDT to A does not pay 1000 USDT to B.
 */
import { Schema } from "effect"
import { userText } from "./fields.ts"

/** The request header carrying the operation token. */
export const OPERATION_TOKEN_HEADER = "x-wallet-operation-token"
/** The request header carrying the device serial the token was granted to (the passcode plugin's header). */
export const OPERATION_DEVICE_SERIAL_HEADER = "x-wallet-device-serial"

/**
 * What an operation is:
 * - `value`: it moves value out of the user's control. A token is needed when the user is
 *   passcode-forced, or has a passcode and the operation's USD value is at or above the passcode
 *   plugin's `operationTokenAboveUsdCents`;
 * - `security`: it weakens the account's security (passcode change, recovery-email change, a new
 *   device key). A token is needed whenever the user has a passcode; a server without an
 *   operation-token verifier refuses it.
 */
export type OperationKind = "value" | "security"

export interface OperationSpec {
  readonly kind: OperationKind
  /** The parameter names the token is bound to (every one present, "" when not applicable). */
  readonly params: ReadonlyArray<string>
}

/** The catalogue: operation name -> kind and bound parameters. */
export const OPERATIONS = {
  /** A custodial transfer to a Telegram user (custody). */
  custody_transfer: { kind: "value", params: ["currency", "amount", "receiver"] },
  /** A custodial on-chain withdrawal (custody): amount in minor units or "max"; memo "" without one. */
  custody_withdrawal: { kind: "value", params: ["currency", "network", "amount", "destination", "memo"] },
  /** Releasing crypto to the buyer of a P2P order (p2p). */
  p2p_release: { kind: "value", params: ["order", "currency", "amount"] },
  /** Exchanging one currency for another (exchange): `amount` of `from`. */
  exchange: { kind: "value", params: ["from", "to", "amount"] },
  /** Withdrawing from an earn product (earn). */
  earn_withdrawal: { kind: "value", params: ["product", "currency", "amount"] },
  /** Paying a merchant's order (wpay). */
  wpay_payment: { kind: "value", params: ["order", "merchant", "currency", "amount"] },
  /** Changing the passcode with the current one (passcode). */
  passcode_change: { kind: "security", params: [] },
  /** Changing the recovery email (passcode). */
  change_recovery_email: { kind: "security", params: ["product", "email"] },
  /** Generating a device encryption key for a wallet address (passcode, key vault). */
  device_key_generate: { kind: "security", params: ["address"] },
} as const satisfies Record<string, OperationSpec>

export type OperationName = keyof typeof OPERATIONS
export type OperationParamsOf<N extends OperationName> = { readonly [K in (typeof OPERATIONS)[N]["params"][number]]: string }

/** What a token is asked for and checked against: the operation and its parameters. */
export interface OperationRequest {
  readonly name: string
  readonly params: Readonly<Record<string, string>>
}

/** A typed operation request of the catalogue (every bound parameter given). */
export const operationRequest = <N extends OperationName>(name: N, params: OperationParamsOf<N>): OperationRequest => ({ name, params })

/** The catalogue entry of `name`, if it is one. */
export const operationSpec = (name: string): OperationSpec | undefined =>
  Object.prototype.hasOwnProperty.call(OPERATIONS, name) ? (OPERATIONS as Record<string, OperationSpec>)[name] : undefined

/**
 * The canonical encoding of a parameter record (what the server hashes): the entries sorted by
 * name, as a JSON array of [name, value] pairs. `{}` and a missing record encode alike.
 */
export const canonicalOperationParams = (params: Readonly<Record<string, string>> | undefined): string =>
  JSON.stringify(
    Object.keys(params ?? {})
      .sort()
      .map((key) => [key, params![key]!]),
  )

export const MAX_OPERATION_PARAMS = 16

const PARAM_NAME = /^[a-z][a-zA-Z0-9_]{0,31}$/

/**
 * The parameters of an operation: up to 16 names of `^[a-z][a-zA-Z0-9_]{0,31}$`, values up to 512
 * characters. A malformed name is refused (a key schema with a pattern would drop it silently).
 */
export const OperationParams = Schema.Record(Schema.String, userText({ maxLength: 512 })).check(
  Schema.makeFilter((record: Readonly<Record<string, string>>) => {
    const names = Object.keys(record)
    if (names.length > MAX_OPERATION_PARAMS) return `at most ${MAX_OPERATION_PARAMS} parameters`
    const bad = names.find((name) => !PARAM_NAME.test(name))
    return bad === undefined ? undefined : `a parameter name is a letter then up to 31 letters, digits or _ (got ${JSON.stringify(bad.slice(0, 40))})`
  }),
)

/** The headers a token-consuming endpoint reads (declare them in its contract so clients can send them). */
export const OperationTokenHeaders = Schema.Struct({
  [OPERATION_TOKEN_HEADER]: Schema.optionalKey(userText({ maxLength: 256 })),
  [OPERATION_DEVICE_SERIAL_HEADER]: Schema.optionalKey(userText({ maxLength: 64 })),
})

/** Answered by the endpoints (of any plugin) that consume an operation token. */
export const OperationTokenErrorCode = Schema.Literals([
  "operation_token_missing",
  "operation_token_invalid",
  "operation_token_expired",
  "operation_token_used",
  "operation_token_mismatch",
])
export type OperationTokenErrorCode = typeof OperationTokenErrorCode.Type

export class OperationTokenError extends Schema.TaggedError<OperationTokenError>()(
  "OperationTokenError",
  { code: OperationTokenErrorCode, message: Schema.String },
  { httpApiStatus: 403, description: "The operation token is missing, unknown, expired, used, or for another operation, parameters or device" },
) {}
