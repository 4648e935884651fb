/**
 * The WebSDK frame: `GET /websdk/websdk.html` (what `@sumsub/websdk-react` puts in its iframe) with
 * its external script and style, under a CSP that allows no inline code and only the configured
 * origins as frame ancestors. The frame URL carries the SDK's frame id (derived from the access
 * token), so no referrer leaves the page.
 */
import { readFileSync } from "node:fs"
import path from "node:path"
import { fileURLToPath } from "node:url"
import type { Reply, Route } from "./http.ts"

const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), "../websdk")

const ASSETS: ReadonlyArray<{ readonly file: string; readonly type: string }> = [
  { file: "websdk.html", type: "text/html; charset=utf-8" },
  { file: "websdk.js", type: "text/javascript; charset=utf-8" },
  { file: "websdk.css", type: "text/css; charset=utf-8" },
]

export const contentSecurityPolicy = (frameAncestors: ReadonlyArray<string>): string =>
  `default-src 'self'; img-src 'self' blob: data:; base-uri 'none'; form-action 'none'; frame-ancestors ${frameAncestors.length > 0 ? frameAncestors.join(" ") : "'none'"}`

export const websdkRoutes = (frameAncestors: ReadonlyArray<string>): Route[] => {
  const csp = contentSecurityPolicy(frameAncestors)
  return ASSETS.map(({ file, type }) => {
    const body = readFileSync(path.join(dir, file))
    const reply: Reply = {
      status: 200,
      headers: { "content-type": type, "content-security-policy": csp, "referrer-policy": "no-referrer", "cache-control": "no-cache" },
      body,
    }
    return { method: "GET", pattern: new RegExp(`^/websdk/${file.replace(".", "\\.")}$`), handler: () => Promise.resolve(reply) }
  })
}
