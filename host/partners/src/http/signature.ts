/**
 * Sumsub's request signing for the server API: `X-App-Token`, `X-App-Access-Ts` (unix seconds) and
 * `X-App-Access-Sig` = lowercase hex HMAC-SHA256(secretKey, ts + METHOD + pathWithQuery + body).
 * Tokens and signatures are compared in constant time; a timestamp more than 300 s off is refused.
 */
import { createHash, createHmac, timingSafeEqual } from "node:crypto"
import { header, SumsubError, type Request } from "./http.ts"

export const MAX_CLOCK_SKEW_S = 300

/** The signature a client sends (exported for tests and tools that call the sandbox). */
export const sumsubSignature = (secretKey: string, ts: string | number, method: string, pathWithQuery: string, body: Uint8Array | string = ""): string =>
  createHmac("sha256", secretKey)
    .update(`${ts}${method.toUpperCase()}${pathWithQuery}`, "utf8")
    .update(typeof body === "string" ? Buffer.from(body, "utf8") : body)
    .digest("hex")

/** Equal strings, in time independent of where they differ (both sides are hashed to one length). */
export const constantTimeEqual = (a: string, b: string): boolean =>
  timingSafeEqual(createHash("sha256").update(a, "utf8").digest(), createHash("sha256").update(b, "utf8").digest())

const unauthorized = (description: string, errorName: string): SumsubError => new SumsubError(401, description, errorName)

/** Throws 401 unless the request carries the app token and a fresh, valid signature. */
export const verifySignedRequest = (req: Request, keys: { readonly appToken: string; readonly secretKey: string; readonly now: () => number }): void => {
  const token = header(req, "x-app-token")
  if (!token) throw unauthorized("the X-App-Token header is missing", "app-token-missing")
  if (!constantTimeEqual(token, keys.appToken)) throw unauthorized("invalid app token", "app-token-invalid")
  const ts = header(req, "x-app-access-ts")
  if (!ts || !/^\d{1,12}$/.test(ts)) throw unauthorized("the X-App-Access-Ts header is missing or not unix seconds", "app-token-invalid-ts")
  if (Math.abs(keys.now() / 1000 - Number(ts)) > MAX_CLOCK_SKEW_S) throw unauthorized("request timestamp is too old or in the future", "app-token-invalid-ts")
  const sig = header(req, "x-app-access-sig")
  if (!sig) throw unauthorized("the X-App-Access-Sig header is missing", "app-token-signature-missing")
  const expected = sumsubSignature(keys.secretKey, ts, req.method, req.url, req.body)
  if (!constantTimeEqual(sig, expected)) throw unauthorized("request signature mismatch", "app-token-signature-mismatch")
}
