// The devnet's tiny router on node:http: path patterns with {params}, JSON bodies in and out,
// 404/405 for unknown paths and methods, errors as tonapi's { error, error_code } with their status.
import http from "node:http"
import { ApiError } from "../util.ts"

export type Query = URLSearchParams

export interface Ctx {
  readonly params: Record<string, string>
  readonly query: Query
  readonly body: unknown
}
export type Handler = (ctx: Ctx) => Promise<unknown>
export interface Route {
  readonly method: string
  readonly pattern: RegExp
  readonly keys: string[]
  readonly handler: Handler
}

export const compile = (p: string): { pattern: RegExp; keys: string[] } => {
  const keys: string[] = []
  const re = p.replace(/\{(\w+)\}/g, (_m, k: string) => {
    keys.push(k)
    return "([^/]+)"
  })
  return { pattern: new RegExp(`^${re}$`), keys }
}

/** Registers a route; routes match in registration order. */
export type On = (method: string, path: string, handler: Handler) => void

export const routeList = (): { routes: Route[]; on: On } => {
  const routes: Route[] = []
  return { routes, on: (method, p, handler) => void routes.push({ method, ...compile(p), handler }) }
}

/** Runs before a matched handler: the devnet settles work it deferred that the request may see. */
export type Before = (method: string, path: string) => Promise<void>

export const serve = (routes: readonly Route[], before?: Before): http.Server => {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on("data", (c: Buffer) => chunks.push(c))
    req.on("end", () => {
      void (async () => {
        const url = new URL(req.url ?? "/", "http://devnet")
        res.setHeader("access-control-allow-origin", "*")
        res.setHeader("access-control-allow-headers", "authorization, content-type, accept-language")
        if (req.method === "OPTIONS") {
          res.writeHead(204).end()
          return
        }
        try {
          const method = req.method ?? "GET"
          let matched: { route: Route; params: Record<string, string> } | undefined
          let pathMatched = false
          for (const route of routes) {
            const m = route.pattern.exec(url.pathname)
            if (!m) continue
            pathMatched = true
            if (route.method !== method) continue
            matched = { route, params: Object.fromEntries(route.keys.map((k, i) => [k, decodeURIComponent(m[i + 1] ?? "")])) }
            break
          }
          if (!matched) throw new ApiError(pathMatched ? 405 : 404, pathMatched ? "method not allowed" : "not found")
          let body: unknown
          if (chunks.length) {
            try {
              body = JSON.parse(Buffer.concat(chunks).toString("utf8"))
            } catch {
              throw new ApiError(400, "invalid JSON body")
            }
          }
          if (before) await before(method, url.pathname)
          const out = await matched.route.handler({ params: matched.params, query: url.searchParams, body })
          if (out === undefined) {
            res.writeHead(200, { "content-type": "application/json" }).end("{}")
          } else {
            res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(out, (_k, v: unknown) => (typeof v === "bigint" ? Number(v) : v)))
          }
        } catch (e) {
          const status = e instanceof ApiError ? e.status : 500
          const message = e instanceof Error ? e.message : String(e)
          if (status === 500) console.error("devnet: request failed", req.method, url.pathname, e)
          res
            .writeHead(status, { "content-type": "application/json" })
            .end(JSON.stringify({ error: message, ...(e instanceof ApiError && e.code !== undefined ? { error_code: e.code } : {}) }))
        }
      })()
    })
  })
  // keep idle connections longer than clients do, so a client never reuses a socket the server just closed
  server.keepAliveTimeout = 65_000
  server.headersTimeout = 66_000
  return server
}
