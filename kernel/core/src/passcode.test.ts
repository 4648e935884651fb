import { Effect, Exit } from "effect"
import { describe, expect, it } from "vitest"
import { Passcode, PasscodeUnavailable, type PasscodeShape } from "./passcode.ts"

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
