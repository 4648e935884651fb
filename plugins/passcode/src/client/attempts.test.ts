import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { PasscodeCancelled, type PasscodeProof } from "@wallet/kernel"
import type { PasscodeInfo } from "../api.ts"
import { operationTokenInOrder, verifyInOrder, type AttemptSteps, type Credential } from "./attempts.ts"

const info = (overrides: Partial<PasscodeInfo> = {}): PasscodeInfo => ({
  passcodeType: "4-digit",
  deviceBiometrySet: false,
  unlockDuration: 60,
  remainingAttempts: 5,
  passcodeForced: false,
  ...overrides,
})

/** Records which steps ran; the server accepts passcode 2468 and biometry token bio-token-0123456789. */
const steps = (
  options: { info?: PasscodeInfo | undefined; remembered?: boolean; kept?: string; biometry?: string; screen?: "ok" | "cancel" | "biometry" } = {},
) => {
  const log: string[] = []
  const verified: Array<[PasscodeProof, number]> = []
  const checked: Credential[] = []
  const s: AttemptSteps = {
    check: (c: Credential) =>
      Effect.sync(() => {
        log.push("passcode" in c ? `check:${c.passcode}` : "check:biometry")
        checked.push(c)
        return ("passcode" in c ? c.passcode === "2468" : c.biometryToken === "bio-token-0123456789") ? { unlockDuration: 60 } : undefined
      }),
    info: Effect.sync(() => (log.push("info"), "info" in options ? options.info : info())),
    remembered: Effect.sync(() => (log.push("remembered"), options.remembered === true)),
    rememberedPasscode: Effect.sync(() => (log.push("kept"), options.remembered === true ? options.kept : undefined)),
    biometry: Effect.sync(() => (log.push("biometry"), options.biometry)),
    screen: (mode, screenOptions) =>
      Effect.suspend((): Effect.Effect<Extract<PasscodeProof, { kind: "passcode" | "biometry" }>, PasscodeCancelled> => {
        log.push(`screen:${mode}${screenOptions?.passcodeOnly ? ":passcode-only" : ""}`)
        if (options.screen === "cancel") return Effect.fail(new PasscodeCancelled())
        if (options.screen === "biometry" && !screenOptions?.passcodeOnly)
          return Effect.succeed({ kind: "biometry" as const, biometryToken: "bio-token-0123456789" })
        return Effect.succeed({ kind: "passcode" as const, passcode: "2468" })
      }),
    verified: (proof, seconds) => Effect.sync(() => void verified.push([proof, seconds])),
  }
  return { s, log, verified, checked }
}

describe("order of attempts (spec 3 §4.3)", () => {
  it("uses a supplied right passcode before anything else", async () => {
    const { s, log, verified } = steps({ remembered: true })
    expect(await Effect.runPromise(verifyInOrder(s, { passcode: "2468" }))).toEqual({ kind: "passcode", passcode: "2468" })
    expect(log).toEqual(["check:2468"])
    expect(verified).toEqual([[{ kind: "passcode", passcode: "2468" }, 60]])
  })

  it("then none required: no passcode set and none forced", async () => {
    const { s, log } = steps({ info: info({ passcodeType: null }), remembered: true })
    expect(await Effect.runPromise(verifyInOrder(s, { passcode: "1111" }))).toEqual({ kind: "none" })
    expect(log).toEqual(["check:1111", "info"])
  })

  it("a forced passcode that is not set opens the create screen", async () => {
    const { s, log } = steps({ info: info({ passcodeType: null, passcodeForced: true }) })
    expect((await Effect.runPromise(verifyInOrder(s, {}))).kind).toBe("passcode")
    expect(log).toEqual(["info", "screen:create"])
  })

  it("then the remembered unlock, before biometry", async () => {
    const { s, log } = steps({ info: info({ deviceBiometrySet: true }), remembered: true, biometry: "bio-token-0123456789" })
    expect(await Effect.runPromise(verifyInOrder(s, {}))).toEqual({ kind: "remembered" })
    expect(log).toEqual(["info", "remembered"])
  })

  it("then biometry, whose token the server checks", async () => {
    const { s, log, verified } = steps({ info: info({ deviceBiometrySet: true }), biometry: "bio-token-0123456789" })
    expect(await Effect.runPromise(verifyInOrder(s, {}))).toEqual({ kind: "biometry", biometryToken: "bio-token-0123456789" })
    expect(log).toEqual(["info", "remembered", "biometry", "check:biometry"])
    expect(verified[0]?.[0].kind).toBe("biometry")
  })

  it("then the passcode screen: biometry not set, failed, or its token refused", async () => {
    for (const options of [{}, { info: info({ deviceBiometrySet: true }) }, { info: info({ deviceBiometrySet: true }), biometry: "stale-token-0123456789" }]) {
      const { s, log } = steps(options)
      expect((await Effect.runPromise(verifyInOrder(s, {}))).kind).toBe("passcode")
      expect(log.at(-1)).toBe("screen:verify")
    }
  })

  it("a status that does not arrive still asks on the screen; closing it cancels", async () => {
    const { s, log } = steps({ info: undefined, screen: "cancel" })
    const error = await Effect.runPromise(Effect.flip(verifyInOrder(s, {})))
    expect(error).toBeInstanceOf(PasscodeCancelled)
    expect(log).toEqual(["info", "remembered", "screen:verify"])
  })

  it("needCredential skips the remembered unlock", async () => {
    const { s, log } = steps({ remembered: true })
    expect((await Effect.runPromise(verifyInOrder(s, { needCredential: true }))).kind).toBe("passcode")
    expect(log).not.toContain("remembered")
  })
})

const b64url = (text: string) => btoa(text).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "")
const VAULT_TOKEN = `kvb1.${b64url("vault-secret-".padEnd(32, "x"))}.${b64url("bio-token-0123456789")}`

describe("needCredential (decision 0520): a credential inside the unlock window", () => {
  it("inside the window with biometry on: the biometry proof, not 'remembered'", async () => {
    const { s, log } = steps({ info: info({ deviceBiometrySet: true }), remembered: true, biometry: "bio-token-0123456789" })
    expect(await Effect.runPromise(verifyInOrder(s, { needCredential: true }))).toEqual({ kind: "biometry", biometryToken: "bio-token-0123456789" })
    expect(log).toEqual(["info", "kept", "biometry", "check:biometry"])
  })

  it("inside the window without biometry: the passcode screen", async () => {
    const { s, log } = steps({ remembered: true })
    expect(await Effect.runPromise(verifyInOrder(s, { needCredential: true }))).toEqual({ kind: "passcode", passcode: "2468" })
    expect(log).toEqual(["info", "kept", "screen:verify"])
  })

  it("the passcode typed earlier in the window, still held by this page, counts as typed (no prompt)", async () => {
    const { s, log } = steps({ info: info({ deviceBiometrySet: true }), remembered: true, kept: "2468", biometry: "bio-token-0123456789" })
    expect(await Effect.runPromise(verifyInOrder(s, { needCredential: true }))).toEqual({ kind: "passcode", passcode: "2468" })
    expect(log).toEqual(["info", "kept"])
  })

  it("no passcode and none forced: still 'none' (nothing can be sealed without a passcode)", async () => {
    const { s } = steps({ info: info({ passcodeType: null }), remembered: true })
    expect(await Effect.runPromise(verifyInOrder(s, { needCredential: true }))).toEqual({ kind: "none" })
  })

  it("'passcode' skips biometry, and the screen offers no biometry key", async () => {
    const { s, log } = steps({ info: info({ deviceBiometrySet: true }), remembered: true, biometry: "bio-token-0123456789", screen: "biometry" })
    expect(await Effect.runPromise(verifyInOrder(s, { needCredential: "passcode" }))).toEqual({ kind: "passcode", passcode: "2468" })
    expect(log).toEqual(["info", "kept", "screen:verify:passcode-only"])
    const any = steps({ info: info({ deviceBiometrySet: true }), biometry: "stale-token-0123456789", screen: "biometry" })
    expect((await Effect.runPromise(verifyInOrder(any.s, { needCredential: true }))).kind).toBe("biometry")
    expect(any.log.at(-1)).toBe("screen:verify")
  })

  it("a key vault token: the proof keeps it whole, the server sees only its own part", async () => {
    const { s, checked } = steps({ info: info({ deviceBiometrySet: true }), biometry: VAULT_TOKEN })
    expect(await Effect.runPromise(verifyInOrder(s, { needCredential: true }))).toEqual({ kind: "biometry", biometryToken: VAULT_TOKEN })
    expect(checked).toEqual([{ biometryToken: "bio-token-0123456789" }])
  })
})

describe("operation token", () => {
  const grant = { operationToken: "op-token", expiresAt: "2026-01-01T00:00:00Z" }
  const run = (proofs: PasscodeProof[], options: { remembered?: string; begin?: Array<"grant" | "challenge" | "refused"> } = {}) => {
    const began: Array<Partial<Credential>> = []
    const verifies: boolean[] = []
    const begins = [...(options.begin ?? ["grant"])]
    let forgotten = false
    const effect = operationTokenInOrder({
      verify: (o) => Effect.sync(() => (verifies.push(o.needCredential === true), proofs.shift()!)),
      rememberedPasscode: Effect.sync(() => (forgotten ? undefined : options.remembered)),
      begin: (credential) =>
        Effect.sync(() => {
          began.push(credential)
          const next = begins.shift()
          return next === "refused"
            ? undefined
            : next === "challenge"
              ? { method: "email-code" as const, challengeId: "c1", maskedEmail: "an***a@x.io" }
              : grant
        }),
      emailChallenge: (id, masked) => Effect.succeed({ operationToken: `email:${id}:${masked}`, expiresAt: grant.expiresAt }),
      forget: Effect.sync(() => void (forgotten = true)),
    })
    return { effect, began, verifies }
  }

  it("begins with the proof's credential and returns a granted token", async () => {
    const { effect, began } = run([{ kind: "biometry", biometryToken: "bio" }])
    expect(await Effect.runPromise(effect)).toEqual(grant)
    expect(began).toEqual([{ biometryToken: "bio" }])
  })

  it("begins with only the server's part of a key vault biometry token", async () => {
    const { effect, began } = run([{ kind: "biometry", biometryToken: VAULT_TOKEN }])
    await Effect.runPromise(effect)
    expect(began).toEqual([{ biometryToken: "bio-token-0123456789" }])
  })

  it("uses the passcode remembered for the unlock window, or asks again without one", async () => {
    const kept = run([{ kind: "remembered" }], { remembered: "2468" })
    await Effect.runPromise(kept.effect)
    expect(kept.began).toEqual([{ passcode: "2468" }])
    const lost = run([{ kind: "remembered" }, { kind: "passcode", passcode: "2468" }])
    await Effect.runPromise(lost.effect)
    expect(lost.verifies).toEqual([false, true])
    expect(lost.began).toEqual([{ passcode: "2468" }])
  })

  it("asks again when the remembered credential is refused, and finishes an email-code challenge", async () => {
    const { effect, began, verifies } = run([{ kind: "remembered" }, { kind: "passcode", passcode: "1357" }], {
      remembered: "2468",
      begin: ["refused", "challenge"],
    })
    expect(await Effect.runPromise(effect)).toEqual({ operationToken: "email:c1:an***a@x.io", expiresAt: grant.expiresAt })
    expect(began).toEqual([{ passcode: "2468" }, { passcode: "1357" }])
    expect(verifies).toEqual([false, true])
  })

  it("begins without a credential when none is required", async () => {
    const { effect, began } = run([{ kind: "none" }])
    await Effect.runPromise(effect)
    expect(began).toEqual([{}])
  })
})
