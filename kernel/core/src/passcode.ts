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
 * - `biometry`: the device's biometry token, already checked by the server.
 */
export type PasscodeProof =
  | { readonly kind: "none" }
  | { readonly kind: "remembered" }
  | { readonly kind: "passcode"; readonly passcode: string }
  | { readonly kind: "biometry"; readonly biometryToken: string }

/** A single-use token for one operation of this user on this device (header `x-wallet-operation-token`). */
export interface OperationTokenGrant {
  readonly operationToken: string
  /** ISO 8601 */
  readonly expiresAt: string
}

/** The user closed the passcode (or email-code) screen. */
export class PasscodeCancelled extends Data.TaggedError("PasscodeCancelled")<{}> {}

/** No passcode provider in this region (or its code failed to load). */
export class PasscodeUnavailable extends Data.TaggedError("PasscodeUnavailable")<{ readonly reason: "no-provider" | "load-failed" }> {}

export type PasscodeFailure = PasscodeCancelled | PasscodeUnavailable

export interface PasscodeShape {
  /**
   * Proves the user for `operation`: the supplied passcode, else none required, else the remembered
   * unlock, else biometry, else the passcode screen (shown over any route).
   */
  readonly verify: (options: { readonly operation: PasscodeOperation; readonly passcode?: string }) => Effect.Effect<PasscodeProof, PasscodeFailure>
  /**
   * Runs the server's security challenge for `operation` (verifying first) and returns its token;
   * when the server asks for an email code the provider's screen asks the user for it.
   */
  readonly operationToken: (options: { readonly operation: PasscodeOperation }) => Effect.Effect<OperationTokenGrant, PasscodeFailure>
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
