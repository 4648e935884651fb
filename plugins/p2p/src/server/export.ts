/**
 * The order-history export (issue 21; the file's rules in `../orderCsv.ts`). `POST /api/p2p/orders/export`
 * builds the caller's CSV for the period and stores it behind a single-use link: a random 256-bit
 * token, kept only as its SHA-256, valid for 10 minutes. `GET /api/p2p/export/<token>` hands the file
 * out once, without the Authorization header (the Telegram client downloads it; the token is the
 * credential): one conditional update marks it used and drops the stored CSV. A client without the
 * download method (Bot API 8.0) gets the link in a bot message instead (Outbox, same transaction).
 */
import { createHash, randomBytes } from "node:crypto"
import { Effect } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { SqlClient } from "effect/sql"
import { ServerConfig } from "@wallet/kernel-server"
import { Outbox } from "@wallet/kernel-server/outbox"
import { P2pRefused, type ExportLink, type ExportRequest } from "../api.ts"
import { paymentMethod } from "../domain.ts"
import { EXPORT_LINK_TTL_MS, EXPORT_TOKEN_PATTERN, exportFileName, exportRow, periodStart, toCsv, type ExportPeriod } from "../orderCsv.ts"
import { languageOf } from "./notify.ts"
import { nameOf } from "./people.ts"

export const EXPORT_PATH = "/api/p2p/export"
/** Exports one user may ask for in 10 minutes (each one reads their whole period). */
export const MAX_EXPORTS_PER_WINDOW = 5
/** Rows in one file: years of a busy merchant's orders. */
const MAX_ROWS = 20_000

const hashOf = (token: string) => createHash("sha256").update(token).digest("hex")

/**
 * Where the link points: the app's own origin as the browser sent it (the app and `/api` share one
 * origin), else this request's host. Only the caller's own link is built from it.
 */
const requestOrigin = Effect.gen(function* () {
  const request = yield* HttpServerRequest.HttpServerRequest
  const origin = request.headers.origin
  if (origin !== undefined && /^https?:\/\/[^/\s?#]+$/i.test(origin)) return origin
  const proto = request.headers["x-forwarded-proto"] === "https" ? "https" : "http"
  return `${proto}://${request.headers.host ?? "localhost"}`
})

interface ExportOrderRow {
  id: string
  created_at: Date
  status: string
  buyer_id: string
  seller_id: string
  crypto: string
  amount: string
  fiat: string
  fiat_amount: string
  price_cents: string
  seller_fee: string
  buyer_fee: string
  method: string
  completed_at: Date | null
}

/** The caller's orders of the period as CSV rows, newest first (only orders the caller is a side of). */
export const exportRows = (userId: number, period: ExportPeriod, nowMs: number) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const since = periodStart(period, nowMs)
    const rows = yield* sql.unsafe<ExportOrderRow>(
      `select id::text as id, created_at, status, buyer_id::text as buyer_id, seller_id::text as seller_id, crypto, amount::text as amount, fiat,
        fiat_amount::text as fiat_amount, price_cents::text as price_cents, seller_fee::text as seller_fee, buyer_fee::text as buyer_fee, method, completed_at
        from p2p_orders where (buyer_id = $1 or seller_id = $1) and ($2::timestamptz is null or created_at >= $2) order by id desc limit ${MAX_ROWS}`,
      [userId, since],
    )
    const others = [...new Set(rows.map((row) => (Number(row.buyer_id) === userId ? Number(row.seller_id) : Number(row.buyer_id))))]
    const names =
      others.length === 0
        ? []
        : yield* sql<{ id: string; first_name: string; last_name: string | null }>`
            select id::text as id, first_name, last_name from kernel_users where id = any(${others}::bigint[])`
    const nameById = new Map(names.map((row) => [Number(row.id), nameOf(row)]))
    return rows.map((row) => {
      const buyer = Number(row.buyer_id) === userId
      const other = buyer ? Number(row.seller_id) : Number(row.buyer_id)
      return exportRow({
        id: Number(row.id),
        createdAt: new Date(row.created_at),
        status: row.status,
        side: buyer ? "buyer" : "seller",
        crypto: row.crypto,
        amount: BigInt(row.amount),
        fiat: row.fiat,
        fiatAmount: BigInt(row.fiat_amount),
        priceCents: BigInt(row.price_cents),
        fee: BigInt(buyer ? row.buyer_fee : row.seller_fee),
        counterparty: nameById.get(other) ?? String(other),
        paymentMethod: paymentMethod(row.method)?.name ?? row.method,
        completedAt: row.completed_at === null ? null : new Date(row.completed_at),
      })
    })
  })

const TEXT = {
  en: (url: string, count: number) => `Your P2P order history is ready (${count} orders): ${url}\nThe link works once, within 10 minutes.`,
  ru: (url: string, count: number) => `История ваших P2P-сделок готова (сделок: ${count}): ${url}\nСсылка открывается один раз в течение 10 минут.`,
} as const

/** `POST /api/p2p/orders/export`. */
export const createExport = (userId: number, request: ExportRequest) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const config = yield* ServerConfig
    const outbox = yield* Outbox
    const now = new Date(config.now())
    const [recent] = yield* sql<{ n: number }>`select count(*)::int as n from p2p_exports
      where user_id = ${userId} and created_at > ${new Date(now.getTime() - EXPORT_LINK_TTL_MS)}`
    if ((recent?.n ?? 0) >= MAX_EXPORTS_PER_WINDOW) {
      return yield* Effect.fail(new P2pRefused({ code: "export_rate_limited", message: `At most ${MAX_EXPORTS_PER_WINDOW} exports in 10 minutes` }))
    }
    const rows = yield* exportRows(userId, request.period, now.getTime())
    const token = randomBytes(32).toString("base64url")
    const url = `${yield* requestOrigin}${EXPORT_PATH}/${token}`
    const fileName = exportFileName(request.period, now.getTime())
    const expiresAt = new Date(now.getTime() + EXPORT_LINK_TTL_MS)
    yield* sql.withTransaction(
      Effect.gen(function* () {
        // The user's old links go (used, or expired a day ago): nothing of a past export stays around.
        yield* sql`delete from p2p_exports where user_id = ${userId} and (used_at is not null or expires_at < ${new Date(now.getTime() - 86_400_000)})`
        yield* sql`insert into p2p_exports (token_hash, user_id, period, file_name, orders, content, created_at, expires_at)
          values (${hashOf(token)}, ${userId}, ${request.period}, ${fileName}, ${rows.length}, ${toCsv(rows)}, ${now}, ${expiresAt})`
        if (request.delivery === "message") {
          const language = yield* languageOf(userId)
          yield* outbox.enqueue({ channel: "telegram", recipient: String(userId), subject: "p2p.export.ready", body: TEXT[language](url, rows.length) })
        }
      }),
    )
    return { url, fileName, expiresAt: expiresAt.toISOString(), orders: rows.length, delivery: request.delivery } satisfies ExportLink
  })

const refused = (status: 404 | 410, code: string, message: string) => HttpServerResponse.jsonUnsafe({ _tag: "P2pNotFound", code, message }, { status })

/** `GET /api/p2p/export/<token>`: the file once; an unknown token 404, a used or expired one 410. */
const download = (request: HttpServerRequest.HttpServerRequest) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const config = yield* ServerConfig
    const token = new URL(request.url, "http://export.invalid").pathname.slice(EXPORT_PATH.length + 1)
    if (!EXPORT_TOKEN_PATTERN.test(token)) return refused(404, "export_not_found", "No such export link")
    const hash = hashOf(token)
    const now = new Date(config.now())
    const [served] = yield* sql<{ content: string | null; file_name: string }>`
    update p2p_exports e set used_at = ${now}, content = null
      from (select token_hash, content from p2p_exports where token_hash = ${hash} and used_at is null and expires_at > ${now} for update) old
      where e.token_hash = old.token_hash
      returning old.content as content, e.file_name as file_name`
    if (served === undefined || served.content === null) {
      const [known] = yield* sql<{ used_at: Date | null }>`select used_at from p2p_exports where token_hash = ${hash}`
      if (known === undefined) return refused(404, "export_not_found", "No such export link")
      return known.used_at !== null
        ? refused(410, "export_link_used", "This link was used already: export the history again")
        : refused(410, "export_link_expired", "This link expired: export the history again")
    }
    // A byte-order mark, so spreadsheet apps read the names (Cyrillic, Hindi, ...) as UTF-8.
    return HttpServerResponse.text(`\uFEFF${served.content}`, {
      contentType: "text/csv; charset=utf-8",
      headers: {
        "content-disposition": `attachment; filename="${served.file_name}"`,
        "cache-control": "no-store",
        "x-content-type-options": "nosniff",
        "referrer-policy": "no-referrer",
      },
    })
  })

export const exportDownloadRoute = HttpRouter.use((router) =>
  Effect.gen(function* () {
    const context = yield* Effect.context<SqlClient.SqlClient | ServerConfig>()
    yield* router.add("GET", `${EXPORT_PATH}/:token`, (request) => download(request).pipe(Effect.orDie, Effect.provideContext(context)))
  }),
)
