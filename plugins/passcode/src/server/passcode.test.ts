import { generateKeyPairSync, type KeyObject, randomBytes, randomUUID } from "node:crypto"
import { Effect, Schema } from "effect"
import { FetchHttpClient } from "effect/http"
import { HttpApi, HttpApiBuilder, HttpApiClient, HttpApiEndpoint, HttpApiGroup, HttpApiSchema } from "effect/http-api"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ApiId, authenticated, CurrentSession } from "@wallet/kernel/api"
import { defineServerPlugin, signInitData, startServer, type RunningServer } from "@wallet/kernel-server"
import { startTestDatabase, testDatabases, type TestDatabase } from "@wallet/kernel-server/testing"
import { DEVICE_SERIAL_HEADER, maskEmail, OperationTokenError, PasscodeApi } from "../api.ts"
import { makePasscodeServerPlugin, OPERATION_TOKEN_HEADER, requireOperationToken } from "./index.ts"
import { fromBase64Url, generateTransportKeyPair, rsaUnwrap, toHex } from "@wallet/kernel/keyvault"
import { makeDeviceKeyServer } from "../client/deviceKeys.ts"

const BOT_TOKEN = "1234567:passcode-test"
const MAX_ATTEMPTS = 5
const CODE_TTL = 600
const MIN_INTERVAL = 50
const PER_HOUR = 10
const TOKEN_TTL = 300
/** A user whose USD balance (cents) is at or above the forced-passcode threshold. */
const RICH_USER = 9_100_000_001
const THRESHOLD_CENTS = 50_000n

const clock = { now: Date.UTC(2026, 3, 1, 10, 0, 0) }
const tick = (seconds: number) => {
  clock.now += seconds * 1000
}

// A plugin endpoint protected by an operation token, as other plugins use it.
const ProtectedGroup = authenticated(
  HttpApiGroup.make("protectedProbe").add(
    HttpApiEndpoint.post("run", "/api/probe/protected", {
      payload: Schema.Struct({ operation: Schema.String, deviceSerial: Schema.String }),
      headers: Schema.Struct({ [OPERATION_TOKEN_HEADER]: Schema.optionalKey(Schema.String) }),
      success: HttpApiSchema.NoContent,
      error: OperationTokenError,
    }),
  ),
)
const probePlugin = defineServerPlugin({
  id: "probe",
  groups: [ProtectedGroup],
  handlers: HttpApiBuilder.group(HttpApi.make(ApiId).add(ProtectedGroup), "protectedProbe", (handlers) =>
    handlers.handle("run", ({ payload, headers }) =>
      Effect.gen(function* () {
        const session = yield* CurrentSession
        yield* requireOperationToken({
          userId: session.userId,
          deviceSerial: payload.deviceSerial,
          operation: payload.operation,
          token: headers[OPERATION_TOKEN_HEADER],
        })
      }),
    ),
  ),
})

let nextUser = 9_000_000_001

describe.each(testDatabases)("passcode server on %s", (kind) => {
  let database: TestDatabase
  let server: RunningServer

  beforeAll(async () => {
    database = await startTestDatabase(kind)
    server = await startServer({
      port: 0,
      database: database.options,
      botToken: BOT_TOKEN,
      dev: true,
      now: () => clock.now,
      accessTokenTtlSeconds: 365 * 24 * 3600,
      plugins: [
        makePasscodeServerPlugin({ usdBalance: { usdCentsOf: (userId) => Effect.succeed(userId === RICH_USER ? THRESHOLD_CENTS : THRESHOLD_CENTS - 1n) } }),
        probePlugin,
      ],
      pluginConfig: {
        passcode: {
          maxPasscodeAttempts: MAX_ATTEMPTS,
          emailCodeTtlSeconds: CODE_TTL,
          emailCodeMinIntervalSeconds: MIN_INTERVAL,
          emailCodesPerHour: PER_HOUR,
          operationTokenTtlSeconds: TOKEN_TTL,
          emailChallengeOperations: ["show_mnemonic"],
          forcePasscodeUsdCents: Number(THRESHOLD_CENTS),
        },
      },
    })
  }, 90_000)

  afterAll(async () => {
    await server?.close()
    await database?.stop()
  })

  interface Reply {
    readonly status: number
    readonly body: any
  }

  /** A signed-in user with helpers bound to their session. */
  const signIn = async (id = nextUser++) => {
    const initData = signInitData(
      { user: { id, first_name: "Pass", language_code: "en" }, authDate: new Date(clock.now), queryId: randomUUID(), chatType: "sender" },
      BOT_TOKEN,
    )
    const auth = await fetch(`${server.url}/api/auth/init`, { method: "POST", headers: { authorization: `tma ${initData}` } })
    expect(auth.status).toBe(200)
    const { access_token: token } = (await auth.json()) as { access_token: string }
    const send = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Reply> => {
      const response = await fetch(`${server.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "content-type": "application/json" }), ...headers },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      })
      const text = await response.text()
      return { status: response.status, body: text === "" ? undefined : JSON.parse(text) }
    }
    const email = `user${id}@example.com`
    const user = {
      id,
      email,
      token,
      send,
      post: (path: string, body: unknown, headers?: Record<string, string>) => send("POST", path, body, headers),
      info: (serial: string) => send("GET", "/api/passcode/info", undefined, { [DEVICE_SERIAL_HEADER]: serial }),
      /** Requests a code and reads it from the dev outbox page, as a newcomer would. */
      requestCode: async (reason: string, options: { product?: string; to?: string } = {}) => {
        const reply = await send("POST", "/api/recovery-email/request-code", {
          product: options.product ?? "wallet",
          reason,
          language: "en",
          ...(reason === "confirm-email" ? { email: options.to ?? email } : {}),
        })
        expect(reply.status, JSON.stringify(reply.body)).toBe(200)
        return latestCode(options.to ?? email)
      },
      /** Recovery email set (confirm-email code), then a passcode on `serial`. */
      withPasscode: async (serial: string, passcode = "135790") => {
        const code = await user.requestCode("confirm-email")
        const created = await send("POST", "/api/passcode/create", {
          email,
          emailCode: code,
          newPasscode: passcode,
          newPasscodeType: passcode.length === 4 ? "4-digit" : "6-digit",
          deviceSerial: serial,
        })
        expect(created.status, JSON.stringify(created.body)).toBe(200)
        tick(MIN_INTERVAL + 1)
        return created.body
      },
      /** A passcode on a further device: only with a change-passcode code sent to the recovery email (decision 0540). */
      addDevice: async (serial: string, passcode = "135790") => {
        const body = { emailSource: "existing", newPasscode: passcode, newPasscodeType: passcode.length === 4 ? "4-digit" : "6-digit", deviceSerial: serial }
        const refused = await send("POST", "/api/passcode/create", body)
        expect(refused.status, JSON.stringify(refused.body)).toBe(409)
        expect(refused.body).toMatchObject({ _tag: "RecoveryEmailError", code: "email_code_required", product: "wallet", maskedEmail: maskEmail(email) })
        const code = await user.requestCode("change-passcode")
        const created = await send("POST", "/api/passcode/create", { ...body, emailCode: code })
        expect(created.status, JSON.stringify(created.body)).toBe(200)
        tick(MIN_INTERVAL + 1)
        return created.body
      },
      /** A device key of `address` on `serial` with its passcode, unwrapped. */
      generateKey: async (serial: string, passcode: string, address: string) => {
        const transport = await generateTransportKeyPair()
        const generated = await send("POST", "/api/device-keys/generate", { address, transportPublicKey: transport.publicKey, passcode, deviceSerial: serial })
        expect(generated.status, JSON.stringify(generated.body)).toBe(200)
        return { externalId: generated.body.externalId as string, keyHex: toHex(await rsaUnwrap(transport.privateKey, generated.body.deviceEncryptionKey)) }
      },
    }
    return user
  }

  const latestCode = async (recipient: string): Promise<string> => {
    const page = await fetch(`${server.url}/api/dev/outbox.html?recipient=${encodeURIComponent(recipient)}`)
    const match = /Your code: (\d{6})/.exec(await page.text())
    expect(match).not.toBeNull()
    return match![1]!
  }

  const serial = () => randomUUID()
  const otherCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, "0")

  describe("passcode", () => {
    it("answers passcode info by the device-serial header and needs the header", async () => {
      const user = await signIn()
      const missing = await user.send("GET", "/api/passcode/info")
      expect(missing.status).toBe(403)
      expect(missing.body).toMatchObject({ _tag: "PasscodeError", code: "device_serial_missing" })
      const device = serial()
      expect((await user.info(device)).body).toEqual({
        passcodeType: null,
        deviceBiometrySet: false,
        unlockDuration: 0,
        remainingAttempts: MAX_ATTEMPTS,
        passcodeForced: false,
      })
      await user.withPasscode(device, "2468")
      expect((await user.info(device)).body).toMatchObject({ passcodeType: "4-digit", deviceBiometrySet: false })
      // Per device serial: another device of the same user has none.
      expect((await user.info(serial())).body.passcodeType).toBeNull()
    })

    it("refuses creation without a recovery email (source_email_missing), a second passcode, and malformed passcodes", async () => {
      const user = await signIn()
      const device = serial()
      const noEmail = await user.post("/api/passcode/create", { newPasscode: "1357", newPasscodeType: "4-digit", deviceSerial: device })
      expect(noEmail.status).toBe(409)
      expect(noEmail.body.code).toBe("source_email_missing")
      for (const [newPasscode, newPasscodeType] of [
        ["12345", "6-digit"],
        ["123456", "4-digit"],
        ["12a4", "4-digit"],
      ]) {
        const bad = await user.post("/api/passcode/create", { newPasscode, newPasscodeType, deviceSerial: device })
        expect(bad.status).toBe(400)
        expect(bad.body.code).toBe("invalid_request")
      }
      await user.withPasscode(device)
      const again = await user.post("/api/passcode/create", { emailSource: "existing", newPasscode: "1357", newPasscodeType: "4-digit", deviceSerial: device })
      expect(again.status).toBe(403)
      expect(again.body.code).toBe("passcode_already_set")
      // With the recovery email on file, another device needs a code sent to it (decision 0540).
      expect(await user.addDevice(serial(), "1234")).toMatchObject({ passcodeType: "4-digit", remainingAttempts: MAX_ATTEMPTS })
    })

    it("stores only a salted scrypt hash", async () => {
      const user = await signIn()
      const a = serial()
      const b = serial()
      await user.withPasscode(a, "864213")
      await user.addDevice(b, "864213")
      const rows = await server.sql("select passcode_hash from passcode_passcodes where user_id = $1 order by device_serial", [user.id])
      expect(rows).toHaveLength(2)
      for (const row of rows) {
        expect(String(row.passcode_hash)).toMatch(/^scrypt\$16384\$8\$1\$/)
        expect(String(row.passcode_hash)).not.toContain("864213")
      }
      expect(rows[0]!.passcode_hash).not.toBe(rows[1]!.passcode_hash)
    })

    it("counts wrong passcodes on the server and stops at the limit; a locked passcode refuses the right one and biometry", async () => {
      const user = await signIn()
      const device = serial()
      await user.withPasscode(device, "112233")
      const biometry = await user.post("/api/passcode/biometry/setup", { deviceSerial: device, passcode: "112233" })
      expect(biometry.status).toBe(200)
      expect((await user.post("/api/passcode/verify", { deviceSerial: device })).body).toMatchObject({ code: "passcode_missing", passcodeSet: true })
      for (let remaining = MAX_ATTEMPTS - 1; remaining >= 1; remaining--) {
        const wrong = await user.post("/api/passcode/verify", { deviceSerial: device, passcode: "000000" })
        expect(wrong.status).toBe(403)
        expect(wrong.body).toMatchObject({ code: "passcode_wrong", remainingAttempts: remaining })
      }
      const last = await user.post("/api/passcode/verify", { deviceSerial: device, passcode: "000000" })
      expect(last.body).toMatchObject({ code: "passcode_exceeded_max_attempts", remainingAttempts: 0 })
      const right = await user.post("/api/passcode/verify", { deviceSerial: device, passcode: "112233" })
      expect(right.body).toMatchObject({ code: "passcode_exceeded_max_attempts", remainingAttempts: 0 })
      const withBiometry = await user.post("/api/passcode/verify", { deviceSerial: device, biometryToken: biometry.body.biometryToken })
      expect(withBiometry.body.code).toBe("passcode_exceeded_max_attempts")
      const change = await user.post(
        "/api/passcode/update",
        { passcode: "112233", newPasscode: "445566", newPasscodeType: "6-digit" },
        { [DEVICE_SERIAL_HEADER]: device },
      )
      expect(change.body.code).toBe("passcode_exceeded_max_attempts")
      expect((await user.info(device)).body.remainingAttempts).toBe(0)
    })

    it("a correct passcode resets the count", async () => {
      const user = await signIn()
      const device = serial()
      await user.withPasscode(device, "9753")
      await user.post("/api/passcode/verify", { deviceSerial: device, passcode: "0000" })
      await user.post("/api/passcode/verify", { deviceSerial: device, passcode: "0000" })
      expect((await user.info(device)).body.remainingAttempts).toBe(MAX_ATTEMPTS - 2)
      expect((await user.post("/api/passcode/verify", { deviceSerial: device, passcode: "9753" })).body).toEqual({ verified: true, unlockDuration: 0 })
      expect((await user.info(device)).body.remainingAttempts).toBe(MAX_ATTEMPTS)
    })

    it("parallel guesses never get more tries than the limit", async () => {
      const user = await signIn()
      const device = serial()
      await user.withPasscode(device, "246813")
      const guesses = await Promise.all(
        Array.from({ length: 12 }, (_, i) => user.post("/api/passcode/verify", { deviceSerial: device, passcode: String(100000 + i) })),
      )
      const codes = guesses.map((reply) => reply.body.code)
      expect(codes.filter((code) => code === "passcode_wrong")).toHaveLength(MAX_ATTEMPTS - 1)
      expect(codes.filter((code) => code === "passcode_exceeded_max_attempts")).toHaveLength(12 - (MAX_ATTEMPTS - 1))
      const [row] = await server.sql("select failed_attempts from passcode_attempts where user_id = $1", [user.id])
      expect(Number(row!.failed_attempts)).toBe(MAX_ATTEMPTS)
    })

    it("a locked passcode is reset only through a change-passcode email code; the old passcode and biometry stop working", async () => {
      const user = await signIn()
      const device = serial()
      await user.withPasscode(device, "5555")
      const biometry = await user.post("/api/passcode/biometry/setup", { deviceSerial: device, passcode: "5555" })
      for (let i = 0; i < MAX_ATTEMPTS; i++) await user.post("/api/passcode/verify", { deviceSerial: device, passcode: "1111" })
      const code = await user.requestCode("change-passcode")
      // A code of another reason does not reset it.
      tick(MIN_INTERVAL + 1)
      const emailChange = await user.requestCode("change-email")
      const wrongReason = await user.post("/api/passcode/update", {
        emailCode: emailChange,
        newPasscode: "6789",
        newPasscodeType: "4-digit",
        deviceSerial: device,
      })
      expect(wrongReason.body.code).toBe("wrong_code_reason")
      const reset = await user.post("/api/passcode/update", { emailCode: code, newPasscode: "678901", newPasscodeType: "6-digit", deviceSerial: device })
      expect(reset.status, JSON.stringify(reset.body)).toBe(200)
      expect(reset.body).toMatchObject({ passcodeType: "6-digit", remainingAttempts: MAX_ATTEMPTS, deviceBiometrySet: false })
      expect((await user.post("/api/passcode/verify", { deviceSerial: device, passcode: "678901" })).status).toBe(200)
      expect((await user.post("/api/passcode/verify", { deviceSerial: device, passcode: "5555" })).body.code).toBe("passcode_wrong")
      expect((await user.post("/api/passcode/verify", { deviceSerial: device, biometryToken: biometry.body.biometryToken })).body.code).toBe(
        "biometry_token_invalid",
      )
      // The code was single-use.
      const replay = await user.post("/api/passcode/update", { emailCode: code, newPasscode: "111111", newPasscodeType: "6-digit", deviceSerial: device })
      expect(replay.body.code).toBe("code_used")
    })

    it("changes the passcode with the current one (wrong current passcodes count)", async () => {
      const user = await signIn()
      const device = serial()
      await user.withPasscode(device, "3141")
      const wrong = await user.post(
        "/api/passcode/update",
        { passcode: "2718", newPasscode: "161803", newPasscodeType: "6-digit" },
        { [DEVICE_SERIAL_HEADER]: device },
      )
      expect(wrong.body).toMatchObject({ code: "passcode_wrong", remainingAttempts: MAX_ATTEMPTS - 1 })
      const changed = await user.post(
        "/api/passcode/update",
        { passcode: "3141", newPasscode: "161803", newPasscodeType: "6-digit" },
        { [DEVICE_SERIAL_HEADER]: device },
      )
      expect(changed.body).toMatchObject({ passcodeType: "6-digit", remainingAttempts: MAX_ATTEMPTS })
      expect((await user.post("/api/passcode/verify", { deviceSerial: device, passcode: "161803" })).status).toBe(200)
      const noSerial = await user.post("/api/passcode/update", { passcode: "161803", newPasscode: "1111", newPasscodeType: "4-digit" })
      expect(noSerial.body.code).toBe("device_serial_missing")
    })

    it("device biometry: the token stands in for the passcode until deactivated", async () => {
      const user = await signIn()
      const device = serial()
      await user.withPasscode(device, "7531")
      const denied = await user.post("/api/passcode/biometry/setup", { deviceSerial: device, passcode: "0000" })
      expect(denied.body.code).toBe("passcode_wrong")
      const setup = await user.post("/api/passcode/biometry/setup", { deviceSerial: device, passcode: "7531" })
      const token = setup.body.biometryToken as string
      expect(token.length).toBeGreaterThanOrEqual(43)
      expect((await user.info(device)).body.deviceBiometrySet).toBe(true)
      expect((await user.post("/api/passcode/verify", { deviceSerial: device, biometryToken: token })).body.verified).toBe(true)
      // Bound to the device.
      const elsewhere = serial()
      await user.addDevice(elsewhere, "7531")
      expect((await user.post("/api/passcode/verify", { deviceSerial: elsewhere, biometryToken: token })).body.code).toBe("biometry_token_invalid")
      const stored = await server.sql("select biometry_token_hash from passcode_passcodes where user_id = $1 and device_serial = $2", [user.id, device])
      expect(stored[0]!.biometry_token_hash).not.toBe(token)
      expect((await user.post("/api/passcode/biometry/deactivate", { deviceSerial: device, passcode: "7531" })).status).toBe(204)
      expect((await user.info(device)).body.deviceBiometrySet).toBe(false)
      expect((await user.post("/api/passcode/verify", { deviceSerial: device, biometryToken: token })).body.code).toBe("biometry_token_invalid")
    })
  })

  describe("recovery email", () => {
    it("creates the recovery email with a confirm-email code read from the outbox; codes are single-use and bound to the address", async () => {
      const user = await signIn()
      expect((await user.send("GET", "/api/recovery-email?product=wallet")).body).toEqual({ product: "wallet", email: null, maskedEmail: null })
      const code = await user.requestCode("confirm-email", { to: "Someone.Long@Example.com" })
      const otherAddress = await user.post("/api/recovery-email/create", { email: "other@example.com", emailCode: code, product: "wallet" })
      expect(otherAddress.body.code).toBe("code_not_found")
      const created = await user.post("/api/recovery-email/create", { email: "someone.long@example.com", emailCode: code, product: "wallet" })
      expect(created.status, JSON.stringify(created.body)).toBe(200)
      expect(created.body).toEqual({ product: "wallet", email: "someone.long@example.com", maskedEmail: "so***g@example.com" })
      const again = await user.post("/api/recovery-email/create", { email: "someone.long@example.com", emailCode: code, product: "wallet" })
      expect(again.body.code).toBe("recovery_email_exists")
      // Per product.
      expect((await user.send("GET", "/api/recovery-email?product=ton-space")).body.email).toBeNull()
    })

    it("only the newest code works, codes expire, and each reason has its own codes", async () => {
      const user = await signIn()
      await user.withPasscode(serial())
      const first = await user.requestCode("change-passcode")
      const early = await user.send("POST", "/api/recovery-email/request-code", { product: "wallet", reason: "change-passcode", language: "en" })
      expect(early.status).toBe(429)
      expect(early.body).toMatchObject({ code: "rate_limit_exceeded" })
      expect(early.body.retryAfterSeconds).toBeGreaterThan(0)
      expect(early.body.retryAfterSeconds).toBeLessThanOrEqual(MIN_INTERVAL)
      tick(MIN_INTERVAL)
      const second = await user.requestCode("change-passcode")
      if (second === first) return // one in a million: the same digits twice
      const check = (emailCode: string, reason = "change-passcode") => user.post("/api/recovery-email/check-code", { emailCode, reason, product: "wallet" })
      expect((await check(first)).body.code).toBe("code_not_newest")
      expect((await check(second, "get-recovery-key")).body.code).toBe("wrong_code_reason")
      expect((await check(second)).body).toEqual({ valid: true })
      // Checking does not consume; it still works, until it expires.
      tick(CODE_TTL - 1)
      expect((await check(second)).status).toBe(200)
      tick(2)
      const expired = await check(second)
      expect(expired.status).toBe(400)
      expect(expired.body).toMatchObject({ _tag: "EmailCodeError", code: "expired_email_code" })
    })

    it("the minimum interval guards an unused code only: after a reset a further device's code comes at once", async () => {
      const user = await signIn()
      const device = serial()
      await user.withPasscode(device, "2468")
      const code = await user.requestCode("change-passcode")
      const early = await user.post("/api/recovery-email/request-code", { product: "wallet", reason: "change-passcode", language: "en" })
      expect(early.body.code).toBe("rate_limit_exceeded")
      expect((await user.post("/api/passcode/update", { emailCode: code, newPasscode: "1357", newPasscodeType: "4-digit", deviceSerial: device })).status).toBe(
        200,
      )
      // No tick: the used code no longer holds the next one back.
      const next = await user.post("/api/recovery-email/request-code", { product: "wallet", reason: "change-passcode", language: "en" })
      expect(next.status, JSON.stringify(next.body)).toBe(200)
    })

    it("wrong guesses void the newest code after the limit", async () => {
      const user = await signIn()
      await user.withPasscode(serial())
      const code = await user.requestCode("get-recovery-key")
      const check = (emailCode: string) => user.post("/api/recovery-email/check-code", { emailCode, reason: "get-recovery-key", product: "wallet" })
      let wrong = code
      for (let i = 0; i < 5; i++) {
        wrong = otherCode(wrong)
        expect((await check(wrong)).body.code).toBe("code_not_found")
      }
      expect((await check(code)).body.code).toBe("expired_email_code")
    })

    it("limits codes per hour per user", async () => {
      const user = await signIn()
      await user.withPasscode(serial())
      const reasons = ["change-passcode", "get-recovery-key", "change-email"]
      // withPasscode sent one code already.
      for (let i = 1; i < PER_HOUR; i++) {
        const reply = await user.post("/api/recovery-email/request-code", { product: "wallet", reason: reasons[i % 3], language: "ru" })
        expect(reply.status, JSON.stringify(reply.body)).toBe(200)
        tick(Math.ceil(MIN_INTERVAL / reasons.length) + 1)
      }
      const over = await user.post("/api/recovery-email/request-code", { product: "wallet", reason: "change-passcode", language: "en" })
      expect(over.status).toBe(429)
      expect(over.body.code).toBe("rate_limit_exceeded")
      tick(3600)
      expect((await user.post("/api/recovery-email/request-code", { product: "wallet", reason: "change-passcode", language: "en" })).status).toBe(200)
    })

    it("emails go through the outbox in the user's language, to the address on file", async () => {
      const user = await signIn()
      await user.withPasscode(serial())
      const sent = await user.post("/api/recovery-email/request-code", { product: "wallet", reason: "change-email", language: "ru" })
      expect(sent.body).toMatchObject({ sentTo: `us***${String(user.id).slice(-1)}@example.com`, resendAfterSeconds: MIN_INTERVAL })
      const rows = await server.sql("select subject, body, status from outbox_messages where recipient = $1 order by id desc limit 1", [user.email])
      expect(rows[0]).toMatchObject({ subject: "Код для смены почты восстановления", status: "sent" })
      expect(String(rows[0]!.body)).toMatch(/Ваш код: \d{6}/)
      const none = await (await signIn()).post("/api/recovery-email/request-code", { product: "wallet", reason: "change-email", language: "en" })
      expect(none.body.code).toBe("recovery_email_missing")
    })

    it("changes the recovery email with a code to the current address and one to the new address", async () => {
      const user = await signIn()
      await user.withPasscode(serial())
      const current = await user.requestCode("change-email")
      const fresh = await user.requestCode("confirm-email", { to: "new.address@example.com" })
      const swapped = await user.post("/api/recovery-email/change", {
        currentEmailCode: fresh,
        email: "new.address@example.com",
        emailCode: current,
        product: "wallet",
      })
      expect(swapped.status).toBe(400)
      const changed = await user.post("/api/recovery-email/change", {
        currentEmailCode: current,
        email: "new.address@example.com",
        emailCode: fresh,
        product: "wallet",
      })
      expect(changed.status, JSON.stringify(changed.body)).toBe(200)
      expect(changed.body).toMatchObject({ email: "new.address@example.com", maskedEmail: "ne***s@example.com" })
    })
  })

  describe("security challenges and operation tokens", () => {
    const run = (user: Awaited<ReturnType<typeof signIn>>, operation: string, deviceSerial: string, token?: string) =>
      user.post("/api/probe/protected", { operation, deviceSerial }, token === undefined ? {} : { [OPERATION_TOKEN_HEADER]: token })

    it("grants an operation token at once when not enforced; it is single-use and bound to user, device and operation", async () => {
      const user = await signIn()
      const device = serial()
      await user.withPasscode(device, "4321")
      const wrong = await user.post("/api/security/challenges/begin", { deviceSerial: device, passcode: "1234", language: "en", operation: { name: "send" } })
      expect(wrong.body).toMatchObject({ code: "passcode_wrong", remainingAttempts: MAX_ATTEMPTS - 1 })
      const noPasscode = await user.post("/api/security/challenges/begin", { deviceSerial: device, language: "en", operation: { name: "send" } })
      expect(noPasscode.body.code).toBe("passcode_missing")
      const begun = await user.post("/api/security/challenges/begin", { deviceSerial: device, passcode: "4321", language: "en", operation: { name: "send" } })
      expect(begun.status).toBe(200)
      const token = begun.body.operationToken as string
      expect(Date.parse(begun.body.expiresAt)).toBe(clock.now + TOKEN_TTL * 1000)

      expect((await run(user, "send", device)).body.code).toBe("operation_token_missing")
      expect((await run(user, "show_mnemonic", device, token)).body.code).toBe("operation_token_mismatch")
      expect((await run(user, "send", serial(), token)).body.code).toBe("operation_token_mismatch")
      const stranger = await signIn()
      expect((await run(stranger, "send", device, token)).body.code).toBe("operation_token_invalid")
      expect((await run(user, "send", device, token)).status).toBe(204)
      const replay = await run(user, "send", device, token)
      expect(replay.status).toBe(403)
      expect(replay.body.code).toBe("operation_token_used")
    })

    it("a serial without a passcode gets no token while the user has a passcode on another device", async () => {
      const user = await signIn()
      await user.withPasscode(serial(), "4321")
      const other = await user.post("/api/security/challenges/begin", { deviceSerial: serial(), language: "en", operation: { name: "send" } })
      expect(other.status).toBe(403)
      expect(other.body).toMatchObject({ code: "passcode_missing", passcodeSet: false })
      expect(other.body.operationToken).toBeUndefined()
    })

    it("operation tokens expire", async () => {
      const user = await signIn()
      const device = serial()
      await user.withPasscode(device, "8642")
      const begun = await user.post("/api/security/challenges/begin", { deviceSerial: device, passcode: "8642", language: "en", operation: { name: "send" } })
      tick(TOKEN_TTL)
      expect((await run(user, "send", device, begun.body.operationToken)).body.code).toBe("operation_token_expired")
    })

    it("an enforced operation needs an email-code challenge; completing it once gives a token", async () => {
      const user = await signIn()
      const device = serial()
      await user.withPasscode(device, "2580")
      const begun = await user.post("/api/security/challenges/begin", {
        deviceSerial: device,
        passcode: "2580",
        language: "en",
        operation: { name: "show_mnemonic" },
      })
      expect(begun.body).toMatchObject({ method: "email-code", maskedEmail: `us***${String(user.id).slice(-1)}@example.com` })
      const challengeId = begun.body.challengeId as string
      const stranger = await signIn()
      expect((await stranger.post("/api/security/challenges/request-email-code", { challengeId, language: "en" })).body.code).toBe("challenge_not_found")
      const requested = await user.post("/api/security/challenges/request-email-code", { challengeId, language: "en" })
      expect(requested.status).toBe(200)
      const code = await latestCode(user.email)
      // A recovery-email code is not a challenge code.
      tick(MIN_INTERVAL + 1)
      const recovery = await user.requestCode("get-recovery-key")
      expect((await user.post("/api/security/challenges/complete", { challengeId, emailCode: recovery })).body.code).toBe("code_not_found")
      const done = await user.post("/api/security/challenges/complete", { challengeId, emailCode: code })
      expect(done.status, JSON.stringify(done.body)).toBe(200)
      expect((await user.post("/api/security/challenges/complete", { challengeId, emailCode: code })).body.code).toBe("challenge_completed")
      expect((await run(user, "show_mnemonic", device, done.body.operationToken)).status).toBe(204)
      expect((await run(user, "show_mnemonic", device, done.body.operationToken)).body.code).toBe("operation_token_used")
    })

    it("challenge codes expire with their lifetime and the challenge with its own", async () => {
      const user = await signIn()
      const device = serial()
      await user.withPasscode(device, "1590")
      const begun = await user.post("/api/security/challenges/begin", {
        deviceSerial: device,
        passcode: "1590",
        language: "en",
        operation: { name: "show_mnemonic" },
      })
      await user.post("/api/security/challenges/request-email-code", { challengeId: begun.body.challengeId, language: "en" })
      const code = await latestCode(user.email)
      tick(CODE_TTL)
      expect((await user.post("/api/security/challenges/complete", { challengeId: begun.body.challengeId, emailCode: code })).body.code).toBe(
        "expired_email_code",
      )
      tick(3600)
      expect((await user.post("/api/security/challenges/complete", { challengeId: begun.body.challengeId, emailCode: code })).body.code).toBe(
        "challenge_expired",
      )
    })

    it("forces a passcode once the USD balance reaches the threshold", async () => {
      const rich = await signIn(RICH_USER)
      const device = serial()
      expect((await rich.info(device)).body.passcodeForced).toBe(true)
      const refused = await rich.post("/api/security/challenges/begin", { deviceSerial: device, language: "en", operation: { name: "send" } })
      expect(refused.body).toMatchObject({ code: "passcode_missing", passcodeSet: false })
      // Below the threshold an operation without a passcode gets its token at once.
      const poor = await signIn()
      expect((await poor.info(device)).body.passcodeForced).toBe(false)
      const granted = await poor.post("/api/security/challenges/begin", { deviceSerial: device, language: "en", operation: { name: "send" } })
      expect(typeof granted.body.operationToken).toBe("string")
    })

    it("a token raced by two requests is consumed once", async () => {
      const user = await signIn()
      const device = serial()
      await user.withPasscode(device, "7777")
      const begun = await user.post("/api/security/challenges/begin", { deviceSerial: device, passcode: "7777", language: "en", operation: { name: "send" } })
      const replies = await Promise.all([1, 2, 3].map(() => run(user, "send", device, begun.body.operationToken)))
      expect(replies.map((reply) => reply.status).sort()).toEqual([204, 403, 403])
    })
  })

  describe("device keys (key vault)", () => {
    const ADDRESS = "0:" + "ab".repeat(32)

    it("generates a key wrapped to the transport key and releases the same key only for the right passcode, on verify's counter", async () => {
      const user = await signIn()
      const device = serial()
      await user.withPasscode(device, "2468")
      const transport = await generateTransportKeyPair()
      const generated = await user.post(
        "/api/device-keys/generate",
        { address: ADDRESS, transportPublicKey: transport.publicKey, passcode: "2468" },
        { [DEVICE_SERIAL_HEADER]: device },
      )
      expect(generated.status, JSON.stringify(generated.body)).toBe(200)
      const key = toHex(await rsaUnwrap(transport.privateKey, generated.body.deviceEncryptionKey))
      expect(key).toMatch(/^[0-9a-f]{64}$/)

      // A fresh transport key per request: the wrapped bytes differ, the key does not.
      const second = await generateTransportKeyPair()
      const get = (body: Record<string, unknown>) =>
        user.post(
          "/api/device-keys/get",
          { externalId: generated.body.externalId, address: ADDRESS, transportPublicKey: second.publicKey, ...body },
          { [DEVICE_SERIAL_HEADER]: device },
        )
      const wrong = await get({ passcode: "1111" })
      expect(wrong.status).toBe(403)
      expect(wrong.body).toMatchObject({ code: "passcode_wrong", remainingAttempts: MAX_ATTEMPTS - 1 })
      expect((await user.info(device)).body.remainingAttempts).toBe(MAX_ATTEMPTS - 1)
      const right = await get({ passcode: "2468" })
      expect(right.status).toBe(200)
      expect(toHex(await rsaUnwrap(second.privateKey, right.body.deviceEncryptionKey))).toBe(key)
      expect((await user.info(device)).body.remainingAttempts).toBe(MAX_ATTEMPTS)

      // Another address, another user's externalId, no proof, no serial.
      expect((await get({ passcode: "2468", address: "0:" + "cd".repeat(32) })).status).toBe(404)
      const other = await signIn()
      const stolen = await other.post("/api/device-keys/get", {
        externalId: generated.body.externalId,
        address: ADDRESS,
        transportPublicKey: second.publicKey,
        passcode: "2468",
        deviceSerial: device,
      })
      expect(stolen.status).toBe(404)
      expect((await get({})).body).toMatchObject({ code: "passcode_missing" })
      expect(
        (
          await user.post("/api/device-keys/get", {
            externalId: generated.body.externalId,
            address: ADDRESS,
            transportPublicKey: second.publicKey,
            passcode: "2468",
          })
        ).body,
      ).toMatchObject({
        code: "device_serial_missing",
      })
    }, 30_000)

    it("device-key generate needs a passcode proven for this user on the request's device (or its biometry token)", async () => {
      const user = await signIn()
      const device = serial()
      await user.withPasscode(device, "2468")
      const transport = await generateTransportKeyPair()
      const generate = (body: Record<string, unknown>) =>
        user.post("/api/device-keys/generate", { address: ADDRESS, transportPublicKey: transport.publicKey, ...body })
      expect((await generate({ deviceSerial: device })).body).toMatchObject({ _tag: "PasscodeError", code: "passcode_missing", passcodeSet: true })
      expect((await generate({ passcode: "2468" })).body).toMatchObject({ code: "device_serial_missing" })
      // A serial without a passcode of this user.
      expect((await generate({ passcode: "2468", deviceSerial: serial() })).body).toMatchObject({ code: "passcode_missing", passcodeSet: false })
      const wrong = await generate({ passcode: "1111", deviceSerial: device })
      expect(wrong.status).toBe(403)
      expect(wrong.body).toMatchObject({ code: "passcode_wrong", remainingAttempts: MAX_ATTEMPTS - 1 })
      expect(await server.sql("select external_id from passcode_device_keys where user_id = $1", [user.id])).toHaveLength(0)
      expect((await generate({ passcode: "2468", deviceSerial: device })).status).toBe(200)
      const biometry = await user.post("/api/passcode/biometry/setup", { deviceSerial: device, passcode: "2468" })
      expect((await generate({ biometryToken: biometry.body.biometryToken, deviceSerial: device })).status).toBe(200)
      expect((await generate({ biometryToken: "x".repeat(43), deviceSerial: device })).body.code).toBe("biometry_token_invalid")
      expect(await server.sql("select external_id from passcode_device_keys where user_id = $1", [user.id])).toHaveLength(2)
    }, 30_000)

    it("a locked passcode releases nothing; logout deletes the keys", async () => {
      const user = await signIn()
      const device = serial()
      await user.withPasscode(device, "2468")
      const transport = await generateTransportKeyPair()
      const generated = await user.post("/api/device-keys/generate", {
        address: ADDRESS,
        transportPublicKey: transport.publicKey,
        passcode: "2468",
        deviceSerial: device,
      })
      const get = (passcode: string) =>
        user.post("/api/device-keys/get", {
          externalId: generated.body.externalId,
          address: ADDRESS,
          transportPublicKey: transport.publicKey,
          passcode,
          deviceSerial: device,
        })
      for (let i = 1; i < MAX_ATTEMPTS; i++) expect((await get("0000")).body.code).toBe("passcode_wrong")
      expect((await get("0000")).body.code).toBe("passcode_exceeded_max_attempts")
      expect((await get("2468")).body.code).toBe("passcode_exceeded_max_attempts")
      expect((await user.post("/api/passcode/verify", { passcode: "2468", deviceSerial: device })).body.code).toBe("passcode_exceeded_max_attempts")
      const another = await user.post("/api/device-keys/generate", {
        address: ADDRESS,
        transportPublicKey: transport.publicKey,
        passcode: "2468",
        deviceSerial: device,
      })
      expect(another.body.code).toBe("passcode_exceeded_max_attempts")
      expect((await user.post("/api/device-keys/delete", {})).status).toBe(204)
      expect((await get("2468")).status).toBe(404)
    }, 30_000)

    it("a non-RSA transport key is a 400 (invalid_transport_key) on generate and get, and burns no attempt", async () => {
      const user = await signIn()
      const device = serial()
      await user.withPasscode(device, "2468")
      const { externalId } = await user.generateKey(device, "2468", ADDRESS)
      const spki = (key: KeyObject) => key.export({ type: "spki", format: "der" }).toString("base64url")
      const notRsa = [
        // Right length for the contract's pattern, not a key at all.
        "A".repeat(300),
        // A real SPKI key of the right length that is not RSA (EC P-521), and an RSA key below 2048 bits.
        spki(generateKeyPairSync("ec", { namedCurve: "secp521r1" }).publicKey),
        spki(generateKeyPairSync("rsa", { modulusLength: 1024 }).publicKey),
      ]
      for (const transportPublicKey of notRsa) {
        expect(transportPublicKey.length).toBeGreaterThanOrEqual(200)
        for (const [path, body] of [
          ["/api/device-keys/generate", { address: ADDRESS, transportPublicKey, passcode: "1111", deviceSerial: device }],
          ["/api/device-keys/get", { externalId, address: ADDRESS, transportPublicKey, passcode: "1111", deviceSerial: device }],
        ] as const) {
          const reply = await user.post(path, body)
          expect(reply.status, `${path} ${JSON.stringify(reply.body)}`).toBe(400)
          expect(reply.body).toMatchObject({ _tag: "InvalidTransportKey", code: "invalid_transport_key" })
        }
      }
      // The wrong passcode in those requests was never compared.
      expect((await user.info(device)).body.remainingAttempts).toBe(MAX_ATTEMPTS)
    }, 30_000)

    it("a database dump alone holds no device key (the stored value is not the key)", async () => {
      const user = await signIn()
      const device = serial()
      await user.withPasscode(device, "2468")
      const { externalId, keyHex } = await user.generateKey(device, "2468", ADDRESS)
      const [row] = await server.sql("select * from passcode_device_keys where external_id = $1", [externalId])
      const dumpOf = (value: unknown) => JSON.stringify(value, (_key, v: unknown) => (typeof v === "bigint" ? String(v) : v))
      const dump = dumpOf(row)
      const key = Buffer.from(keyHex, "hex")
      for (const form of [keyHex, key.toString("base64"), key.toString("base64url"), key.toString("base64").replace(/=+$/, "")])
        expect(dump).not.toContain(form)
      // AES-256-GCM under a server key that is not in the database: `dk1.<key id>.<iv>.<ciphertext+tag>`.
      expect(String(row!.device_key)).toMatch(/^dk1\.[0-9a-f]{16}\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]{64}$/)
      const everything = dumpOf(await server.sql("select * from passcode_device_keys"))
      expect(everything).not.toContain(keyHex)
      expect(everything).not.toContain(key.toString("base64url"))
      // A sealed value copied into another row (say, the attacker's own) does not open there.
      const mine = await signIn()
      const mineDevice = serial()
      await mine.withPasscode(mineDevice, "1357")
      const own = await mine.generateKey(mineDevice, "1357", ADDRESS)
      await server.sql("update passcode_device_keys set device_key = $1 where external_id = $2", [row!.device_key, own.externalId])
      const transport = await generateTransportKeyPair()
      const copied = await mine.post("/api/device-keys/get", {
        externalId: own.externalId,
        address: ADDRESS,
        transportPublicKey: transport.publicKey,
        passcode: "1357",
        deviceSerial: mineDevice,
      })
      expect(copied.status).toBeGreaterThanOrEqual(500)
      expect(copied.body?.deviceEncryptionKey).toBeUndefined()
    }, 30_000)

    it("a plaintext device key from before the encryption at rest still opens and is sealed on the first read", async () => {
      const user = await signIn()
      const device = serial()
      await user.withPasscode(device, "2468")
      const legacy = randomBytes(32)
      const externalId = randomUUID()
      await server.sql("insert into passcode_device_keys (external_id, user_id, address, device_key, created_at) values ($1, $2, $3, $4, now())", [
        externalId,
        user.id,
        ADDRESS,
        legacy.toString("base64"),
      ])
      const transport = await generateTransportKeyPair()
      const got = await user.post("/api/device-keys/get", {
        externalId,
        address: ADDRESS,
        transportPublicKey: transport.publicKey,
        passcode: "2468",
        deviceSerial: device,
      })
      expect(got.status, JSON.stringify(got.body)).toBe(200)
      expect(toHex(await rsaUnwrap(transport.privateKey, got.body.deviceEncryptionKey))).toBe(legacy.toString("hex"))
      const [row] = await server.sql("select device_key from passcode_device_keys where external_id = $1", [externalId])
      expect(String(row!.device_key)).toMatch(/^dk1\./)
      expect(String(row!.device_key)).not.toContain(legacy.toString("base64"))
      const again = await user.post("/api/device-keys/get", {
        externalId,
        address: ADDRESS,
        transportPublicKey: transport.publicKey,
        passcode: "2468",
        deviceSerial: device,
      })
      expect(toHex(await rsaUnwrap(transport.privateKey, again.body.deviceEncryptionKey))).toBe(legacy.toString("hex"))
    }, 30_000)

    it("stores the recovery key and releases it once per get-recovery-key email code", async () => {
      const user = await signIn()
      await user.withPasscode(serial(), "2468")
      const recoveryKey = { key: "1f".repeat(32), iv: "2e".repeat(12), shard: "rs1.c2hhcmQtb25l" }
      expect((await user.post("/api/recovery-key/get", { product: "wallet", emailCode: "123456" })).body).toMatchObject({ code: "recovery_key_not_found" })
      expect((await user.post("/api/recovery-key/store", { product: "wallet", ...recoveryKey })).status).toBe(204)
      const wrongReason = await user.requestCode("change-passcode")
      expect((await user.post("/api/recovery-key/get", { product: "wallet", emailCode: wrongReason })).body).toMatchObject({ code: "wrong_code_reason" })
      const code = await user.requestCode("get-recovery-key")
      const got = await user.post("/api/recovery-key/get", { product: "wallet", emailCode: code })
      expect(got.status).toBe(200)
      expect(got.body).toEqual(recoveryKey)
      expect((await user.post("/api/recovery-key/get", { product: "wallet", emailCode: code })).body).toMatchObject({ code: "code_used" })
    }, 30_000)

    it("the HTTP DeviceKeyServer adapter maps the answers to the key vault's errors", async () => {
      const user = await signIn()
      const device = serial()
      await user.withPasscode(device, "2468")
      const transport = await generateTransportKeyPair()
      const program = Effect.gen(function* () {
        const client = yield* HttpApiClient.make(PasscodeApi, { baseUrl: server.url })
        const port = makeDeviceKeyServer(client, async () => device)
        const refused = yield* Effect.flip(port.generate({ address: ADDRESS, transportPublicKey: transport.publicKey, proof: { passcode: "1111" } }))
        const generated = yield* port.generate({ address: ADDRESS, transportPublicKey: transport.publicKey, proof: { passcode: "2468" } })
        const request = { externalId: generated.externalId, address: ADDRESS, transportPublicKey: transport.publicKey }
        const wrong = yield* Effect.flip(port.get({ ...request, proof: { passcode: "1111" } }))
        const right = yield* port.get({ ...request, proof: { passcode: "2468" } })
        const missing = yield* Effect.flip(port.get({ ...request, externalId: "nope", proof: { passcode: "2468" } }))
        return { refused, generated, wrong, right, missing }
      }).pipe(Effect.provide(FetchHttpClient.layer), Effect.provideService(FetchHttpClient.RequestInit, { headers: { authorization: `Bearer ${user.token}` } }))
      const { refused, generated, wrong, right, missing } = await Effect.runPromise(program)
      expect(refused).toMatchObject({ _tag: "PasscodeRejected", code: "passcode_wrong", remainingAttempts: MAX_ATTEMPTS - 1 })
      expect(wrong).toMatchObject({ _tag: "PasscodeRejected", code: "passcode_wrong", remainingAttempts: MAX_ATTEMPTS - 1 })
      expect(missing._tag).toBe("ExternalIdNotFound")
      const a = await rsaUnwrap(transport.privateKey, generated.deviceEncryptionKey)
      const b = await rsaUnwrap(transport.privateKey, right.deviceEncryptionKey)
      expect(toHex(b)).toBe(toHex(a))
      expect(fromBase64Url(right.deviceEncryptionKey).length).toBe(256)
    }, 30_000)
  })

  describe("issue 15 case 1: device keys only after a proven passcode", () => {
    const ADDRESS = "0:" + "ef".repeat(32)

    it("case 1: a new device serial with emailSource existing and no email code gets no passcode and no device key", async () => {
      const victim = await signIn()
      const device = serial()
      await victim.withPasscode(device, "864209")
      const { externalId } = await victim.generateKey(device, "864209", ADDRESS)
      // The attacker holds only the victim's access token.
      const attackerSerial = serial()
      const created = await victim.post("/api/passcode/create", {
        emailSource: "existing",
        newPasscode: "0000",
        newPasscodeType: "4-digit",
        deviceSerial: attackerSerial,
      })
      expect(created.status).toBe(409)
      expect(created.body).toMatchObject({ _tag: "RecoveryEmailError", code: "email_code_required" })
      // Nor with a made-up code, nor by claiming a new address.
      const guessed = await victim.post("/api/passcode/create", {
        emailSource: "existing",
        emailCode: "123456",
        newPasscode: "0000",
        newPasscodeType: "4-digit",
        deviceSerial: attackerSerial,
      })
      expect(guessed.status).toBe(400)
      expect(guessed.body._tag).toBe("EmailCodeError")
      const newAddress = await victim.post("/api/passcode/create", {
        emailSource: "new",
        email: "attacker@example.com",
        emailCode: "123456",
        newPasscode: "0000",
        newPasscodeType: "4-digit",
        deviceSerial: attackerSerial,
      })
      expect(newAddress.body.code).toBe("email_code_required")
      expect(await server.sql("select device_serial from passcode_passcodes where user_id = $1", [victim.id])).toEqual([{ device_serial: device }])
      expect((await victim.info(attackerSerial)).body.passcodeType).toBeNull()
      const transport = await generateTransportKeyPair()
      const stolen = await victim.post("/api/device-keys/get", {
        externalId,
        address: ADDRESS,
        transportPublicKey: transport.publicKey,
        passcode: "0000",
        deviceSerial: attackerSerial,
      })
      expect(stolen.status).toBe(403)
      expect(stolen.body).toMatchObject({ code: "passcode_missing", passcodeSet: false })
      expect(stolen.body.deviceEncryptionKey).toBeUndefined()
    }, 30_000)

    it("a recovery email added later for another product neither adds a device nor resets a passcode", async () => {
      const victim = await signIn()
      const device = serial()
      await victim.withPasscode(device, "864209")
      // With the session, a ton-space recovery email of the attacker's own address (confirmed: they read that mailbox).
      const attackerEmail = `attacker${victim.id}@example.com`
      const confirm = await victim.requestCode("confirm-email", { product: "ton-space", to: attackerEmail })
      expect((await victim.post("/api/recovery-email/create", { email: attackerEmail, emailCode: confirm, product: "ton-space" })).status).toBe(200)
      tick(MIN_INTERVAL + 1)
      const attackerSerial = serial()
      const body = { emailSource: "existing", newPasscode: "0000", newPasscodeType: "4-digit", deviceSerial: attackerSerial, product: "ton-space" }
      const refused = await victim.post("/api/passcode/create", body)
      // The user's first recovery email guards the passcode, whatever product the request names.
      expect(refused.body).toMatchObject({ code: "email_code_required", product: "wallet", maskedEmail: maskEmail(victim.email) })
      const attackerCode = await victim.requestCode("change-passcode", { product: "ton-space", to: attackerEmail })
      expect((await victim.post("/api/passcode/create", { ...body, emailCode: attackerCode })).body.code).toBe("code_not_found")
      const reset = await victim.post("/api/passcode/update", {
        emailCode: attackerCode,
        newPasscode: "0000",
        newPasscodeType: "4-digit",
        deviceSerial: device,
        product: "ton-space",
      })
      expect(reset.body.code).toBe("code_not_found")
      expect((await victim.post("/api/passcode/verify", { deviceSerial: device, passcode: "864209" })).status).toBe(200)
    }, 30_000)

    it("attempts are counted per user: a new serial does not escape a lockout", async () => {
      const user = await signIn()
      const [a, b] = [serial(), serial()]
      await user.withPasscode(a, "2468")
      await user.addDevice(b, "1357")
      const { externalId } = await user.generateKey(a, "2468", ADDRESS)
      const verify = (deviceSerial: string, passcode: string) => user.post("/api/passcode/verify", { deviceSerial, passcode })
      // Wrong guesses on either device count on one counter; a correct one on any device resets it.
      expect((await verify(a, "0000")).body).toMatchObject({ code: "passcode_wrong", remainingAttempts: MAX_ATTEMPTS - 1 })
      expect((await verify(b, "0000")).body).toMatchObject({ code: "passcode_wrong", remainingAttempts: MAX_ATTEMPTS - 2 })
      expect((await user.info(a)).body.remainingAttempts).toBe(MAX_ATTEMPTS - 2)
      expect((await user.info(serial())).body.remainingAttempts).toBe(MAX_ATTEMPTS - 2)
      expect((await verify(b, "1357")).status).toBe(200)
      expect((await user.info(a)).body.remainingAttempts).toBe(MAX_ATTEMPTS)
      // Spread over both devices the guesses still lock, and the lock holds on every device.
      for (let i = 0; i < MAX_ATTEMPTS; i++) await verify(i % 2 === 0 ? a : b, "0000")
      for (const [device, passcode] of [
        [a, "2468"],
        [b, "1357"],
      ] as const) {
        expect((await verify(device, passcode)).body.code).toBe("passcode_exceeded_max_attempts")
        expect((await user.info(device)).body.remainingAttempts).toBe(0)
      }
      const transport = await generateTransportKeyPair()
      const get = (deviceSerial: string, passcode: string) =>
        user.post("/api/device-keys/get", { externalId, address: ADDRESS, transportPublicKey: transport.publicKey, passcode, deviceSerial })
      expect((await get(b, "1357")).body.code).toBe("passcode_exceeded_max_attempts")
      expect((await get(a, "2468")).body.code).toBe("passcode_exceeded_max_attempts")
      // A new serial gets no passcode without the email code, so nothing to guess with there either.
      const c = serial()
      expect(
        (await user.post("/api/passcode/create", { emailSource: "existing", newPasscode: "0000", newPasscodeType: "4-digit", deviceSerial: c })).body.code,
      ).toBe("email_code_required")
      expect((await get(c, "0000")).body.code).toBe("passcode_missing")
      // The email-code reset (on any device) clears the user's counter.
      const code = await user.requestCode("change-passcode")
      expect((await user.post("/api/passcode/update", { emailCode: code, newPasscode: "9753", newPasscodeType: "4-digit", deviceSerial: a })).status).toBe(200)
      expect((await user.info(b)).body.remainingAttempts).toBe(MAX_ATTEMPTS)
      expect((await get(b, "1357")).status).toBe(200)
      expect((await get(a, "9753")).status).toBe(200)
    }, 60_000)

    it("parallel guesses over several devices never get more tries than the limit", async () => {
      const user = await signIn()
      const devices = [serial(), serial(), serial()]
      await user.withPasscode(devices[0]!, "246813")
      await user.addDevice(devices[1]!, "246813")
      await user.addDevice(devices[2]!, "246813")
      const guesses = await Promise.all(
        Array.from({ length: 12 }, (_, i) => user.post("/api/passcode/verify", { deviceSerial: devices[i % 3], passcode: String(100000 + i) })),
      )
      const codes = guesses.map((reply) => reply.body.code)
      expect(codes.filter((code) => code === "passcode_wrong")).toHaveLength(MAX_ATTEMPTS - 1)
      expect(codes.filter((code) => code === "passcode_exceeded_max_attempts")).toHaveLength(12 - (MAX_ATTEMPTS - 1))
    }, 60_000)

    it("a serial created before the email rule reads as locked until an email-code reset on that device", async () => {
      const user = await signIn()
      const [a, b] = [serial(), serial()]
      await user.withPasscode(a, "2468")
      await user.addDevice(b, "1357")
      const { externalId } = await user.generateKey(a, "2468", ADDRESS)
      // What migration 3 does to a further serial of the old rules.
      await server.sql("update passcode_passcodes set trusted = false where user_id = $1 and device_serial = $2", [user.id, b])
      expect((await user.info(b)).body.remainingAttempts).toBe(0)
      expect((await user.post("/api/passcode/verify", { deviceSerial: b, passcode: "1357" })).body.code).toBe("passcode_exceeded_max_attempts")
      const transport = await generateTransportKeyPair()
      const get = (deviceSerial: string, passcode: string) =>
        user.post("/api/device-keys/get", { externalId, address: ADDRESS, transportPublicKey: transport.publicKey, passcode, deviceSerial })
      expect((await get(b, "1357")).body.code).toBe("passcode_exceeded_max_attempts")
      // No attempt was spent on it; the first device is unaffected.
      expect((await user.info(a)).body.remainingAttempts).toBe(MAX_ATTEMPTS)
      expect((await get(a, "2468")).status).toBe(200)
      const code = await user.requestCode("change-passcode")
      expect((await user.post("/api/passcode/update", { emailCode: code, newPasscode: "1357", newPasscodeType: "4-digit", deviceSerial: b })).status).toBe(200)
      expect((await get(b, "1357")).status).toBe(200)
    }, 30_000)
  })

  describe("contract", () => {
    it("an email code raced by two resets is used once", async () => {
      const user = await signIn()
      const device = serial()
      await user.withPasscode(device, "2222")
      const code = await user.requestCode("change-passcode")
      const replies = await Promise.all(
        ["3333", "4444"].map((newPasscode) =>
          user.post("/api/passcode/update", { emailCode: code, newPasscode, newPasscodeType: "4-digit", deviceSerial: device }),
        ),
      )
      expect(replies.map((reply) => reply.status).sort()).toEqual([200, 400])
      expect(replies.find((reply) => reply.status === 400)!.body.code).toBe("code_used")
    })

    it("serves a client derived from the contract, typed errors included, and documents it in OpenAPI", async () => {
      const user = await signIn()
      const device = serial()
      await user.withPasscode(device, "909090")
      const program = Effect.gen(function* () {
        const client = yield* HttpApiClient.make(PasscodeApi, { baseUrl: server.url })
        const info = yield* client.passcode.info({ headers: { [DEVICE_SERIAL_HEADER]: device } })
        const wrong = yield* Effect.flip(client.passcode.verify({ payload: { deviceSerial: device, passcode: "111111" } }))
        const right = yield* client.passcode.verify({ payload: { deviceSerial: device, passcode: "909090" } })
        const email = yield* client.recoveryEmail.get({ query: { product: "wallet" } })
        const began = yield* client.security.beginChallenge({
          payload: { deviceSerial: device, passcode: "909090", language: "en", operation: { name: "send" } },
        })
        return { info, wrong, right, email, began }
      }).pipe(Effect.provide(FetchHttpClient.layer), Effect.provideService(FetchHttpClient.RequestInit, { headers: { authorization: `Bearer ${user.token}` } }))
      const { info, wrong, right, email, began } = await Effect.runPromise(program)
      expect(info.passcodeType).toBe("6-digit")
      expect(wrong).toMatchObject({ _tag: "PasscodeError", code: "passcode_wrong", remainingAttempts: MAX_ATTEMPTS - 1 })
      expect(right.verified).toBe(true)
      expect(email.maskedEmail).toBe(`us***${String(user.id).slice(-1)}@example.com`)
      expect("operationToken" in began).toBe(true)
      const openapi = (await (await fetch(`${server.url}/api/openapi.json`)).json()) as { paths: Record<string, unknown> }
      expect(Object.keys(openapi.paths)).toEqual(
        expect.arrayContaining(["/api/passcode/info", "/api/recovery-email/request-code", "/api/security/challenges/complete", "/api/dev/outbox"]),
      )
    })
  })
})
