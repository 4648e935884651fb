/**
 * `/ops`: the operator console's routes (decision 0370), next to the JSON API. Every answer is
 * HTML with a strict CSP (no script, the one stylesheet), `no-store` and no framing. Forms carry the
 * session's CSRF token and the cookie is SameSite=Strict; a POST whose Origin is another site is
 * refused as well.
 */
import { timingSafeEqual } from "node:crypto"
import { Effect, Option } from "effect"
import { HttpRouter, type HttpServerRequest, HttpServerResponse } from "effect/http"
import { SqlClient } from "effect/sql"
import { isBucket } from "@wallet/kernel"
import { ServerConfig } from "../services.ts"
import { login, logout, OPERATOR_SESSION_TTL_MS, sessionOf, type OperatorSession } from "./auth.ts"
import { OPS_CSS, renderAudit, renderConsole, renderLogin, type OperatorLink } from "./pages.ts"
import { auditLog, overview, setBucket, setFlag } from "./service.ts"

export const OPS_PREFIX = "/ops"
export const OPS_COOKIE = "wallet_ops"

const SECURITY_HEADERS = {
  "content-security-policy": "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  "x-frame-options": "DENY",
  "x-content-type-options": "nosniff",
  // same-origin: a form post carries its Origin (no-referrer would send "null", which is refused).
  "referrer-policy": "same-origin",
  "cache-control": "no-store",
} as const

export const html = (body: string, status = 200, headers: Record<string, string> = {}) =>
  HttpServerResponse.text(body, { status, contentType: "text/html; charset=utf-8", headers: { ...SECURITY_HEADERS, ...headers } })

export const seeOther = (location: string, headers: Record<string, string> = {}) =>
  HttpServerResponse.empty({ status: 303, headers: { ...SECURITY_HEADERS, location, ...headers } })

const isHttps = (request: HttpServerRequest.HttpServerRequest) => request.headers["x-forwarded-proto"] === "https" || request.url.startsWith("https:")

/** The session cookie: only sent to /ops, never readable by script, never sent cross-site. */
export const sessionCookie = (token: string, secure: boolean, maxAgeSeconds = OPERATOR_SESSION_TTL_MS / 1000): string =>
  `${OPS_COOKIE}=${token}; Path=${OPS_PREFIX}; HttpOnly; SameSite=Strict; Max-Age=${maxAgeSeconds}${secure ? "; Secure" : ""}`

export const formOf = (request: HttpServerRequest.HttpServerRequest) =>
  request.text.pipe(
    Effect.map((text) => new URLSearchParams(text)),
    Effect.orElseSucceed(() => new URLSearchParams()),
  )

export const sameString = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b))

/** Origin, when sent, must be this server's own. */
export const sameOrigin = (request: HttpServerRequest.HttpServerRequest) => {
  const origin = request.headers.origin
  if (origin === undefined || origin === "null") return origin === undefined
  try {
    return new URL(origin).host === request.headers.host
  } catch {
    return false
  }
}

export const userParam = (raw: string | null): number | undefined | "invalid" => {
  if (raw === null || raw.trim() === "") return undefined
  return /^\d{1,15}$/.test(raw.trim()) ? Number(raw.trim()) : "invalid"
}

const addressOf = (request: HttpServerRequest.HttpServerRequest) => Option.getOrElse(request.remoteAddress, () => "unknown")

/** The console's routes; `links` are the server plugins' operator pages, listed in its navigation. */
export const operatorRoutesWith = (links: ReadonlyArray<OperatorLink>) =>
  HttpRouter.use((router) =>
    Effect.gen(function* () {
      // Route handlers run in the request's context: they get the database and config from here.
      const context = yield* Effect.context<SqlClient.SqlClient | ServerConfig>()
      const run = <A, E>(effect: Effect.Effect<A, E, SqlClient.SqlClient | ServerConfig>) => Effect.provideContext(effect, context)

      const withSession = (
        request: HttpServerRequest.HttpServerRequest,
        f: (session: OperatorSession) => Effect.Effect<HttpServerResponse.HttpServerResponse, never, SqlClient.SqlClient | ServerConfig>,
      ) =>
        run(
          Effect.gen(function* () {
            const session = yield* sessionOf(request.cookies[OPS_COOKIE]).pipe(Effect.orDie)
            if (session === undefined) return seeOther(`${OPS_PREFIX}/login`)
            return yield* f(session)
          }),
        )

      /** A change: session, Origin and CSRF checked, then back to the console (303) or its page with the error (400). */
      const change = (
        request: HttpServerRequest.HttpServerRequest,
        apply: (
          form: URLSearchParams,
          session: OperatorSession,
          userId: number | undefined,
        ) => Effect.Effect<string, { readonly message: string }, SqlClient.SqlClient | ServerConfig>,
      ) =>
        withSession(request, (session) =>
          Effect.gen(function* () {
            const form = yield* formOf(request)
            if (!sameOrigin(request) || !sameString(form.get("csrf") ?? "", session.csrf)) return html(renderLogin("The form expired: sign in again"), 403)
            const userId = userParam(form.get("user"))
            const back = userId === undefined || userId === "invalid" ? OPS_PREFIX : `${OPS_PREFIX}?user=${userId}`
            const outcome =
              userId === "invalid"
                ? { ok: false as const, message: "The user id is a number" }
                : yield* apply(form, session, userId).pipe(
                    Effect.map((notice) => ({ ok: true as const, message: notice })),
                    Effect.catch((error) => Effect.succeed({ ok: false as const, message: error.message })),
                  )
            if (outcome.ok) return seeOther(`${back}${back.includes("?") ? "&" : "?"}done=${encodeURIComponent(outcome.message)}`)
            const page = yield* consolePage(session, typeof userId === "number" ? userId : undefined, undefined, outcome.message)
            return html(page, 400)
          }).pipe(Effect.orDie),
        )

      const consolePage = (session: OperatorSession, userId: number | undefined, notice: string | undefined, error: string | undefined) =>
        Effect.gen(function* () {
          const found = yield* overview(userId).pipe(
            Effect.map((o) => ({ overview: o, error })),
            Effect.catchTag("OperatorInputError", (e) => overview().pipe(Effect.map((o) => ({ overview: o, error: e.message })))),
          )
          const audit = yield* auditLog(20)
          return renderConsole({ operator: session.name, csrf: session.csrf, overview: found.overview, audit, notice, error: found.error, links })
        })

      yield* router.add(
        "GET",
        `${OPS_PREFIX}/ops.css`,
        HttpServerResponse.text(OPS_CSS, {
          contentType: "text/css; charset=utf-8",
          headers: { "cache-control": "no-cache", "x-content-type-options": "nosniff" },
        }),
      )

      yield* router.add("GET", `${OPS_PREFIX}/login`, () => Effect.succeed(html(renderLogin())))

      yield* router.add("POST", `${OPS_PREFIX}/login`, (request) =>
        run(
          Effect.gen(function* () {
            if (!sameOrigin(request)) return html(renderLogin("Sign in from this page"), 403)
            const form = yield* formOf(request)
            const name = (form.get("name") ?? "").trim()
            const password = form.get("password") ?? ""
            if (name === "" || password === "" || name.length > 64 || password.length > 1024) return html(renderLogin("Enter your name and password"), 400)
            return yield* login(name, password, addressOf(request)).pipe(
              Effect.map((token) => seeOther(OPS_PREFIX, { "set-cookie": sessionCookie(token, isHttps(request)) })),
              Effect.catchTag("OperatorAuthError", (error) => Effect.succeed(html(renderLogin(error.message), error.reason === "locked" ? 429 : 401))),
            )
          }).pipe(Effect.orDie),
        ),
      )

      yield* router.add("POST", `${OPS_PREFIX}/logout`, (request) =>
        withSession(request, (session) =>
          Effect.gen(function* () {
            const form = yield* formOf(request)
            if (!sameOrigin(request) || !sameString(form.get("csrf") ?? "", session.csrf)) return html(renderLogin("The form expired: sign in again"), 403)
            yield* logout(request.cookies[OPS_COOKIE]!).pipe(Effect.orDie)
            return seeOther(`${OPS_PREFIX}/login`, { "set-cookie": sessionCookie("", isHttps(request), 0) })
          }),
        ),
      )

      yield* router.add("GET", OPS_PREFIX, (request) =>
        withSession(request, (session) =>
          Effect.gen(function* () {
            const query = new URL(request.url, "http://ops.invalid").searchParams
            const userId = userParam(query.get("user"))
            const done = query.get("done") ?? undefined
            const page = yield* consolePage(
              session,
              typeof userId === "number" ? userId : undefined,
              done?.slice(0, 200),
              userId === "invalid" ? "The user id is a number" : undefined,
            )
            return html(page)
          }).pipe(Effect.orDie),
        ),
      )

      yield* router.add("GET", `${OPS_PREFIX}/audit`, (request) =>
        withSession(request, (session) =>
          auditLog(500).pipe(
            Effect.map((entries) => html(renderAudit(session.name, entries, links, session.csrf))),
            Effect.orDie,
          ),
        ),
      )

      yield* router.add("POST", `${OPS_PREFIX}/flags`, (request) =>
        change(request, (form, session, userId) => {
          const key = form.get("key") ?? ""
          const value = form.get("value")
          const enabled = value === "on" ? true : value === "off" ? false : value === "clear" ? null : undefined
          if (enabled === undefined) return Effect.fail({ message: "value is on, off or clear" })
          return setFlag({ key, enabled, userId }, `operator:${session.name}`).pipe(
            Effect.map(() => `${key} ${enabled === null ? "cleared" : enabled ? "on" : "off"} ${userId === undefined ? "for all" : `for user ${userId}`}`),
            Effect.catchTag("SqlError", Effect.die),
          )
        }),
      )

      yield* router.add("POST", `${OPS_PREFIX}/buckets`, (request) =>
        change(request, (form, session, userId) => {
          const name = form.get("name") ?? ""
          const raw = form.get("bucket") ?? ""
          const bucket = raw === "clear" ? null : isBucket(raw) ? raw : undefined
          if (bucket === undefined) return Effect.fail({ message: "a bucket is a, b, c or clear" })
          return setBucket({ name, bucket, userId }, `operator:${session.name}`).pipe(
            Effect.map(() => `${name} ${bucket === null ? "cleared" : `bucket ${bucket}`} ${userId === undefined ? "for all" : `for user ${userId}`}`),
            Effect.catchTag("SqlError", Effect.die),
          )
        }),
      )
    }),
  )

export const operatorRoutes = operatorRoutesWith([])
