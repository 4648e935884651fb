/**
 * The analytics gateway never stores a secret (docs/decisions/0350). Every string that reaches the
 * tables (event names, property keys, property values at any depth, meter names, the event's id
 * fields) goes through `scrubText`; every property whose key names a secret is replaced whole.
 *
 * What counts as a secret (over-redacting is fine here, storing one is not):
 * - a mnemonic: 12 or more words of 3-8 lower-case letters in a row (BIP39 / TON words);
 * - a JWT-like token: `eyJ...` `.` `...` (`.` `...`);
 * - a long hex run (32+ hex digits: private keys, seeds, hashes of them; raw addresses too);
 * - a long base64 / base64url run (40+ characters: 32-byte keys, our access and refresh tokens,
 *   friendly addresses too);
 * - a `Bearer` / `tma` credential;
 * - any value under a key like passcode, password, pin, secret, token, mnemonic, seed, words,
 *   private(_)key, init_data, authorization, cookie, otp, code.
 */

export const REDACTED = "[redacted]"

const SECRET_KEY =
  /pass(?:code|word|phrase)|secret|token|mnemonic|seed|words|private_?key|privkey|init_?data|authori[sz]ation|cookie|^pin$|_pin$|otp|^code$|_code$|email_code|recovery_key|signature/i

const PATTERNS: ReadonlyArray<RegExp> = [
  // mnemonic: 12+ short lower-case words separated by spaces, commas or line breaks
  /(?<![a-z])[a-z]{3,8}(?:[\s,;_.-]+[a-z]{3,8}){11,}(?![a-z])/g,
  // JWT-like
  /\beyJ[\w-]{5,}\.[\w-]{5,}(?:\.[\w-]*)?/g,
  // credentials in a header form
  /\b(?:bearer|tma)\s+\S+/gi,
  // long hex
  /(?:0x)?[0-9a-fA-F]{32,}/g,
]

/** A base64 / base64url run of 40+ characters mixing upper case, lower case and digits (a path or a word is not one). */
const BASE64_RUN = /[A-Za-z0-9+/_-]{40,}={0,2}/g
const looksRandom = (run: string) => /[A-Z]/.test(run) && /[a-z]/.test(run) && /[0-9_+-]/.test(run)

/** The text with every secret-looking part replaced by `[redacted]`. */
export const scrubText = (text: string): string => {
  let out = text
  for (const pattern of PATTERNS) out = out.replace(pattern, REDACTED)
  return out.replace(BASE64_RUN, (run) => (looksRandom(run) ? REDACTED : run))
}

export const isSecretKey = (key: string): boolean => SECRET_KEY.test(key)

/** A JSON value with secrets removed (keys scrubbed too; a secret-named key keeps only `[redacted]`). */
export const scrubValue = (value: unknown): unknown => {
  if (typeof value === "string") return scrubText(value)
  if (Array.isArray(value)) return value.map(scrubValue)
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {}
    for (const [key, inner] of Object.entries(value)) {
      const safeKey = scrubText(key)
      out[safeKey] = isSecretKey(key) ? REDACTED : scrubValue(inner)
    }
    return out
  }
  return value
}
