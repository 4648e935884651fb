import { describe, expect, it } from "vitest"
import {
  countdownLeft,
  emailProgress,
  isUnlocked,
  isValidEmail,
  isWeakPasscode,
  maskEmail,
  normaliseCode,
  pressKey,
  sanitiseEmailCode,
  shakesEmailCode,
  showRemainingAttempts,
  unlockUntil,
} from "./rules.ts"

describe("passcode input", () => {
  it("takes digits up to the length, deletes with Backspace and ignores input while in progress", () => {
    let value = ""
    for (const key of ["1", "a", "2", "Enter", "3", "4", "5"]) value = pressKey(value, key, 4, false)
    expect(value).toBe("1234")
    expect(pressKey(value, "Backspace", 4, false)).toBe("123")
    expect(pressKey("12", "3", 4, true)).toBe("12")
    expect(pressKey("12", "Backspace", 4, true)).toBe("12")
  })

  it("warns about the four weak passcodes only", () => {
    expect(["0000", "1234", "000000", "123456"].every(isWeakPasscode)).toBe(true)
    expect(["1111", "4321", "123457", "0001"].some(isWeakPasscode)).toBe(false)
  })

  it("shows remaining attempts below 4 only", () => {
    expect([undefined, 5, 4].map(showRemainingAttempts)).toEqual([false, false, false])
    expect([3, 1, 0].map(showRemainingAttempts)).toEqual([true, true, true])
  })

  it("accepts error codes with or without the passcode. prefix", () => {
    expect(normaliseCode("passcode.passcode_wrong")).toBe("passcode_wrong")
    expect(normaliseCode("passcode_exceeded_max_attempts")).toBe("passcode_exceeded_max_attempts")
    expect(shakesEmailCode("expired_email_code")).toBe(true)
    expect(shakesEmailCode("rate_limit_exceeded")).toBe(false)
  })
})

describe("recovery email", () => {
  it("accepts a standard address only and measures progress against 35 characters", () => {
    expect(isValidEmail("ann@example.com")).toBe(true)
    expect(["ann", "ann@", "ann@example", "a b@example.com", "ann@@example.com", `${"a".repeat(250)}@x.io`].some(isValidEmail)).toBe(false)
    expect(emailProgress("")).toBe(0)
    expect(emailProgress("a".repeat(7))).toBeCloseTo(0.2)
    expect(emailProgress("a".repeat(70))).toBe(1)
  })

  it("keeps six digits of a code and masks long local parts for display", () => {
    expect(sanitiseEmailCode(" 12-34 5678")).toBe("123456")
    expect(maskEmail("alexander@example.com")).toBe("al***r@example.com")
    expect(maskEmail("anna@example.com")).toBe("anna@example.com")
    expect(maskEmail("al***r@example.com")).toBe("al***r@example.com")
  })

  it("counts the resend countdown down to zero", () => {
    expect(countdownLeft(0, 59, 0)).toBe(59)
    expect(countdownLeft(1000, 59, 400)).toBe(59)
    expect(countdownLeft(0, 59, 58_100)).toBe(1)
    expect(countdownLeft(0, 59, 59_000)).toBe(0)
    expect(countdownLeft(0, 59, 120_000)).toBe(0)
  })
})

describe("unlock window", () => {
  it("stays unlocked until the stored time; zero or less clears it", () => {
    expect(unlockUntil(1000, 60)).toBe(61_000)
    expect(unlockUntil(1000, 0)).toBeNull()
    expect(unlockUntil(1000, -5)).toBeNull()
    expect(isUnlocked(61_000, 60_999)).toBe(true)
    expect(isUnlocked(61_000, 61_000)).toBe(false)
    expect(isUnlocked(null, 0)).toBe(false)
  })
})
