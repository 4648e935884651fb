/**
 * The OperationGuard port (docs/decisions/0550): without a provider it fails closed for what it
 * cannot judge; `requireOperation` hands the provider the session's user and the request's token
 * and device-serial headers; at most one module provides it.
 */
import { randomUUID } from "node:crypto"
import { Effect, Layer, Schema } from "effect"
import { HttpApi, HttpApiBuilder, HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ApiId, authenticated, OperationTokenError, OperationTokenHeaders, operationRequest } from "@wallet/kernel/api"
import { composeServerModules, ServerCompositionError } from "../compose.ts"
import { signInitData } from "../kernel/initData.ts"
import { defineServerPlugin, type ServerPlugin } from "../plugin.ts"
import { startServer, type RunningServer } from "../server.ts"
import { startTestDatabase, type TestDatabase } from "../testing/databases.ts"
import { OperationGuard, requireOperation, type OperationCheck } from "./operationGuard.ts"

const BOT_TOKEN = "1234567:guard-test"

const check = (operation: string) =>
  Effect.runPromise(Effect.result(OperationGuard.none.check({ userId: 1, deviceSerial: undefined, token: undefined, operation, params: {}, usdCents: 100n })))

describe("OperationGuard.none (no provider)", () => {
  it("lets value operations through: without the passcode module nobody has a passcode", async () => {
    expect((await check("custody_transfer"))._tag).toBe("Success")
    expect((await check("wpay_payment"))._tag).toBe("Success")
  })

  it("refuses security operations and names outside the catalogue", async () => {
    for (const operation of ["passcode_change", "device_key_generate", "send", "custody_transferx"]) {
      const result = await check(operation)
      expect(result._tag).toBe("Failure")
      if (result._tag === "Failure") expect(result.failure).toMatchObject({ _tag: "OperationTokenError", code: "operation_token_invalid" })
    }
  })
})

describe("the OperationGuard port in a server", () => {
  const seen: Array<OperationCheck> = []
  const ProbeGroup = authenticated(
    HttpApiGroup.make("guardProbe").add(
      HttpApiEndpoint.post("pay", "/api/guard-probe/pay", {
        payload: Schema.Struct({ amount: Schema.String }),
        headers: OperationTokenHeaders,
        success: Schema.Struct({ ok: Schema.Boolean }),
        error: OperationTokenError,
      }),
    ),
  )
  const probe = defineServerPlugin({
    id: "guard-probe",
    groups: [ProbeGroup],
    handlers: HttpApiBuilder.group(HttpApi.make(ApiId).add(ProbeGroup), "guardProbe", (handlers) =>
      handlers.handle("pay", ({ payload }) =>
        Effect.as(
          requireOperation({
            operation: operationRequest("wpay_payment", { order: "o1", merchant: "m1", currency: "USDT", amount: payload.amount }),
            usdCents: 123n,
            replayKey: "probe:1",
          }),
          { ok: true },
        ),
      ),
    ),
  })
  // A provider that accepts only the token "good" and records what it was asked.
  const verifier = defineServerPlugin({
    id: "verifier",
    operationGuard: Layer.succeed(
      OperationGuard,
      OperationGuard.of({
        check: (input) =>
          Effect.suspend(() => {
            seen.push(input)
            return input.token === "good" ? Effect.void : Effect.fail(new OperationTokenError({ code: "operation_token_invalid", message: "no" }))
          }),
      }),
    ),
  })

  let database: TestDatabase
  let server: RunningServer
  beforeAll(async () => {
    database = await startTestDatabase("pglite")
    server = await startServer({ port: 0, database: database.options, botToken: BOT_TOKEN, plugins: [probe, verifier] })
  }, 60_000)
  afterAll(async () => {
    await server?.close()
    await database?.stop()
  })

  const signIn = async (id: number) => {
    const initData = signInitData({ user: { id, first_name: "G" }, authDate: new Date(), queryId: randomUUID(), chatType: "sender" }, BOT_TOKEN)
    const auth = await fetch(`${server.url}/api/auth/init`, { method: "POST", headers: { authorization: `tma ${initData}` } })
    return ((await auth.json()) as { access_token: string }).access_token
  }

  it("passes the session's user, the headers and the handler's params to the provider; a refusal is a 403 JSON error", async () => {
    const token = await signIn(8_900_000_001)
    const serial = randomUUID()
    const pay = (headers: Record<string, string>) =>
      fetch(`${server.url}/api/guard-probe/pay`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json", ...headers },
        body: JSON.stringify({ amount: "5" }),
      })
    const refused = await pay({ "x-wallet-operation-token": "bad", "x-wallet-device-serial": serial })
    expect(refused.status).toBe(403)
    expect(await refused.json()).toMatchObject({ _tag: "OperationTokenError", code: "operation_token_invalid" })
    const ok = await pay({ "x-wallet-operation-token": "good", "x-wallet-device-serial": serial })
    expect(ok.status).toBe(200)
    expect(seen.at(-1)).toEqual({
      userId: 8_900_000_001,
      deviceSerial: serial,
      token: "good",
      operation: "wpay_payment",
      params: { order: "o1", merchant: "m1", currency: "USDT", amount: "5" },
      usdCents: 123n,
      replayKey: "probe:1",
    })
    await pay({})
    expect(seen.at(-1)).toMatchObject({ token: undefined, deviceSerial: undefined })
  })

  it("refuses two modules implementing the port", () => {
    const provider = (id: string): ServerPlugin => defineServerPlugin({ id, operationGuard: Layer.succeed(OperationGuard, OperationGuard.none) })
    expect(() => composeServerModules([provider("one"), provider("two")], { dev: false })).toThrow(ServerCompositionError)
    expect(() => composeServerModules([provider("one"), provider("two")], { dev: false })).toThrow(
      "the OperationGuard port is provided by more than one module: one, two",
    )
  })
})
