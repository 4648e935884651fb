import { Effect, ManagedRuntime, Layer } from "effect"
import { describe, expect, it } from "vitest"
import { Passcode, PasscodeCancelled, PasscodeUnavailable, type OperationTokenOptions, type PasscodeShape } from "@wallet/kernel"
import type { Kernel } from "@wallet/kernel-react"
import { transferOperation, withdrawalOperation } from "../../operations.ts"
import { operationGate, operationTokenErrorKey } from "./gate.ts"

const runtime = ManagedRuntime.make(Layer.empty)
const kernelWith = (passcode: PasscodeShape | undefined) => ({ runtime, ...(passcode ? { passcode } : {}) }) as unknown as Kernel
const shape = (operationToken: PasscodeShape["operationToken"]): PasscodeShape => ({ verify: () => Effect.die("unused"), operationToken })
const transfer = transferOperation({ receiverId: 42, currency: "USDT", amount: "10.50" })

describe("the custody send gate (decision 0550)", () => {
  it("asks for a token bound to the operation and its params, and answers the headers with the device serial", async () => {
    const asked: Array<OperationTokenOptions> = []
    const gate = await operationGate(
      kernelWith(
        shape((options) =>
          Effect.sync(() => (asked.push(options), { operationToken: "tok", expiresAt: "2026-01-01T00:00:00Z", deviceSerial: "d".repeat(36) })),
        ),
      ),
      transfer,
    )
    expect(asked).toEqual([{ operation: "custody_transfer", params: { currency: "USDT", amount: "10.5", receiver: "42" } }])
    expect(gate).toEqual({ kind: "go", headers: { "x-wallet-operation-token": "tok", "x-wallet-device-serial": "d".repeat(36) } })
  })

  it("case 2: the client gate stops a send when the passcode plugin fails to load", async () => {
    const failing = Passcode.lazy(() => Promise.reject(new Error("chunk failed")))
    expect(await operationGate(kernelWith(failing), transfer)).toEqual({ kind: "unavailable" })
    // A broken provider (a defect) does not let the send through either.
    expect(await operationGate(kernelWith(shape(() => Effect.die(new Error("boom")))), transfer)).toEqual({ kind: "unavailable" })
  })

  it("stops when the user closes the passcode screen", async () => {
    expect(await operationGate(kernelWith(shape(() => Effect.fail(new PasscodeCancelled()))), transfer)).toEqual({ kind: "cancelled" })
  })

  it("without a passcode provider sends without a token and lets the server decide", async () => {
    expect(await operationGate(kernelWith(undefined), transfer)).toEqual({ kind: "go", headers: {} })
    expect(await operationGate(kernelWith(Passcode.unavailable), transfer)).toEqual({ kind: "go", headers: {} })
    expect(await operationGate(kernelWith(shape(() => Effect.fail(new PasscodeUnavailable({ reason: "no-provider" })))), transfer)).toEqual({
      kind: "go",
      headers: {},
    })
  })

  it("binds a withdrawal to its amount, destination and memo (max sends bind 'max')", () => {
    const base = { currency: "TON", network: "ton", amount: 1_500_000_000n, max_value: false, address: "UQabc" }
    expect(withdrawalOperation(base)).toEqual({
      name: "custody_withdrawal",
      params: { currency: "TON", network: "ton", amount: "1500000000", destination: "UQabc", memo: "" },
    })
    expect(withdrawalOperation({ ...base, max_value: true, comment: "id 7" }).params).toMatchObject({ amount: "max", memo: "id 7" })
  })

  it("maps the server's token refusals to their texts", () => {
    expect(operationTokenErrorKey("OperationTokenError", "operation_token_used")).toBe("send.operationToken.operation_token_used")
    expect(operationTokenErrorKey("CustodyConflict", "insufficient_funds")).toBeUndefined()
  })
})
