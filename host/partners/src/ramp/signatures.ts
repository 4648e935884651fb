/**
 * The providers' signatures, computed with node:crypto:
 * - MoonPay widget URLs: base64 HMAC-SHA256 (secret key) over the URL's search string from "?" up to
 *   (without) "&signature=…", which is the last parameter, URL-encoded.
 * - MoonPay webhooks: `Moonpay-Signature-V2: t=<unix s>,s=<hex HMAC-SHA256 of "<t>.<raw body>">` (webhook key).
 * - Mercuryo widget URLs (v1): hex SHA-512 of address + secret.
 * - Mercuryo callbacks: `X-Signature: <hex HMAC-SHA256 of the raw body>` (sign key).
 * Comparisons are in constant time.
 */
import { createHash, createHmac, timingSafeEqual } from "node:crypto"

export const sameText = (a: string, b: string): boolean => {
  const x = Buffer.from(a, "utf8")
  const y = Buffer.from(b, "utf8")
  return x.length === y.length && timingSafeEqual(x, y)
}

export const moonpayUrlSignature = (search: string, secretKey: string): string => createHmac("sha256", secretKey).update(search, "utf8").digest("base64")

/**
 * The signed part of a MoonPay widget query (`?` included, the signature left out) and the signature
 * it carries, or undefined when the query has no signature as its last parameter.
 */
export const splitSignedSearch = (search: string): { signed: string; signature: string } | undefined => {
  const at = search.lastIndexOf("&signature=")
  if (!search.startsWith("?") || at < 0) return undefined
  const encoded = search.slice(at + "&signature=".length)
  if (encoded.includes("&")) return undefined
  try {
    return { signed: search.slice(0, at), signature: decodeURIComponent(encoded) }
  } catch {
    return undefined
  }
}

/** True when the search string (as requested, with "?") carries a valid signature for `secretKey`. */
export const verifyMoonpaySearch = (search: string, secretKey: string): boolean => {
  const parts = splitSignedSearch(search)
  return parts !== undefined && sameText(parts.signature, moonpayUrlSignature(parts.signed, secretKey))
}

export const moonpayWebhookSignature = (unixSeconds: number, rawBody: string, webhookKey: string): string =>
  `t=${unixSeconds},s=${createHmac("sha256", webhookKey).update(`${unixSeconds}.${rawBody}`, "utf8").digest("hex")}`

export const mercuryoWidgetSignature = (address: string, secret: string): string =>
  createHash("sha512")
    .update(address + secret, "utf8")
    .digest("hex")

export const mercuryoCallbackSignature = (rawBody: string, signKey: string): string => createHmac("sha256", signKey).update(rawBody, "utf8").digest("hex")
