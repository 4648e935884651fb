/**
 * The HTTP security headers of the served mini-app (decision 0207): a Content-Security-Policy the
 * app passes, nosniff and a referrer policy. Node-side (the Vite dev and preview servers use it
 * through `securityHeadersPlugin`; any other server of the built app sends `securityHeaders({ dev: false })`).
 * Not part of the app bundle.
 */
import { createHash } from "node:crypto"
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import type { Plugin } from "vite"

/** Telegram Web frames the app from these origins (web.telegram.org, and its webk / webz hosts). */
export const TELEGRAM_FRAME_ANCESTORS: ReadonlyArray<string> = ["https://web.telegram.org", "https://*.telegram.org"]
/** Loopback in dev: the devnet, a local demo dApp (manifest, icon) and Vite's HMR socket. */
const LOOPBACK_HTTP: ReadonlyArray<string> = ["http://127.0.0.1:*", "http://localhost:*"]
const LOOPBACK_WS: ReadonlyArray<string> = ["ws://127.0.0.1:*", "ws://localhost:*"]

export interface SecurityHeaderOptions {
  /**
   * Dev (the Vite dev server, and preview unless WALLET_APP_PRODUCTION=1): the dev launch page on
   * this origin frames the app, and loopback origins are reachable.
   */
  readonly dev: boolean
  /** `'sha256-…'` sources of the inline scripts the served HTML carries (Vite's dev preamble; none in a build). */
  readonly scriptHashes?: ReadonlyArray<string>
  /** Inline `<style>` elements (Vite's dev server injects CSS that way; the dev launch page's fake client too). */
  readonly inlineStyles?: boolean
  /** `'sha256-…'` sources of the inline `<style>` elements the served HTML carries (the boot paint's critical CSS, decision 0007). */
  readonly styleHashes?: ReadonlyArray<string>
  /** More origins the app may call (an API or bridge on another origin). */
  readonly connectOrigins?: ReadonlyArray<string>
  /** More origins that may frame the app. */
  readonly frameAncestors?: ReadonlyArray<string>
  /** More origins the app may frame (a verification partner on another host). */
  readonly frameOrigins?: ReadonlyArray<string>
}

/** The verification partner's WebSDK frame (decision 0930): Sumsub serves it from its own hosts. */
export const PARTNER_FRAME_ORIGINS: ReadonlyArray<string> = ["https://*.sumsub.com"]

/**
 * The policy. Scripts only from the app's origin (no inline script unless hashed, no eval); styles
 * from files; images also from any https host (dApp icons, jetton and NFT pictures); connections to
 * the app's origin (API, bridge and chain API are proxied there) and to https hosts, because
 * TonConnect fetches each dApp's manifest from the dApp's own host; framing only by Telegram Web;
 * frames only of the identity partner.
 */
export const contentSecurityPolicy = (options: SecurityHeaderOptions): string => {
  const dev = options.dev
  const directives: Array<[string, ReadonlyArray<string>]> = [
    ["default-src", ["'self'"]],
    ["script-src", ["'self'", ...(options.scriptHashes ?? [])]],
    // A hash next to 'unsafe-inline' would switch 'unsafe-inline' off: hashes only without it.
    ["style-src", ["'self'", ...(options.inlineStyles ? ["'unsafe-inline'"] : (options.styleHashes ?? []))]],
    ["img-src", ["'self'", "data:", "blob:", "https:", ...(dev ? LOOPBACK_HTTP : [])]],
    ["font-src", ["'self'", "data:"]],
    ["connect-src", ["'self'", "https:", ...(options.connectOrigins ?? []), ...(dev ? [...LOOPBACK_HTTP, ...LOOPBACK_WS] : [])]],
    // The identity partner's frame (in dev the local sandbox on loopback).
    ["frame-src", ["'self'", ...PARTNER_FRAME_ORIGINS, ...(options.frameOrigins ?? []), ...(dev ? LOOPBACK_HTTP : [])]],
    ["worker-src", ["'self'", "blob:"]],
    ["manifest-src", ["'self'"]],
    ["object-src", ["'none'"]],
    ["base-uri", ["'none'"]],
    ["form-action", ["'self'"]],
    ["frame-ancestors", [...(dev ? ["'self'"] : []), ...TELEGRAM_FRAME_ANCESTORS, ...(options.frameAncestors ?? [])]],
  ]
  return directives.map(([name, sources]) => `${name} ${[...new Set(sources)].join(" ")}`).join("; ")
}

export const securityHeaders = (options: SecurityHeaderOptions): Record<string, string> => ({
  "content-security-policy": contentSecurityPolicy(options),
  "x-content-type-options": "nosniff",
  // Full referrer within the app (the dev launch page's frame reads it), none to other origins.
  "referrer-policy": "same-origin",
  "permissions-policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=()",
})

/** `'sha256-…'` of every inline `<script>` (no `src`) in an HTML document. */
export const inlineScriptHashes = (html: string): ReadonlyArray<string> => {
  const hashes: Array<string> = []
  for (const match of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    const attributes = match[1] ?? ""
    const body = match[2] ?? ""
    if (/\bsrc\s*=/i.test(attributes) || body === "") continue
    hashes.push(`'sha256-${createHash("sha256").update(body, "utf8").digest("base64")}'`)
  }
  return hashes
}

/** `'sha256-…'` of every inline `<style>` element in an HTML document. */
export const inlineStyleHashes = (html: string): ReadonlyArray<string> =>
  [...html.matchAll(/<style\b[^>]*>([\s\S]*?)<\/style>/gi)].map(
    (match) =>
      `'sha256-${createHash("sha256")
        .update(match[1] ?? "", "utf8")
        .digest("base64")}'`,
  )

/** The dev launch page (a dev tool hosting the fake Telegram client, which injects its own `<style>`). */
const isLaunchPage = (url: string | undefined) => url !== undefined && /^\/launch(\.html)?(?:[?#]|$)/.test(url)

type Middleware = (
  req: { url?: string },
  res: { writeHead: (...args: Array<any>) => unknown; hasHeader: (name: string) => boolean; setHeader: (name: string, value: string) => unknown },
  next: () => void,
) => void

/**
 * Sets the headers just before each response's head is written, so the policy carries the hashes of
 * inline scripts that Vite added to the HTML while answering this very request. Headers a handler set
 * itself (e.g. the API behind the proxy) are kept.
 */
export const headersMiddleware =
  (options: () => SecurityHeaderOptions, proxied: ReadonlyArray<string>): Middleware =>
  (req, res, next) => {
    // Answers of the servers behind the proxy (API, bridge, chain API) carry their own headers.
    if (proxied.some((prefix) => req.url === prefix || req.url?.startsWith(`${prefix}/`) || req.url?.startsWith(`${prefix}?`))) return next()
    const writeHead = res.writeHead
    res.writeHead = function (this: unknown, ...args: Array<any>) {
      const base = options()
      const headers = securityHeaders(isLaunchPage(req.url) ? { ...base, inlineStyles: true } : base)
      for (const [name, value] of Object.entries(headers)) if (!res.hasHeader(name)) res.setHeader(name, value)
      return writeHead.apply(this, args)
    } as typeof res.writeHead
    next()
  }

/**
 * The Vite plugin: headers on every answer of the dev server (inline styles allowed, Vite's hashed
 * preamble) and of `vite preview` (the built app has no inline script; production headers with
 * WALLET_APP_PRODUCTION=1, i.e. no framing by this origin and no loopback origins).
 */
export const securityHeadersPlugin = (
  options: { readonly proxied?: ReadonlyArray<string>; readonly env?: Readonly<Record<string, string | undefined>> } = {},
): Plugin => {
  const env = options.env ?? process.env
  const proxied = options.proxied ?? ["/api", "/bridge", "/v2"]
  const devHashes = new Set<string>()
  return {
    name: "wallet-security-headers",
    transformIndexHtml: {
      order: "post",
      handler: (html) => {
        for (const hash of inlineScriptHashes(html)) devHashes.add(hash)
        return html
      },
    },
    configureServer(server) {
      server.middlewares.use(headersMiddleware(() => ({ dev: true, inlineStyles: true, scriptHashes: [...devHashes] }), proxied) as never)
    },
    configurePreviewServer(server) {
      const outDir = join(server.config.root, server.config.build.outDir)
      const hashes = new Set<string>()
      const styleHashes = new Set<string>()
      try {
        for (const file of readdirSync(outDir)) {
          if (!file.endsWith(".html")) continue
          const html = readFileSync(join(outDir, file), "utf8")
          for (const hash of inlineScriptHashes(html)) hashes.add(hash)
          for (const hash of inlineStyleHashes(html)) styleHashes.add(hash)
        }
      } catch {
        // no build yet: Vite itself says so
      }
      const dev = env.WALLET_APP_PRODUCTION !== "1"
      server.middlewares.use(headersMiddleware(() => ({ dev, scriptHashes: [...hashes], styleHashes: [...styleHashes] }), proxied) as never)
    },
  }
}
