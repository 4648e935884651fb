/**
 * Field schemas every request contract uses for what a client types or sends as text or ids
 * (docs/decisions/0205). Browser-safe: imports only `effect`.
 *
 * - `UserText` / `userText({ minLength, maxLength })`: any text field of a request (payload, query,
 *   path params, headers). Refuses NUL (U+0000: PostgreSQL cannot store it in `text` or `jsonb`)
 *   and unpaired UTF-16 surrogates (they cannot be encoded as UTF-8, so the database driver fails).
 *   A refusal is the kernel's 400 `InvalidRequest` naming the field.
 * - `BigIntId` / `bigIntId()`: an id of a `bigint` column sent as a decimal string, 1..2^63-1.
 * - `TelegramUserId`: a Telegram user id, a positive integer below 2^53.
 */
import { Schema } from "effect"

/** Largest value of a PostgreSQL `bigint` (int8) column. */
export const MAX_BIGINT_ID = 9_223_372_036_854_775_807n

const NUL_MESSAGE = "must not contain a NUL character (U+0000)"
const SURROGATE_MESSAGE = "must not contain an unpaired UTF-16 surrogate (not valid Unicode text)"

/** Why `text` cannot be stored and sent back as it is, or undefined when it can. */
export const userTextProblem = (text: string): string | undefined => {
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i)
    if (unit === 0) return NUL_MESSAGE
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = i + 1 < text.length ? text.charCodeAt(i + 1) : 0
      if (next >= 0xdc00 && next <= 0xdfff) {
        i++
        continue
      }
      return SURROGATE_MESSAGE
    }
    if (unit >= 0xdc00 && unit <= 0xdfff) return SURROGATE_MESSAGE
  }
  return undefined
}

/** True when the text has no NUL and no unpaired surrogate. */
export const isStorableText = (text: string): boolean => userTextProblem(text) === undefined

/** The check behind `UserText`: no NUL, no unpaired surrogate. */
export const isUserText = () =>
  Schema.makeFilter<string>((text) => userTextProblem(text), {
    expected: "text without NUL characters or unpaired surrogates",
    // JSON strings in OpenAPI are Unicode code points, so only NUL is left to say.
    toJsonSchema: () => ({ pattern: "^[^\\u0000]*$" }),
  })

/** Any text a client sends (see the module header). */
export const UserText = Schema.String.check(isUserText())

/** `UserText` with length bounds (UTF-16 code units, as `String.length`). */
export const userText = (options: { readonly minLength?: number; readonly maxLength?: number } = {}) => {
  const { minLength, maxLength } = options
  if (minLength !== undefined && maxLength !== undefined) return UserText.check(Schema.isBetweenLength(minLength, maxLength))
  if (maxLength !== undefined) return UserText.check(Schema.isMaxLength(maxLength))
  if (minLength !== undefined) return UserText.check(Schema.isMinLength(minLength))
  return UserText
}

const ID_PATTERN = /^[1-9][0-9]{0,18}$/

/** The check behind `BigIntId`: a decimal string of 1..2^63-1 without leading zeros. */
export const isBigIntId = (options: { readonly message?: string } = {}) =>
  Schema.makeFilter<string>(
    (id) => (ID_PATTERN.test(id) && BigInt(id) <= MAX_BIGINT_ID ? undefined : (options.message ?? "an id from 1 to 9223372036854775807")),
    {
      expected: "a decimal id from 1 to 9223372036854775807",
      toJsonSchema: () => ({ pattern: ID_PATTERN.source }),
    },
  )

/** An id of a `bigint` column as a decimal string ("42"), 1..2^63-1. */
export const bigIntId = (options: { readonly message?: string } = {}) => Schema.String.check(isBigIntId(options))
export const BigIntId = bigIntId()

/** A Telegram user id: a positive integer below 2^53 (Telegram's ids need 52 bits). */
export const TelegramUserId = Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }))

/** True for a usable user id: a positive safe integer. */
export const isUserId = (id: unknown): id is number => typeof id === "number" && Number.isSafeInteger(id) && id > 0
