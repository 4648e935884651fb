/** The WebSDK frame's files: served with a CSP that allows no inline code and names the frame ancestors. */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startSumsubSandbox, type RunningSumsubSandbox } from "./index.ts"

let sandbox: RunningSumsubSandbox

beforeAll(async () => {
  sandbox = await startSumsubSandbox({ port: 0, dataDir: "memory" })
})
afterAll(() => sandbox.close())

describe("websdk.html", () => {
  it("is served with the CSP and references the external script and style", async () => {
    const res = await fetch(`${sandbox.url}/websdk/websdk.html?_=id_abc&theme=dark`)
    expect(res.status).toBe(200)
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8")
    expect(res.headers.get("x-content-type-options")).toBe("nosniff")
    const csp = res.headers.get("content-security-policy") ?? ""
    expect(csp).toContain("default-src 'self'")
    expect(csp).toContain("img-src 'self' blob: data:")
    expect(csp).toContain("frame-ancestors http://127.0.0.1:* http://localhost:* https://web.telegram.org https://*.telegram.org")
    expect(csp).not.toContain("unsafe-inline")
    const html = await res.text()
    expect(html).toContain('<script src="websdk.js" defer></script>')
    expect(html).toContain('href="websdk.css"')
    expect(html).not.toMatch(/<script>|<style|style="/)
  })

  it("serves websdk.js and websdk.css with their types, and the stable test ids", async () => {
    const js = await fetch(`${sandbox.url}/websdk/websdk.js`)
    expect(js.headers.get("content-type")).toBe("text/javascript; charset=utf-8")
    const code = await js.text()
    for (const id of ["sumsub-doc-type", "sumsub-doc-file", "sumsub-selfie-file", "sumsub-submit", "sumsub-status", "sumsub-progress", "sumsub-error"])
      expect(code).toContain(`"${id}"`)
    for (const method of ["idCheck.onReady", "idCheck.init", "idCheck.updateAccessToken", "idCheck.onApplicantSubmitted", "idCheck.onResize"])
      expect(code).toContain(method)
    const css = await fetch(`${sandbox.url}/websdk/websdk.css`)
    expect(css.headers.get("content-type")).toBe("text/css; charset=utf-8")
    expect((await fetch(`${sandbox.url}/websdk/other.js`)).status).toBe(404)
  })

  it("takes the frame ancestors from the options", async () => {
    const other = await startSumsubSandbox({ port: 0, dataDir: "memory", frameAncestors: ["https://wallet.example"] })
    try {
      const res = await fetch(`${other.url}/websdk/websdk.html`)
      expect(res.headers.get("content-security-policy")).toMatch(/frame-ancestors https:\/\/wallet\.example$/)
    } finally {
      await other.close()
    }
  })
})
