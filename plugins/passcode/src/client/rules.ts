/**
 * Pure rules of the passcode screens (spec 3 sections 4.3, 4.4, 5, 8, 9): input, unlock window,
 * e-mail address and code, error codes. No React, no I/O: unit-tested on their own.
 */
import { EMAIL_CODE_LENGTH, isWeakPasscode, maskEmail, passcodeLength, SHOW_REMAINING_ATTEMPTS_BELOW, type PasscodeType } from "../api.ts"

export { isWeakPasscode, maskEmail }

/** Spec 3 §9: the weak-passcode popup opens 500 ms after the last digit. */
export const WEAK_POPUP_DELAY_MS = 500
/** Spec 3 §7.3/§9: passcode status must arrive within 5 s, else "something went wrong". */
export const STATUS_TIMEOUT_MS = 5000
/** Spec 3 §5: the e-mail progress animation scales with typed length against 35. */
export const EMAIL_PROGRESS_LENGTH = 35
/** How long the shake animation runs before the input clears. */
export const SHAKE_MS = 400

/** Adds a key press to a passcode (digits only, capped at the length); input is ignored while busy. */
export const pressKey = (value: string, key: string, length: number, busy: boolean): string => {
  if (busy) return value
  if (key === "Backspace") return value.slice(0, -1)
  if (!/^\d$/.test(key) || value.length >= length) return value
  return value + key
}

export const isComplete = (value: string, type: PasscodeType): boolean => value.length === passcodeLength(type)

/** The remaining-attempts line shows only below 4 (and never for an unknown count). */
export const showRemainingAttempts = (remaining: number | undefined): remaining is number =>
  remaining !== undefined && remaining < SHOW_REMAINING_ATTEMPTS_BELOW

/** Spec 3 §8: codes may come prefixed `passcode.`; the rest of the catalogue is matched bare. */
export const normaliseCode = (code: string): string => code.replace(/^passcode\./, "")

/** The spec's "standard e-mail pattern" (the same as the server's `Email` schema). */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/
export const isValidEmail = (email: string): boolean => email.length <= 254 && EMAIL_PATTERN.test(email.trim())
/** 0..1 for the progress animation. */
export const emailProgress = (email: string): number => Math.min(1, email.length / EMAIL_PROGRESS_LENGTH)

export const sanitiseEmailCode = (input: string): string => input.replace(/\D/g, "").slice(0, EMAIL_CODE_LENGTH)
export const isEmailCodeComplete = (code: string): boolean => code.length === EMAIL_CODE_LENGTH

/** Email-code failures that shake and clear the input (spec 3 §8); others are technical. */
export const EMAIL_CODE_SHAKE_CODES = ["code_not_found", "code_not_newest", "code_used", "wrong_code_reason", "expired_email_code"] as const
export const shakesEmailCode = (code: string): boolean => (EMAIL_CODE_SHAKE_CODES as ReadonlyArray<string>).includes(normaliseCode(code))

/** Seconds left on the resend countdown, never below 0. */
export const countdownLeft = (startedAt: number, seconds: number, now: number): number =>
  Math.min(seconds, Math.max(0, Math.ceil(seconds - (now - startedAt) / 1000)))

/**
 * The device-remembered unlock (spec 3 §4.3): the wallet stays unlocked until a stored time. An
 * unlock duration of zero or less clears it.
 */
export const unlockUntil = (now: number, unlockDurationSeconds: number): number | null =>
  unlockDurationSeconds > 0 ? now + unlockDurationSeconds * 1000 : null
export const isUnlocked = (until: number | null, now: number): boolean => until !== null && until > now
