import { createHash } from "node:crypto"
import { describe, expect, it } from "vitest"
import { contentSecurityPolicy, headersMiddleware, inlineScriptHashes, securityHeaders } from "./security-headers.ts"

const directives = (policy: string) => Object.fromEntries(policy.split("; ").map((d) => [d.split(" ")[0]!, d.split(" ").slice(1)]))

describe("security headers of the served app (decision 0207)", () => {
  it("production: framed only by Telegram Web, scripts only from the app, no loopback", () => {
    const headers = securityHeaders({ dev: false })
    expect(headers["x-content-type-options"]).toBe("nosniff")
    expect(headers["referrer-policy"]).toBe("same-origin")
    const csp = directives(headers["content-security-policy"]!)
    expect(csp["frame-ancestors"]).toEqual(["https://web.telegram.org", "https://*.telegram.org"])
    expect(csp["script-src"]).toEqual(["'self'"])
    expect(csp["style-src"]).toEqual(["'self'"])
    expect(csp["object-src"]).toEqual(["'none'"])
    expect(csp["base-uri"]).toEqual(["'none'"])
    expect(csp["connect-src"]).toEqual(["'self'", "https:"])
    // Frames: only the identity partner's WebSDK (decision 0930).
    expect(csp["frame-src"]).toEqual(["'self'", "https://*.sumsub.com"])
    expect(headers["content-security-policy"]).not.toMatch(/unsafe-(inline|eval)|127\.0\.0\.1|localhost|\*(?!\.telegram\.org|\.sumsub\.com)/)
  })

  it("dev: the launch page on this origin frames the app; loopback (devnet, demo dApp, HMR) is reachable; hashed inline scripts only", () => {
    const csp = directives(contentSecurityPolicy({ dev: true, inlineStyles: true, scriptHashes: ["'sha256-abc'"] }))
    expect(csp["frame-ancestors"]).toEqual(["'self'", "https://web.telegram.org", "https://*.telegram.org"])
    expect(csp["script-src"]).toEqual(["'self'", "'sha256-abc'"])
    expect(csp["style-src"]).toEqual(["'self'", "'unsafe-inline'"])
    expect(csp["connect-src"]).toEqual(expect.arrayContaining(["http://127.0.0.1:*", "ws://127.0.0.1:*"]))
    expect(csp["img-src"]).toEqual(expect.arrayContaining(["https:", "http://127.0.0.1:*", "data:"]))
  })

  it("hashes inline scripts (Vite's dev preamble) and skips scripts with a src", () => {
    const preamble = 'import { injectIntoGlobalHook } from "/@react-refresh";\ninjectIntoGlobalHook(window);'
    const html = `<head><script type="module">${preamble}</script>\n<script type="module" src="/@vite/client"></script></head><body><script src="/a.js"></script></body>`
    expect(inlineScriptHashes(html)).toEqual([`'sha256-${createHash("sha256").update(preamble).digest("base64")}'`])
    expect(inlineScriptHashes("<html><body></body></html>")).toEqual([])
  })
})

describe("the dev / preview middleware", () => {
  const answer = (url: string, preset: Record<string, string> = {}) => {
    const headers = new Map(Object.entries(preset))
    const res = { writeHead: () => "written", hasHeader: (n: string) => headers.has(n), setHeader: (n: string, v: string) => void headers.set(n, v) }
    let hashes: Array<string> = []
    const middleware = headersMiddleware(() => ({ dev: false, scriptHashes: hashes }), ["/api", "/bridge"])
    middleware({ url }, res, () => {})
    // Vite adds its inline scripts while answering: the policy is computed when the head is written.
    hashes = ["'sha256-late'"]
    res.writeHead()
    return headers
  }

  it("sets the headers when the head is written, with the hashes known by then; the launch page may use inline styles", () => {
    const page = answer("/")
    expect(page.get("content-security-policy")).toContain("script-src 'self' 'sha256-late'")
    expect(page.get("content-security-policy")).toContain("style-src 'self';")
    expect(page.get("x-content-type-options")).toBe("nosniff")
    expect(answer("/launch.html?autostart=1").get("content-security-policy")).toContain("style-src 'self' 'unsafe-inline'")
  })

  it("leaves proxied answers (API, bridge) and headers a handler set alone", () => {
    expect(answer("/api/dev/outbox.html").size).toBe(0)
    expect(answer("/bridge/events?client_id=x").size).toBe(0)
    expect(answer("/apiary").has("content-security-policy")).toBe(true)
    expect(answer("/", { "referrer-policy": "no-referrer" }).get("referrer-policy")).toBe("no-referrer")
  })
})
