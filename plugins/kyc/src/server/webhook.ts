/**
 * `POST /api/kyc/webhooks/sumsub`: the verification partner's webhooks (decision 0930). The raw body
 * is checked against `X-Payload-Digest` before it is parsed; a forged or unreadable one is answered
 * 401 and changes nothing. A verified one is applied once (`applyWebhook`) and answered 200 whatever
 * its outcome (duplicate, stale, unknown user), so the partner stops retrying; a failure of ours is a
 * 5xx, which the partner retries.
 */
import { Effect } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { SqlClient } from "effect/sql"
import { ServerConfig } from "@wallet/kernel-server"
import { Outbox } from "@wallet/kernel-server/outbox"
import { KycPartner } from "./partner.ts"
import { applyWebhook } from "./review.ts"

export const PARTNER_WEBHOOK_PATH = "/api/kyc/webhooks/sumsub"

const refused = (status: number, code: string, message: string) => HttpServerResponse.jsonUnsafe({ _tag: "WebhookRefused", code, message }, { status })

const handle = (request: HttpServerRequest.HttpServerRequest) =>
  Effect.gen(function* () {
    const partner = yield* KycPartner
    const body = yield* request.arrayBuffer.pipe(Effect.orElseSucceed(() => undefined))
    if (body === undefined) return refused(400, "invalid_request", "The request body could not be read")
    const raw = new Uint8Array(body)
    const payload = partner.verifyWebhook(raw, request.headers)
    if (payload === undefined) return refused(401, "webhook_signature_invalid", "The payload digest does not match")
    const outcome = yield* applyWebhook(raw, payload).pipe(Effect.orDie)
    return HttpServerResponse.jsonUnsafe({ ok: true, outcome })
  })

export const partnerWebhookRoute = HttpRouter.use((router) =>
  Effect.gen(function* () {
    const context = yield* Effect.context<KycPartner | SqlClient.SqlClient | ServerConfig | Outbox>()
    yield* router.add("POST", PARTNER_WEBHOOK_PATH, (request) => Effect.provideContext(handle(request), context))
  }),
)
