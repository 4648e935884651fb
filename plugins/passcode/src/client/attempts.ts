/**
 * Spec 3 §4.3, order of attempts when an action needs the passcode: the supplied passcode, then a
 * none-required attempt, then the device-remembered unlock, then biometry, then the passcode
 * screen. Every step is injected, so the order is unit-tested without a server or a screen.
 */
import { Effect } from "effect"
import { PasscodeCancelled, serverBiometryToken, type NeedCredential, type OperationTokenGrant, type PasscodeProof } from "@wallet/kernel"
import type { BeginChallengeResponse, PasscodeInfo } from "../api.ts"

export type Credential = { readonly passcode: string } | { readonly biometryToken: string }

export interface AttemptSteps {
  /** Checks a credential on the server; the unlock duration on success, undefined when refused. */
  readonly check: (credential: Credential) => Effect.Effect<{ readonly unlockDuration: number } | undefined>
  /** The device's passcode status; undefined when it did not arrive in time. */
  readonly info: Effect.Effect<PasscodeInfo | undefined>
  /** Whether the remembered unlock window is open. */
  readonly remembered: Effect.Effect<boolean>
  /** The passcode typed earlier in the open unlock window, while this page still holds it. */
  readonly rememberedPasscode: Effect.Effect<string | undefined>
  /** Biometry's stored token after a successful prompt; undefined when unavailable or failed. */
  readonly biometry: Effect.Effect<string | undefined>
  /**
   * The passcode screen (it checks the passcode itself); create mode when none is set but one is
   * forced. `passcodeOnly`: the screen offers no biometry key.
   */
  readonly screen: (
    mode: "verify" | "create",
    options?: { readonly passcodeOnly?: boolean },
  ) => Effect.Effect<Extract<PasscodeProof, { kind: "passcode" | "biometry" }>, PasscodeCancelled>
  /** Records a successful check (opens the unlock window, keeps the passcode in memory). */
  readonly verified: (proof: PasscodeProof, unlockDuration: number) => Effect.Effect<void>
}

export interface VerifyOptions {
  readonly passcode?: string
  /**
   * A credential is needed (an operation token, sealed secrets; decision 0520): the remembered
   * unlock is skipped, the passcode kept for the window counts as typed; `"passcode"` skips biometry.
   */
  readonly needCredential?: NeedCredential
}

export const verifyInOrder = (steps: AttemptSteps, options: VerifyOptions): Effect.Effect<PasscodeProof, PasscodeCancelled> =>
  Effect.gen(function* () {
    if (options.passcode !== undefined) {
      const ok = yield* steps.check({ passcode: options.passcode })
      if (ok) {
        const proof: PasscodeProof = { kind: "passcode", passcode: options.passcode }
        yield* steps.verified(proof, ok.unlockDuration)
        return proof
      }
    }
    const info = yield* steps.info
    if (info && info.passcodeType === null) {
      if (!info.passcodeForced) return { kind: "none" } as const
      return yield* steps.screen("create")
    }
    if (!options.needCredential) {
      if (yield* steps.remembered) return { kind: "remembered" } as const
    } else {
      const kept = yield* steps.rememberedPasscode
      if (kept !== undefined) return { kind: "passcode", passcode: kept } as const
    }
    const passcodeOnly = options.needCredential === "passcode"
    if (!passcodeOnly && info?.deviceBiometrySet) {
      const token = yield* steps.biometry
      if (token !== undefined) {
        // A key vault token keeps its secret on the device: the server checks only its own part.
        const ok = yield* steps.check({ biometryToken: serverBiometryToken(token) })
        if (ok) {
          const proof: PasscodeProof = { kind: "biometry", biometryToken: token }
          yield* steps.verified(proof, ok.unlockDuration)
          return proof
        }
      }
    }
    return yield* steps.screen("verify", passcodeOnly ? { passcodeOnly } : undefined)
  })

export interface ChallengeSteps {
  readonly verify: (options: VerifyOptions) => Effect.Effect<PasscodeProof, PasscodeCancelled>
  /** The passcode kept in memory during the unlock window, if any. */
  readonly rememberedPasscode: Effect.Effect<string | undefined>
  /** begin; undefined when the server refused the credential (then the screen asks again). */
  readonly begin: (credential: Partial<Credential>) => Effect.Effect<BeginChallengeResponse | undefined, PasscodeCancelled>
  /** The email-code screen of a challenge; resolves with the token. */
  readonly emailChallenge: (challengeId: string, maskedEmail: string) => Effect.Effect<OperationTokenGrant, PasscodeCancelled>
  readonly forget: Effect.Effect<void>
}

const credentialOf = (proof: PasscodeProof, remembered: string | undefined): Partial<Credential> | undefined => {
  switch (proof.kind) {
    case "passcode":
      return { passcode: proof.passcode }
    case "biometry":
      return { biometryToken: serverBiometryToken(proof.biometryToken) }
    case "none":
      return {}
    case "remembered":
      return remembered === undefined ? undefined : { passcode: remembered }
  }
}

/** Verify (a credential is needed), begin the challenge, and finish an email-code challenge if asked. */
export const operationTokenInOrder = (steps: ChallengeSteps): Effect.Effect<OperationTokenGrant, PasscodeCancelled> =>
  Effect.gen(function* () {
    let proof = yield* steps.verify({})
    let credential = credentialOf(proof, yield* steps.rememberedPasscode)
    if (credential === undefined) {
      proof = yield* steps.verify({ needCredential: true })
      credential = credentialOf(proof, undefined)
    }
    let began = yield* steps.begin(credential ?? {})
    if (began === undefined) {
      // The remembered passcode (or the biometry token) is no longer accepted: ask again.
      yield* steps.forget
      began = yield* steps.begin(credentialOf(yield* steps.verify({ needCredential: true }), undefined) ?? {})
      if (began === undefined) return yield* new PasscodeCancelled()
    }
    if ("operationToken" in began) return { operationToken: began.operationToken, expiresAt: began.expiresAt }
    return yield* steps.emailChallenge(began.challengeId, began.maskedEmail)
  })
