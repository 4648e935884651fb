import { describe, expect, it } from "vitest"
import { isWeakPasscode, maskEmail } from "../api.ts"
import { defaultPasscodeConfig, readPasscodeConfig } from "./config.ts"

describe("maskEmail (spec 3 section 5)", () => {
  it.each([
    ["alexander@example.com", "al***r@example.com"],
    ["abcdef@mail.ru", "ab***f@mail.ru"],
    // five characters or fewer stay as they are
    ["abcde@mail.ru", "abcde@mail.ru"],
    ["bob@x.io", "bob@x.io"],
    // an already masked short one stays
    ["al***r@example.com", "al***r@example.com"],
    ["not-an-email", "not-an-email"],
  ])("%s -> %s", (email, masked) => {
    expect(maskEmail(email)).toBe(masked)
  })
})

describe("weak passcodes", () => {
  it("are exactly the spec's four", () => {
    expect(["0000", "1234", "000000", "123456"].every(isWeakPasscode)).toBe(true)
    expect(["1111", "4321", "654321", "12345"].some(isWeakPasscode)).toBe(false)
  })
})

describe("readPasscodeConfig", () => {
  it("takes valid region values and falls back to the defaults for the rest", () => {
    const config = readPasscodeConfig({
      maxPasscodeAttempts: 3,
      forcePasscodeUsdCents: "250000",
      emailCodeTtlSeconds: -5,
      emailChallengeOperations: ["send", 7],
    })
    expect(config.maxPasscodeAttempts).toBe(3)
    expect(config.forcePasscodeUsdCents).toBe(250_000n)
    expect(config.emailCodeTtlSeconds).toBe(defaultPasscodeConfig.emailCodeTtlSeconds)
    expect(config.emailChallengeOperations).toEqual(["send"])
    expect(readPasscodeConfig(undefined)).toEqual(defaultPasscodeConfig)
  })

  it("keeps the minimum code interval below the client's 59 s resend countdown", () => {
    expect(defaultPasscodeConfig.emailCodeMinIntervalSeconds).toBeLessThan(59)
  })
})
