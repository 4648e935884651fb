/**
 * Operator pages of server plugins (decision 0910): a plugin adds its staff pages under
 * `/ops/<plugin id>` with the console's sign-in, CSRF and Origin checks, layout and audit log.
 * `operatorPages({ id, label }, { pages, actions })` is a layer the plugin merges into its handlers;
 * the plugin's `operatorLabel` (the same label) puts its page in the console's navigation.
 *
 * A page renders HTML for a signed-in operator (GET). An action (POST) checks the Origin and the
 * form's CSRF token, applies its change, and answers 303 back to its page with `done=<notice>`; a
 * refused change renders that page again with the reason and status 400. A change writes its audit
 * entry with `operatorAudit`, in the same transaction as the change.
 */
import { Effect } from "effect"
import { HttpRouter, HttpServerResponse, type HttpServerRequest } from "effect/http"
import type { SqlClient } from "effect/sql"
import type { FileStore } from "../files/index.ts"
import { ServerConfig } from "../services.ts"
import { sessionOf, type OperatorSession } from "./auth.ts"
import { layout, operatorNav, renderLogin, type OperatorLink } from "./pages.ts"
import { formOf, html, OPS_COOKIE, OPS_PREFIX, sameOrigin, sameString, seeOther } from "./routes.ts"

import { escapeHtml } from "../html.ts"

export { escapeHtml } from "../html.ts"
export { hidden as hiddenField } from "./pages.ts"
export { audit as operatorAudit } from "./service.ts"
export type { OperatorLink } from "./pages.ts"
export type { OperatorSession } from "./auth.ts"

/** What operator pages may use: the database, the config and the file store (documents they show). */
type Services = SqlClient.SqlClient | ServerConfig | FileStore

export interface OperatorPageInput {
  readonly session: OperatorSession
  /** The query string (`done` and `error` are the console's). */
  readonly query: URLSearchParams
  /** The document around a body: the console's head, stylesheet and navigation. */
  readonly document: (title: string, body: string) => string
}

export interface OperatorActionInput {
  readonly session: OperatorSession
  readonly form: URLSearchParams
  /** `operator:<name>`, the audit log's actor. */
  readonly actor: string
}

export interface OperatorPage {
  /** Below `/ops/<plugin id>`: "" for the plugin's main page, or "/<name>". */
  readonly path: string
  readonly render: (input: OperatorPageInput) => Effect.Effect<string, never, Services>
}

export interface OperatorAction {
  readonly path: string
  /**
   * Applies the change. Succeeds with the notice and the query of the page to go back to (e.g.
   * `user=42`); fails with the reason shown on that page.
   */
  readonly apply: (
    input: OperatorActionInput,
  ) => Effect.Effect<{ readonly notice: string; readonly back: string }, { readonly message: string; readonly back: string }, Services>
  /** The page (its `path`) a refused change is shown on. */
  readonly page: string
}

/**
 * A file an operator page shows (a document image): served only to a signed-in operator, never
 * cached, never sniffed, under a CSP that runs nothing. Fails with a message when there is no such file (404).
 */
export interface OperatorFile {
  /** Below `/ops/<plugin id>`, e.g. "/document". */
  readonly path: string
  readonly serve: (input: {
    readonly session: OperatorSession
    readonly query: URLSearchParams
  }) => Effect.Effect<{ readonly contentType: string; readonly bytes: Uint8Array }, { readonly message: string }, Services>
}

const FILE_TYPES: ReadonlySet<string> = new Set(["image/jpeg", "image/png", "image/webp", "application/pdf"])

export const operatorPages = (
  plugin: { readonly id: string; readonly label: string },
  define: { readonly pages: ReadonlyArray<OperatorPage>; readonly actions: ReadonlyArray<OperatorAction>; readonly files?: ReadonlyArray<OperatorFile> },
) =>
  HttpRouter.use((router) =>
    Effect.gen(function* () {
      const context = yield* Effect.context<Services>()
      const base = `${OPS_PREFIX}/${plugin.id}`
      const links: ReadonlyArray<OperatorLink> = [{ href: base, label: plugin.label }]
      const withSession = (
        request: HttpServerRequest.HttpServerRequest,
        f: (session: OperatorSession) => Effect.Effect<HttpServerResponse.HttpServerResponse, never, Services>,
      ) =>
        Effect.provideContext(
          Effect.gen(function* () {
            const session = yield* sessionOf(request.cookies[OPS_COOKIE]).pipe(Effect.orDie)
            if (session === undefined) return seeOther(`${OPS_PREFIX}/login`)
            return yield* f(session)
          }),
          context,
        )
      const render = (page: OperatorPage, session: OperatorSession, query: URLSearchParams) =>
        page.render({
          session,
          query,
          document: (title, body) => layout(title, `${operatorNav(session.name, session.csrf, links, `${base}${page.path}`)}\n<main>\n${body}\n</main>`),
        })

      for (const page of define.pages) {
        yield* router.add("GET", `${base}${page.path}` as HttpRouter.PathInput, (request) =>
          withSession(request, (session) =>
            render(page, session, new URL(request.url, "http://ops.invalid").searchParams).pipe(Effect.map((body) => html(body))),
          ),
        )
      }
      for (const file of define.files ?? []) {
        yield* router.add("GET", `${base}${file.path}` as HttpRouter.PathInput, (request) =>
          withSession(request, (session) =>
            file.serve({ session, query: new URL(request.url, "http://ops.invalid").searchParams }).pipe(
              Effect.map(({ contentType, bytes }) =>
                HttpServerResponse.uint8Array(bytes, {
                  // Only types a browser shows inertly; anything else is a download.
                  contentType: FILE_TYPES.has(contentType) ? contentType : "application/octet-stream",
                  headers: {
                    "content-security-policy": "default-src 'none'; img-src 'self'; frame-ancestors 'self'",
                    "x-content-type-options": "nosniff",
                    "cache-control": "no-store",
                    "content-disposition": FILE_TYPES.has(contentType) ? "inline" : "attachment",
                  },
                }),
              ),
              Effect.catch((missing) =>
                Effect.succeed(html(layout("Not found", `<main><p class="error" role="alert">${escapeHtml(missing.message)}</p></main>`), 404)),
              ),
            ),
          ),
        )
      }
      for (const action of define.actions) {
        const page = define.pages.find((candidate) => candidate.path === action.page)
        if (page === undefined) throw new Error(`operator action ${action.path} of ${plugin.id} names no page ${action.page}`)
        yield* router.add("POST", `${base}${action.path}` as HttpRouter.PathInput, (request) =>
          withSession(request, (session) =>
            Effect.gen(function* () {
              const form = yield* formOf(request)
              if (!sameOrigin(request) || !sameString(form.get("csrf") ?? "", session.csrf)) return html(renderLogin("The form expired: sign in again"), 403)
              const outcome = yield* action.apply({ session, form, actor: `operator:${session.name}` }).pipe(
                Effect.map((done) => ({ ok: true as const, ...done })),
                Effect.catch((refused) => Effect.succeed({ ok: false as const, notice: refused.message, back: refused.back })),
              )
              if (outcome.ok) {
                const query = new URLSearchParams(outcome.back)
                query.set("done", outcome.notice)
                return seeOther(`${base}${page.path}?${query}`)
              }
              const query = new URLSearchParams(outcome.back)
              query.set("error", outcome.notice)
              return html(yield* render(page, session, query), 400)
            }),
          ),
        )
      }
    }),
  )

/** The status lines a page shows from its query: `done` (a change applied) and `error` (refused). */
export const statusLines = (query: URLSearchParams, escape: (text: string) => string): string => {
  const done = query.get("done")?.slice(0, 300)
  const error = query.get("error")?.slice(0, 300)
  return `${error ? `<p class="error" role="alert">${escape(error)}</p>` : ""}${done ? `<p class="notice" role="status">${escape(done)}</p>` : ""}`
}
