/**
 * The sandbox's HTTP server: matches a route, reads the body within the route's limit, checks the
 * signature of every `/resources/` call outside `/resources/sdk/`, and answers with Sumsub's
 * headers (`x-correlation-id` on every response) and error bodies.
 */
import http from "node:http"
import type { SandboxContext } from "../context.ts"
import { correlationId } from "../ids.ts"
import { errorReply, match, readBody, SumsubError, type Reply, type Request, type Route } from "./http.ts"
import { sdkRoutes } from "./sdk-api.ts"
import { serverRoutes } from "./server-api.ts"
import { verifySignedRequest } from "./signature.ts"
import { websdkRoutes } from "./websdk-assets.ts"

const DEFAULT_MAX_BODY = 1024 * 1024

const isSigned = (path: string): boolean => path.startsWith("/resources/") && !path.startsWith("/resources/sdk/")

const handle = async (routes: ReadonlyArray<Route>, ctx: SandboxContext, raw: http.IncomingMessage, id: string): Promise<Reply> => {
  const method = raw.method ?? "GET"
  const url = raw.url ?? "/"
  const q = url.indexOf("?")
  const path = q < 0 ? url : url.slice(0, q)
  const found = match(routes, method, path)
  if (!found) {
    await readBody(raw, 0)
    throw new SumsubError(404, "not found", "not-found")
  }
  const body = await readBody(raw, found.route.maxBody ?? DEFAULT_MAX_BODY)
  const oversize = body === "oversize"
  if (oversize && found.route.maxBody === undefined) throw new SumsubError(413, "the request body is too large", "payload-too-large")
  const req: Request = {
    method,
    url,
    path,
    query: new URLSearchParams(q < 0 ? "" : url.slice(q + 1)),
    headers: raw.headers,
    body: oversize ? Buffer.alloc(0) : body,
    oversize,
    correlationId: id,
    params: found.params,
  }
  if (isSigned(path)) verifySignedRequest(req, ctx.config)
  return found.route.handler(req)
}

export const createSandboxServer = (ctx: SandboxContext, log: (line: string) => void): http.Server => {
  const routes = [...serverRoutes(ctx), ...sdkRoutes(ctx), ...websdkRoutes(ctx.config.frameAncestors)]
  return http.createServer((raw, res) => {
    const id = correlationId()
    handle(routes, ctx, raw, id)
      .catch((error: unknown) => {
        if (error instanceof SumsubError) return errorReply(error, id)
        log(`sumsub ${raw.method} ${raw.url} failed (${id}): ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`)
        return errorReply(new SumsubError(500, "internal error", "internal-error"), id)
      })
      .then((reply) => {
        if (res.headersSent || res.destroyed) return
        res.writeHead(reply.status, {
          ...reply.headers,
          "x-correlation-id": id,
          "x-content-type-options": "nosniff",
          "cache-control": "no-store",
          ...cacheOf(reply),
        })
        res.end(raw.method === "HEAD" ? undefined : reply.body)
      })
  })
}

/** Static assets choose their own caching; API answers are never cached. */
const cacheOf = (reply: Reply): Record<string, string> => {
  const own = reply.headers?.["cache-control"]
  return own ? { "cache-control": own } : {}
}
