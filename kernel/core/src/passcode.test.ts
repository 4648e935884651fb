import { Effect, Exit } from "effect"
import { describe, expect, it } from "vitest"
import {
  isCredentialProof,
  operationTokenHeaders,
  Passcode,
  PasscodeUnavailable,
  serverBiometryToken,
  type PasscodeShape,
  type VerifyOptions,
} from "./passcode.ts"

const impl: PasscodeShape = {
  verify: ({ passcode }) => Effect.succeed(passcode ? { kind: "passcode", passcode } : { kind: "none" }),
  operationToken: ({ operation }) => Effect.succeed({ operationToken: `token-${operation}`, expiresAt: "2026-01-01T00:00:00Z" }),
}

describe("Passcode.lazy", () => {
  it("loads the provider once, on the first call, and delegates", async () => {
    let loads = 0
    const shape = Passcode.lazy(async () => {
      loads += 1
      return impl
    })
    expect(loads).toBe(0)
    expect(await Effect.runPromise(shape.verify({ operation: "send", passcode: "1357" }))).toEqual({ kind: "passcode", passcode: "1357" })
    expect(await Effect.runPromise(shape.operationToken({ operation: "send" }))).toMatchObject({ operationToken: "token-send" })
    expect(loads).toBe(1)
  })

  it("fails with PasscodeUnavailable without a provider, and retries a failed load", async () => {
    const none = await Effect.runPromiseExit(Passcode.lazy(undefined).verify({ operation: "send" }))
    expect(Exit.isFailure(none) && Exit.findErrorOption(none)).toMatchObject({ value: new PasscodeUnavailable({ reason: "no-provider" }) })
    let attempts = 0
    const shape = Passcode.lazy(async () => {
      attempts += 1
      if (attempts === 1) throw new Error("chunk failed")
      return impl
    })
    const first = await Effect.runPromise(Effect.flip(shape.verify({ operation: "send" })))
    expect(first).toEqual(new PasscodeUnavailable({ reason: "load-failed" }))
    expect(await Effect.runPromise(shape.verify({ operation: "send" }))).toEqual({ kind: "none" })
    expect(attempts).toBe(2)
  })
})

describe("needCredential (decision 0520)", () => {
  it("reaches the provider unchanged through the lazy shape", async () => {
    const seen: VerifyOptions[] = []
    const shape = Passcode.lazy(async () => ({
      ...impl,
      verify: (options) =>
        Effect.sync(() => (seen.push(options), options.needCredential ? { kind: "biometry" as const, biometryToken: "t" } : { kind: "remembered" as const })),
    }))
    expect((await Effect.runPromise(shape.verify({ operation: "send" }))).kind).toBe("remembered")
    expect((await Effect.runPromise(shape.verify({ operation: "send", needCredential: true }))).kind).toBe("biometry")
    await Effect.runPromise(shape.verify({ operation: "ton_space_protect", needCredential: "passcode" }))
    expect(seen.map((o) => o.needCredential)).toEqual([undefined, true, "passcode"])
  })

  it("only passcode and biometry proofs carry a credential", () => {
    expect(isCredentialProof({ kind: "passcode", passcode: "2468" })).toBe(true)
    expect(isCredentialProof({ kind: "biometry", biometryToken: "t" })).toBe(true)
    expect(isCredentialProof({ kind: "remembered" })).toBe(false)
    expect(isCredentialProof({ kind: "none" })).toBe(false)
  })
})

describe("serverBiometryToken", () => {
  const b64url = (text: string) => btoa(text).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "")
  it("keeps the vault's secret on the device: only the server part of a kvb1 token", () => {
    const token = `kvb1.${b64url("s".repeat(32))}.${b64url("server-token-0123456789")}`
    expect(serverBiometryToken(token)).toBe("server-token-0123456789")
    expect(serverBiometryToken(token)).not.toContain(b64url("s".repeat(32)))
  })
  it("passes any other token through", () => {
    expect(serverBiometryToken("plain-server-token-0123456789")).toBe("plain-server-token-0123456789")
    expect(serverBiometryToken("kvb2.a.b")).toBe("kvb2.a.b")
    expect(serverBiometryToken("kvb1.only-two")).toBe("kvb1.only-two")
  })
})

describe("operation token grants", () => {
  it("the lazy service passes the operation's params through, and a grant becomes the request headers", async () => {
    const asked: Array<unknown> = []
    const shape = Passcode.lazy(async () => ({
      ...impl,
      operationToken: (options) =>
        Effect.sync(() => (asked.push(options), { operationToken: "t", expiresAt: "2026-01-01T00:00:00Z", deviceSerial: "s".repeat(36) })),
    }))
    const grant = await Effect.runPromise(shape.operationToken({ operation: "custody_transfer", params: { amount: "1", currency: "TON", receiver: "7" } }))
    expect(asked).toEqual([{ operation: "custody_transfer", params: { amount: "1", currency: "TON", receiver: "7" } }])
    expect(operationTokenHeaders(grant)).toEqual({ "x-wallet-operation-token": "t", "x-wallet-device-serial": "s".repeat(36) })
    expect(operationTokenHeaders({ operationToken: "t", expiresAt: "x" })).toEqual({ "x-wallet-operation-token": "t" })
  })
})
