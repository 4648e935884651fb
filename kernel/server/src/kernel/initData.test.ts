import { createHmac } from "node:crypto"
import { sign } from "@tma.js/init-data-node"
import { Result } from "effect"
import { describe, expect, it } from "vitest"
import { signContact, signInitData, verifyInitData } from "./initData.ts"

const token = "4444:init-data-test"
const now = Date.UTC(2026, 5, 1, 10, 0, 0)
const user = { id: 42, first_name: "Ann", language_code: "ru" }

describe("initData", () => {
  it("verifies what it signs and reads the launch fields", () => {
    const initData = signInitData({ user, authDate: new Date(now - 10_000), queryId: "AAq", chatType: "sender", startParam: "tonwallet_main" }, token)
    const result = verifyInitData(initData, { botToken: token, maxAgeSeconds: 60, nowMs: now })
    expect(Result.isSuccess(result)).toBe(true)
    const launch = Result.getOrThrow(result)
    expect(launch).toMatchObject({ user, queryId: "AAq", chatType: "sender", startParam: "tonwallet_main" })
    expect(launch.authDate.getTime()).toBe(now - 10_000)
    expect(launch.hash).toMatch(/^[0-9a-f]{64}$/)
  })

  it("accepts initData signed by @tma.js/init-data-node (the same HMAC scheme)", () => {
    const initData = sign({ user, query_id: "AAz" }, token, new Date(now))
    expect(Result.isSuccess(verifyInitData(initData, { botToken: token, maxAgeSeconds: 60, nowMs: now }))).toBe(true)
  })

  it("rejects another bot's signature, an edit, an expired and a future auth_date", () => {
    const fresh = signInitData({ user, authDate: new Date(now) }, token)
    const code = (initData: string, nowMs = now) => {
      const result = verifyInitData(initData, { botToken: token, maxAgeSeconds: 60, nowMs })
      return Result.isFailure(result) ? result.failure.code : "ok"
    }
    expect(code(signInitData({ user, authDate: new Date(now) }, "5555:other"))).toBe("init_data_invalid")
    expect(code(fresh.replace("Ann", "Bob"))).toBe("init_data_invalid")
    expect(code(fresh, now + 60_000)).toBe("ok")
    expect(code(fresh, now + 61_000)).toBe("init_data_expired")
    expect(code(fresh, now - 120_000)).toBe("init_data_invalid")
    expect(code("")).toBe("init_data_missing")
  })

  it("case 4: refuses a signed user (or receiver) whose id is not a positive safe integer, or whose text cannot be stored", () => {
    const failure = (initData: string) => {
      const result = verifyInitData(initData, { botToken: token, maxAgeSeconds: 60, nowMs: now })
      return Result.isFailure(result) ? result.failure : undefined
    }
    for (const id of [0, -1, -700000002, 1.5, 2 ** 53]) {
      expect(failure(signInitData({ user: { ...user, id }, authDate: new Date(now) }, token)), `user id ${id}`).toMatchObject({
        code: "init_data_invalid",
        message: expect.stringMatching(/^initData user (id must be a positive integer|is malformed)$/),
      })
    }
    expect(failure(signInitData({ user, receiver: { id: 0, first_name: "R" }, authDate: new Date(now) }, token))?.code).toBe("init_data_invalid")
    expect(failure(signInitData({ user: { ...user, first_name: "A\u0000n" }, authDate: new Date(now) }, token))?.code).toBe("init_data_invalid")
    expect(failure(signInitData({ user: { ...user, username: "\ud800" }, authDate: new Date(now) }, token))?.code).toBe("init_data_invalid")
    expect(failure(signInitData({ user: { ...user, id: Number.MAX_SAFE_INTEGER }, authDate: new Date(now) }, token))).toBeUndefined()
  })
})

describe("signContact", () => {
  const authDateSeconds = Math.floor(now / 1000)
  /** Telegram's check, recomputed here: HMAC_SHA256(HMAC_SHA256("WebAppData", token), the other fields sorted, `k=v` per line). */
  const expectedHash = (raw: string, botToken = token) => {
    const params = new URLSearchParams(raw)
    const dataCheckString = [...params.entries()]
      .filter(([key]) => key !== "hash")
      .map(([key, value]) => `${key}=${value}`)
      .sort()
      .join("\n")
    return createHmac("sha256", createHmac("sha256", "WebAppData").update(botToken).digest()).update(dataCheckString).digest("hex")
  }

  it("signs the contact as Telegram does: contact JSON, auth_date and the initData HMAC", () => {
    const raw = signContact({ user_id: 42, phone_number: "4915112345678", first_name: "Ann", last_name: "Lee" }, { botToken: token, authDateSeconds })
    const params = new URLSearchParams(raw)
    expect([...params.keys()]).toEqual(["contact", "auth_date", "hash"])
    expect(params.get("contact")).toBe('{"user_id":42,"phone_number":"4915112345678","first_name":"Ann","last_name":"Lee"}')
    expect(params.get("auth_date")).toBe(String(authDateSeconds))
    expect(params.get("hash")).toMatch(/^[0-9a-f]{64}$/)
    expect(params.get("hash")).toBe(expectedHash(raw))
    expect(params.get("hash")).not.toBe(expectedHash(raw, "5555:other"))
  })

  it("leaves out a missing last name and covers every field with the hash", () => {
    const raw = signContact({ user_id: 42, phone_number: "79123456789", first_name: "Ann" }, { botToken: token, authDateSeconds })
    expect(JSON.parse(new URLSearchParams(raw).get("contact")!)).toEqual({ user_id: 42, phone_number: "79123456789", first_name: "Ann" })
    const other = signContact({ user_id: 42, phone_number: "79123456788", first_name: "Ann" }, { botToken: token, authDateSeconds })
    expect(new URLSearchParams(other).get("hash")).not.toBe(new URLSearchParams(raw).get("hash"))
    const later = signContact({ user_id: 42, phone_number: "79123456789", first_name: "Ann" }, { botToken: token, authDateSeconds: authDateSeconds + 1 })
    expect(new URLSearchParams(later).get("hash")).toBe(expectedHash(later))
    expect(new URLSearchParams(later).get("hash")).not.toBe(new URLSearchParams(raw).get("hash"))
  })
})
