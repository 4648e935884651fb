/**
 * The built mini-app served as a production host would: every text file gzipped once at start
 * (level 9, like precompressed files behind `gzip_static`), hashed `/assets/*` cached for a year
 * (immutable), HTML revalidated (`no-cache` + ETag), the app's security headers as `vite preview`
 * sends them (decision 0207), and `/api` + `/bridge` proxied to the API server uncompressed.
 *
 * `vite preview` compresses too (gzip level 6 on the fly) but serves every file `no-cache`, so a
 * reopen revalidates each chunk: a warm cache would cost one round trip per file.
 *
 * `http2: true` serves HTTPS with HTTP/2 (a throwaway self-signed certificate made with `openssl`;
 * the browser context must ignore certificate errors), as any host a Telegram mini-app can use does
 * (Telegram requires HTTPS; CDNs and hosting speak HTTP/2). Over HTTP/1.1 Chromium opens at most six
 * connections per host, so some fifty first-screen files queue behind each other one round trip at a
 * time and the early sign-in request waits in that queue (decision 0010).
 */
import { execFileSync } from "node:child_process"
import { createHash, X509Certificate } from "node:crypto"
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs"
import { createServer, request, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http"
import { createSecureServer, type Http2Session } from "node:http2"
import { tmpdir } from "node:os"
import { extname, join, relative, sep } from "node:path"
import { gzipSync } from "node:zlib"
import { securityHeadersPlugin } from "../../../host/app/src/server/security-headers.ts"

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".webp": "image/webp",
  ".woff2": "font/woff2",
  ".ico": "image/x-icon",
  ".txt": "text/plain; charset=utf-8",
  ".webmanifest": "application/manifest+json",
}
const COMPRESSIBLE = /^(text\/|application\/(json|manifest)|image\/svg)/

interface Served {
  readonly body: Buffer
  readonly gzip: Buffer | undefined
  readonly type: string
  readonly etag: string
  readonly immutable: boolean
}

export interface ServedApp {
  readonly url: string
  /**
   * HTTP/2 only: the base64 SHA-256 of the certificate's public key, for Chromium's
   * `--ignore-certificate-errors-spki-list`. Trusted that way (not with certificate errors ignored)
   * the answers go to the HTTP cache, which skips anything served with a certificate error.
   */
  readonly spki?: string
  close(): Promise<void>
}

const walk = (dir: string): Array<string> =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? walk(path) : [path]
  })

type Middleware = (req: IncomingMessage, res: ServerResponse, next: () => void) => void

/** The security-headers middleware exactly as `vite preview` installs it for `distDir`. */
const previewHeaders = (distDir: string, proxied: ReadonlyArray<string>): Middleware => {
  const plugin = securityHeadersPlugin({ proxied })
  const hook = plugin.configurePreviewServer
  const run = typeof hook === "function" ? hook : hook?.handler
  let middleware: Middleware = (_req, _res, next) => next()
  const server = { config: { root: distDir, build: { outDir: "." } }, middlewares: { use: (m: Middleware) => (middleware = m) } }
  void (run as unknown as ((s: typeof server) => unknown) | undefined)?.call({}, server)
  return middleware
}

/** Headers HTTP/2 forbids (connection-specific) and HTTP/2's pseudo-headers, which node:http refuses. */
const HOP_BY_HOP = new Set(["connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade", "http2-settings", "host"])
const forwardable = (headers: IncomingHttpHeaders): IncomingHttpHeaders =>
  Object.fromEntries(Object.entries(headers).filter(([name]) => !name.startsWith(":") && !HOP_BY_HOP.has(name)))

/** A self-signed certificate for 127.0.0.1, valid one day (openssl, which Debian ships). */
const throwawayCertificate = (): { key: Buffer; cert: Buffer } => {
  const dir = mkdtempSync(join(tmpdir(), "wallet-bench-tls-"))
  try {
    execFileSync(
      "openssl",
      ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1"].concat([
        "-addext",
        "subjectAltName=IP:127.0.0.1",
        "-keyout",
        join(dir, "key.pem"),
        "-out",
        join(dir, "cert.pem"),
      ]),
      { stdio: "ignore" },
    )
    return { key: readFileSync(join(dir, "key.pem")), cert: readFileSync(join(dir, "cert.pem")) }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

export async function serveApp(options: { readonly distDir: string; readonly apiUrl: string; readonly http2?: boolean }): Promise<ServedApp> {
  const files = new Map<string, Served>()
  for (const path of walk(options.distDir)) {
    const key = "/" + relative(options.distDir, path).split(sep).join("/")
    if (key.startsWith("/.vite/")) continue
    const body = readFileSync(path)
    const type = TYPES[extname(path)] ?? "application/octet-stream"
    const zipped = COMPRESSIBLE.test(type) ? gzipSync(body, { level: 9 }) : undefined
    files.set(key, {
      body,
      gzip: zipped && zipped.length < body.length ? zipped : undefined,
      type,
      etag: `"${createHash("sha1").update(body).digest("base64url")}"`,
      immutable: key.startsWith("/assets/"),
    })
  }
  const proxied = ["/api", "/bridge"]
  const headers = previewHeaders(options.distDir, proxied)
  const api = new URL(options.apiUrl)

  const proxy = (req: IncomingMessage, res: ServerResponse) => {
    const upstream = request(
      { host: api.hostname, port: api.port, method: req.method, path: req.url, headers: { ...forwardable(req.headers), host: api.host } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, forwardable(answer.headers))
        answer.pipe(res)
      },
    )
    upstream.on("error", () => {
      if (!res.headersSent) res.writeHead(502, { "content-type": "application/json" })
      res.end(JSON.stringify({ _tag: "BadGateway", code: "bad_gateway", message: "the API server did not answer" }))
    })
    req.pipe(upstream)
  }

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? "/").split(/[?#]/)[0]!
    if (proxied.some((p) => path === p || path.startsWith(`${p}/`))) return proxy(req, res)
    headers(req, res, () => {
      const file = files.get(path === "/" ? "/index.html" : path) ?? files.get(`${path}.html`)
      if (!file) {
        res.writeHead(404, { "content-type": "text/plain" }).end("not found")
        return
      }
      const common = {
        "content-type": file.type,
        etag: file.etag,
        "cache-control": file.immutable ? "public, max-age=31536000, immutable" : "no-cache",
        vary: "accept-encoding",
      }
      if (req.headers["if-none-match"] === file.etag) {
        res.writeHead(304, common).end()
        return
      }
      const gzip = file.gzip && /\bgzip\b/.test(String(req.headers["accept-encoding"] ?? "")) ? file.gzip : undefined
      const body = gzip ?? file.body
      res.writeHead(200, { ...common, "content-length": String(body.length), ...(gzip ? { "content-encoding": "gzip" } : {}) })
      res.end(req.method === "HEAD" ? undefined : body)
    })
  }
  if (options.http2) {
    // The compatibility API hands the same (req, res) shape as node:http.
    const tls = throwawayCertificate()
    const spki = createHash("sha256")
      .update(new X509Certificate(tls.cert).publicKey.export({ type: "spki", format: "der" }))
      .digest("base64")
    const server = createSecureServer({ ...tls, allowHTTP1: true }, handle as never)
    const sessions = new Set<Http2Session>()
    server.on("session", (session) => {
      sessions.add(session)
      session.on("close", () => sessions.delete(session))
    })
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    const port = (server.address() as { port: number }).port
    return {
      url: `https://127.0.0.1:${port}`,
      spki,
      close: () =>
        new Promise<void>((resolve) => {
          for (const session of sessions) session.destroy()
          server.close(() => resolve())
        }),
    }
  }
  const server = createServer(handle)
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const port = (server.address() as { port: number }).port
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
