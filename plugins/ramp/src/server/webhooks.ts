/**
 * `POST /api/ramp/webhooks/moonpay` and `POST /api/ramp/webhooks/mercuryo`: the providers' webhooks
 * (issue 23 wire). The signature is checked over the RAW body before anything is parsed; a forged one,
 * or a MoonPay one whose signed timestamp is more than 5 minutes away (a replay), is answered 401 and
 * changes nothing. A verified one is recorded by the digest of its raw body FIRST, in the transaction
 * that applies it, so a redelivery (or a concurrent copy, which waits on that row) is a duplicate and
 * changes nothing; the answer is 200 whatever the outcome, so the provider stops retrying. A failure
 * of ours rolls everything back and answers 5xx, which the provider retries.
 */
import { createHash } from "node:crypto"
import { Effect } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { SqlClient } from "effect/sql"
import { ServerConfig } from "@wallet/kernel-server"
import { Ledger } from "@wallet/kernel-server/ledger"
import { Outbox } from "@wallet/kernel-server/outbox"
import type { Provider } from "../domain.ts"
import { rampConfig } from "./config.ts"
import { verifyMercuryoCallback, verifyMoonpayWebhook, type Verified } from "./providers.ts"
import { applyEvent, depositIfDue, type ApplyOutcome } from "./transactions.ts"

export const WEBHOOK_PATHS = {
  moonpay: "/api/ramp/webhooks/moonpay",
  mercuryo: "/api/ramp/webhooks/mercuryo",
} as const satisfies Readonly<Record<Provider, `/${string}`>>

const refused = (status: number, code: string, message: string) => HttpServerResponse.jsonUnsafe({ _tag: "WebhookRefused", code, message }, { status })

/** The id of a delivery: the digest of its raw body (a redelivery is byte for byte the same body). */
export const deliveryId = (provider: Provider, raw: Uint8Array) => `${provider}:${createHash("sha256").update(raw).digest("hex")}`

const handle = (provider: Provider, request: HttpServerRequest.HttpServerRequest) =>
  Effect.gen(function* () {
    const config = yield* rampConfig
    const server = yield* ServerConfig
    const sql = yield* SqlClient.SqlClient
    const body = yield* request.arrayBuffer.pipe(Effect.orElseSucceed(() => undefined))
    if (body === undefined) return refused(400, "invalid_request", "The request body could not be read")
    const raw = new Uint8Array(body)
    let verified: Verified
    if (provider === "moonpay") {
      if (config.moonpay === undefined) return refused(404, "provider_not_configured", "MoonPay is not configured")
      verified = verifyMoonpayWebhook(config.moonpay, raw, request.headers["moonpay-signature-v2"], server.now())
    } else {
      if (config.mercuryo === undefined) return refused(404, "provider_not_configured", "Mercuryo is not configured")
      verified = verifyMercuryoCallback(config.mercuryo, raw, request.headers["x-signature"])
    }
    if (!verified.ok) return refused(verified.code === "invalid_request" ? 400 : 401, verified.code, verified.message)
    const { event, type } = verified
    const id = deliveryId(provider, raw)
    const outcome = yield* sql
      .withTransaction(
        Effect.gen(function* () {
          const fresh = yield* sql`insert into ramp_webhooks (id, provider, ramp_id, type, outcome, received_at)
            values (${id}, ${provider}, ${event?.rampId ?? null}, ${type}, 'received', ${new Date(server.now())})
            on conflict (id) do nothing returning id`
          if (fresh.length === 0) return "duplicate" as ApplyOutcome | "duplicate"
          const applied: ApplyOutcome = event === undefined ? "ignored" : yield* applyEvent(event)
          yield* sql`update ramp_webhooks set outcome = ${applied} where id = ${id}`
          return applied
        }),
      )
      .pipe(Effect.orDie)
    if (event !== undefined && event.direction === "sell" && event.status === "PENDING") yield* depositIfDue(event.rampId)
    return HttpServerResponse.jsonUnsafe({ ok: true, outcome })
  })

export const rampWebhookRoutes = HttpRouter.use((router) =>
  Effect.gen(function* () {
    const context = yield* Effect.context<SqlClient.SqlClient | ServerConfig | Outbox | Ledger>()
    for (const provider of ["moonpay", "mercuryo"] as const)
      yield* router.add("POST", WEBHOOK_PATHS[provider], (request) => Effect.provideContext(handle(provider, request), context))
  }),
)
