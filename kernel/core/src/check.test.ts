import { readFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { Effect, Schema } from "effect"
import { describe, expect, it } from "vitest"
import { AuthInitResponse, AuthSession, FeatureFlags } from "./api/auth-schema.ts"
import { AuthInitCheck, AuthSessionCheck, FeatureFlagsCheck } from "./auth-check.ts"
import * as Check from "./check.ts"

describe("Check", () => {
  const Config = Check.struct({ name: Check.string, count: Check.optional(Check.int), tags: Check.optional(Check.array(Check.string)) }, { exact: true })

  it("checks structs: required, optional, exact keys, with a path and without the value", () => {
    expect(Check.decodeSync(Config, { name: "a", tags: ["x"] })).toEqual({ name: "a", tags: ["x"] })
    expect(Config.run({ name: "a", colour: "secret-red" })).toEqual({ ok: false, issue: { message: "unexpected key", path: ["colour"] } })
    expect(Config.run({ count: 1 })).toEqual({ ok: false, issue: { message: "missing key", path: ["name"] } })
    const failure = Config.run({ name: "a", tags: ["x", 42] })
    expect(failure).toEqual({ ok: false, issue: { message: "expected a string", path: ["tags", 1] } })
    expect(() => Check.decodeSync(Config, { name: "secret-value", count: 1.5 })).toThrow(/^expected an integer at count$/)
  })

  it("leaves unknown keys out of a lenient struct and keeps null only where allowed", () => {
    const Answer = Check.struct({ id: Check.int, country: Check.nullOr(Check.string) })
    expect(Check.decodeSync(Answer, { id: 1, country: null, extra: true })).toEqual({ id: 1, country: null })
    expect(Answer.run({ id: 1, country: 3 }).ok).toBe(false)
  })

  it("drops an invalid lenient field and falls back on an enumerated one", () => {
    const Search = Check.struct({ q: Check.dropInvalid(Check.string), tab: Check.withFallback(Check.literals(["a", "b"]), "a") })
    expect(Check.decodeSync(Search, { q: 1, tab: "z" })).toEqual({ tab: "a" })
    expect(Check.decodeSync(Search, {})).toEqual({ tab: "a" })
    expect(Check.decodeSync(Search, { q: "x", tab: "b" })).toEqual({ q: "x", tab: "b" })
  })

  it("is a synchronous Standard Schema V1", () => {
    expect(Config["~standard"].vendor).toBe("wallet")
    expect(Config["~standard"].validate({ name: "n" })).toEqual({ value: { name: "n" } })
    expect(Config["~standard"].validate({})).toEqual({ issues: [{ message: "missing key", path: ["name"] }] })
  })
})

describe("boot checks agree with the auth contract", () => {
  const session = { session_id: "s", access_token: "a", access_token_expires_at: "2026-01-01T00:00:00.000Z", refresh_token: "r" }
  const init = {
    ...session,
    webview_settings: { compact: true },
    user_id: 7,
    is_new_user: false,
    local_currency: "USD",
    country_alpha2_ip: null,
    country_alpha2_phone: "GB",
    bot_username: "wallet",
    bot_is_blocked: false,
    ab_tests: { x: "a" },
    restriction_code: null,
    subdivision_status: null,
    permissions: Object.fromEntries(
      [
        "canBuy",
        "canExchange",
        "canRaffle",
        "canReceive",
        "canUseP2p",
        "canUseWpayAsPayer",
        "canWithdrawInner",
        "canWithdrawOuter",
        "accessToSavingSettings",
        "accessToSetUserCurrency",
      ].map((k) => [k, true]),
    ),
    is_custody_available: true,
    created_at: "2026-01-01T00:00:00.000Z",
  }
  const schemaOk = (schema: Schema.Top, u: unknown) =>
    Effect.runSync(Effect.result(Schema.decodeUnknownEffect(schema as Schema.Codec<unknown>)(u)))._tag === "Success"
  const cases: ReadonlyArray<readonly [string, Schema.Top, Check.Check<unknown>, unknown]> = [
    ["init", AuthInitResponse, AuthInitCheck, init],
    ["init without permissions", AuthInitResponse, AuthInitCheck, { ...init, permissions: {} }],
    ["init with an unknown restriction", AuthInitResponse, AuthInitCheck, { ...init, restriction_code: "moon" }],
    ["init with a fractional user id", AuthInitResponse, AuthInitCheck, { ...init, user_id: 1.5 }],
    ["session", AuthSession, AuthSessionCheck, session],
    ["session with settings", AuthSession, AuthSessionCheck, { ...session, webview_settings: { a: 1, b: "x" } }],
    ["session without a token", AuthSession, AuthSessionCheck, { ...session, access_token: undefined }],
    ["flags", FeatureFlags, FeatureFlagsCheck, { a: true, b: false }],
    ["flags with a string", FeatureFlags, FeatureFlagsCheck, { a: "yes" }],
  ]
  it.each(cases)("%s", (_name, schema, check, input) => {
    expect(check.run(input).ok).toBe(schemaOk(schema, input))
  })
})

/**
 * Issue 13, first screen: effect's Schema (~21 kB gzip) is not on the boot path. Every module the
 * `@wallet/kernel` entry reaches imports no Schema value (the size suite checks the built app too).
 */
describe("issue 13: Effect Schema off the first screen", () => {
  it("no module reachable from the kernel entry imports effect's Schema", () => {
    const seen = new Set<string>()
    const offenders: Array<string> = []
    const visit = (file: string) => {
      if (seen.has(file)) return
      seen.add(file)
      const source = readFileSync(file, "utf8")
      for (const match of source.matchAll(/^(import|export)\s+(type\s+)?([^;]*?)\s+from\s+"([^"]+)"/gms)) {
        const [, , typeOnly, names, from] = match
        if (typeOnly) continue
        if (from === "effect/Schema" || (from === "effect" && /\bSchema(Transformation|AST|Parser)?\b/.test(names!.replace(/type\s+\w+/g, ""))))
          offenders.push(file)
        if (from!.startsWith(".")) visit(join(dirname(file), from!))
      }
    }
    visit(join(import.meta.dirname, "index.ts"))
    expect(seen.size).toBeGreaterThan(10)
    expect(offenders.map((f) => f.replace(import.meta.dirname + "/", ""))).toEqual([])
  })
})
