/**
 * The phone step's facts: Telegram's signed `requestContact` answer (signed like initData,
 * PROTOCOLS.md: secret = HMAC_SHA256(key "WebAppData", bot_token), hash = hex HMAC_SHA256(secret,
 * the other fields sorted, `k=v` joined by newlines; the kernel server's `signContact` signs the same
 * way for the dev Telegram client), and the country a phone number settles.
 */
import { createHmac, timingSafeEqual } from "node:crypto"

export interface VerifiedContact {
  readonly userId: number
  readonly phone: string
}

export type ContactFailure = { readonly code: "contact_invalid" | "contact_expired" | "contact_not_yours" | "phone_invalid"; readonly message: string }

/** How old a shared contact may be when it reaches the server. */
export const CONTACT_MAX_AGE_SECONDS = 600

const checkString = (params: URLSearchParams) =>
  [...params.entries()]
    .filter(([key]) => key !== "hash")
    .map(([key, value]) => `${key}=${value}`)
    .sort()
    .join("\n")

const secretOf = (botToken: string) => createHmac("sha256", "WebAppData").update(botToken).digest()

/** E.164: a plus, then 8 to 15 digits (Telegram sends the digits without the plus). */
export const normalisePhone = (raw: string): string | null => {
  const digits = raw.replace(/[\s()-]/g, "").replace(/^\+/, "")
  return /^[1-9]\d{7,14}$/.test(digits) ? `+${digits}` : null
}

export const verifyContact = (
  raw: string,
  options: { readonly botToken: string; readonly sessionUserId: number; readonly nowMs: number },
): { readonly ok: true; readonly contact: VerifiedContact } | { readonly ok: false; readonly failure: ContactFailure } => {
  const fail = (code: ContactFailure["code"], message: string) => ({ ok: false as const, failure: { code, message } })
  const params = new URLSearchParams(raw)
  const hash = params.get("hash") ?? ""
  const expected = createHmac("sha256", secretOf(options.botToken)).update(checkString(params)).digest()
  const given = /^[0-9a-f]{64}$/.test(hash) ? Buffer.from(hash, "hex") : Buffer.alloc(0)
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return fail("contact_invalid", "the shared contact's signature does not match")
  const authDate = Number(params.get("auth_date"))
  if (!Number.isFinite(authDate) || authDate * 1000 > options.nowMs + 60_000) return fail("contact_invalid", "the shared contact's auth_date is invalid")
  if (authDate + CONTACT_MAX_AGE_SECONDS < options.nowMs / 1000)
    return fail("contact_expired", `the shared contact is older than ${CONTACT_MAX_AGE_SECONDS} s; share it again`)
  let contact: { user_id?: unknown; phone_number?: unknown }
  try {
    contact = JSON.parse(params.get("contact") ?? "") as typeof contact
  } catch {
    return fail("contact_invalid", "the shared contact is malformed")
  }
  if (contact.user_id !== options.sessionUserId) return fail("contact_not_yours", "the shared contact is not the signed-in user's")
  const phone = typeof contact.phone_number === "string" ? normalisePhone(contact.phone_number) : null
  if (phone === null) return fail("phone_invalid", "the shared phone number is not a valid international number")
  return { ok: true, contact: { userId: options.sessionUserId, phone } }
}

/**
 * Calling codes that name one country (longest prefix first). Codes shared by several countries
 * (+1, +7) or not listed settle nothing: the country step is asked (spec 3 §4.2).
 */
const CALLING_CODES: ReadonlyArray<readonly [string, string]> = [
  ["998", "UZ"],
  ["996", "KG"],
  ["995", "GE"],
  ["994", "AZ"],
  ["992", "TJ"],
  ["380", "UA"],
  ["375", "BY"],
  ["374", "AM"],
  ["371", "LV"],
  ["370", "LT"],
  ["372", "EE"],
  ["359", "BG"],
  ["358", "FI"],
  ["351", "PT"],
  ["353", "IE"],
  ["234", "NG"],
  ["971", "AE"],
  ["972", "IL"],
  ["966", "SA"],
  ["880", "BD"],
  ["855", "KH"],
  ["852", "HK"],
  ["84", "VN"],
  ["82", "KR"],
  ["81", "JP"],
  ["66", "TH"],
  ["65", "SG"],
  ["63", "PH"],
  ["62", "ID"],
  ["61", "AU"],
  ["60", "MY"],
  ["55", "BR"],
  ["54", "AR"],
  ["52", "MX"],
  ["49", "DE"],
  ["48", "PL"],
  ["47", "NO"],
  ["46", "SE"],
  ["45", "DK"],
  ["44", "GB"],
  ["43", "AT"],
  ["41", "CH"],
  ["40", "RO"],
  ["39", "IT"],
  ["36", "HU"],
  ["34", "ES"],
  ["33", "FR"],
  ["32", "BE"],
  ["31", "NL"],
  ["30", "GR"],
  ["90", "TR"],
  ["91", "IN"],
  ["92", "PK"],
  ["20", "EG"],
  ["27", "ZA"],
  ["86", "CN"],
]

export const countryOfPhone = (phone: string): string | null => {
  const digits = phone.replace(/^\+/, "")
  for (const [code, country] of CALLING_CODES) if (digits.startsWith(code)) return country
  return null
}

/** `+49 ••• ••• 78`: the calling code and the last two digits. */
export const maskPhone = (phone: string): string => {
  const digits = phone.replace(/^\+/, "")
  const code = CALLING_CODES.find(([prefix]) => digits.startsWith(prefix))?.[0] ?? digits.slice(0, 1)
  return `+${code} ••• ••• ${digits.slice(-2)}`
}

/** Countries the wallet does not serve (a self-declared one is refused with country_unsupported). */
export const UNSUPPORTED_COUNTRIES: ReadonlySet<string> = new Set(["KP", "IR", "SY", "CU"])
