import { Context, Data, Effect, Layer } from "effect"

/**
 * What a protected action (a send, showing a mnemonic) names when it asks for the passcode: the
 * server's operation name (`send`, `show_mnemonic`, ...; `^[a-z][a-z0-9_.-]{0,63}$`).
 */
export type PasscodeOperation = string

/**
 * How the user proved it is them (spec 3 §4.3, order of attempts):
 * - `none`: this device has no passcode and none is required;
 * - `remembered`: the device-remembered unlock window is open;
 * - `passcode`: the entered (or supplied) passcode, already checked by the server;
 * - `biometry`: the token Telegram's BiometricManager released after the prompt, already checked by
 *   the server. It may be a key vault token (`kvb1.<secret>.<server token>`, decision 0520) whose
 *   secret never leaves the device: send only `serverBiometryToken(biometryToken)` to a server.
 */
export type PasscodeProof =
  | { readonly kind: "none" }
  | { readonly kind: "remembered" }
  | { readonly kind: "passcode"; readonly passcode: string }
  | { readonly kind: "biometry"; readonly biometryToken: string }

/**
 * A single-use token for one operation (and its parameters) of this user on this device: send it
 * in the header `x-wallet-operation-token` with `deviceSerial` in `x-wallet-device-serial`
 * (`operationTokenHeaders`, docs/decisions/0550).
 */
export interface OperationTokenGrant {
  readonly operationToken: string
  /** ISO 8601 */
  readonly expiresAt: string
  /** The device serial the token is bound to (set by the provider). */
  readonly deviceSerial?: string
}

/**
 * What `operationToken` is asked for: the server's operation name and the parameters the token is
 * bound to (the kernel's `OPERATIONS` catalogue in `@wallet/kernel/api` names both; build them with
 * the same function the server's handler uses, e.g. custody's `transferOperation(payload)`).
 */
export interface OperationTokenOptions {
  readonly operation: PasscodeOperation
  readonly params?: Readonly<Record<string, string>>
}

/** The request headers carrying a grant (the names of `@wallet/kernel/api`'s `OperationTokenHeaders`). */
export const operationTokenHeaders = (
  grant: OperationTokenGrant,
): { readonly "x-wallet-operation-token": string; readonly "x-wallet-device-serial"?: string } => ({
  "x-wallet-operation-token": grant.operationToken,
  ...(grant.deviceSerial !== undefined ? { "x-wallet-device-serial": grant.deviceSerial } : {}),
})

/** The user closed the passcode (or email-code) screen. */
export class PasscodeCancelled extends Data.TaggedError("PasscodeCancelled")<{}> {}

/** No passcode provider in this region (or its code failed to load). */
export class PasscodeUnavailable extends Data.TaggedError("PasscodeUnavailable")<{ readonly reason: "no-provider" | "load-failed" }> {}

export type PasscodeFailure = PasscodeCancelled | PasscodeUnavailable

/**
 * What an operation needs from `verify` (decision 0520):
 * - absent or `false`: any proof, `remembered` and `none` included (the spec's order of attempts);
 * - `true`: the operation must open sealed secrets, so inside the unlock window a credential is still
 *   produced: the passcode typed earlier in this window if this page still holds it, else the
 *   biometry token when biometry is on, else the passcode screen. `none` stays `none` (no passcode
 *   exists, so nothing can have been sealed under one);
 * - `"passcode"`: as `true` but only the passcode counts (biometry is skipped): sealing under the
 *   passcode, or a vault without a biometry slot.
 */
export type NeedCredential = boolean | "passcode"

export interface VerifyOptions {
  readonly operation: PasscodeOperation
  readonly passcode?: string
  readonly needCredential?: NeedCredential
}

/** The proofs that carry a credential (what `needCredential` asks for). */
export type CredentialProof = Extract<PasscodeProof, { kind: "passcode" | "biometry" }>

export const isCredentialProof = (proof: PasscodeProof): proof is CredentialProof => proof.kind === "passcode" || proof.kind === "biometry"

/** Prefix of the key vault's biometry token (`kvb1.<secret b64url>.<server token b64url>`). */
export const VAULT_BIOMETRY_TOKEN_PREFIX = "kvb1"

const fromBase64UrlText = (text: string): string | null => {
  try {
    const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (text.length % 4)) % 4))
    return new TextDecoder("utf-8", { fatal: true }).decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)))
  } catch {
    return null
  }
}

/**
 * The part of a device biometry token the server checks: the last part of a key vault token, any
 * other token as it is. The vault's secret (the middle part) must never reach a server.
 */
export const serverBiometryToken = (token: string): string => {
  const parts = token.split(".")
  if (parts.length !== 3 || parts[0] !== VAULT_BIOMETRY_TOKEN_PREFIX) return token
  return fromBase64UrlText(parts[2]!) ?? token
}

export interface PasscodeShape {
  /**
   * Proves the user for `operation`: the supplied passcode, else none required, else the remembered
   * unlock (skipped with `needCredential`), else biometry (skipped with `needCredential: "passcode"`),
   * else the passcode screen (shown over any route).
   */
  readonly verify: (options: VerifyOptions) => Effect.Effect<PasscodeProof, PasscodeFailure>
  /**
   * Runs the server's security challenge for `operation` with `params` (verifying first) and
   * returns its token bound to both and to this device; when the server asks for an email code the
   * provider's screen asks the user for it.
   */
  readonly operationToken: (options: OperationTokenOptions) => Effect.Effect<OperationTokenGrant, PasscodeFailure>
}

/** A provider module (`provides.passcode` in a manifest) builds the shape from a host-specific context. */
export type PasscodeFactory<Host> = (host: Host) => PasscodeShape | Promise<PasscodeShape>

const unavailable = (reason: PasscodeUnavailable["reason"]): PasscodeShape => ({
  verify: () => Effect.fail(new PasscodeUnavailable({ reason })),
  operationToken: () => Effect.fail(new PasscodeUnavailable({ reason })),
})

/**
 * The kernel's Passcode service. The implementation lives in a plugin (`provides.passcode`) and is
 * loaded on first use, so the first screen carries only this file.
 */
export class Passcode extends Context.Service<Passcode, PasscodeShape>()("wallet/Passcode") {
  /** Fails every call with `PasscodeUnavailable` (no provider in this region). */
  static readonly unavailable: PasscodeShape = unavailable("no-provider")

  /**
   * A shape that loads the real one on the first call (once; a failed load is retried on the next
   * call) and delegates to it. Without `load` every call fails with `PasscodeUnavailable`.
   */
  static readonly lazy = (load: (() => Promise<PasscodeShape>) | undefined): PasscodeShape => {
    if (!load) return Passcode.unavailable
    let loading: Promise<PasscodeShape> | undefined
    const resolve = Effect.tryPromise({
      try: () =>
        (loading ??= load().catch((error: unknown) => {
          loading = undefined
          throw error
        })),
      catch: () => new PasscodeUnavailable({ reason: "load-failed" }),
    })
    return {
      verify: (options) => Effect.flatMap(resolve, (shape) => shape.verify(options)),
      operationToken: (options) => Effect.flatMap(resolve, (shape) => shape.operationToken(options)),
    }
  }

  static readonly layer = (shape: PasscodeShape) => Layer.succeed(Passcode, shape)
}
