/**
 * `/ops/p2p`: support's appeals page (issue 21). The queue of open appeals, oldest first; an order with
 * both sides, the amounts, the payment details and every statement; the decision: release to the buyer,
 * return to the seller, or split (the buyer's part in the crypto's minor units). Each decision is one
 * transaction with its operator audit entry, the order's conditional update and one Ledger command; both
 * sides get a bot message. English only (staff).
 */
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { formatAmount } from "@wallet/kernel"
import { Ledger } from "@wallet/kernel-server/ledger"
import { escapeHtml, hiddenField, operatorAudit, operatorPages, statusLines, type OperatorPageInput } from "@wallet/kernel-server/operator"
import { Outbox } from "@wallet/kernel-server/outbox"
import { APPEAL_OUTCOMES, cryptoDecimals, type AppealOutcome } from "../domain.ts"
import { appealsOf, resolveAppeal } from "./orders.ts"
import { chatOperatorFile, chatSection, receiptsHtml } from "./chatOps.ts"

export const P2P_OPERATOR_LABEL = "P2P appeals"

const orderIdOf = (raw: string | null): number | undefined => (raw !== null && /^\d{1,15}$/.test(raw.trim()) ? Number(raw.trim()) : undefined)
const when = (value: unknown) => (value instanceof Date ? value.toISOString().replace("T", " ").slice(0, 19) : "—")

const queue = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{ order_id: string; issue: string; opened_at: Date; crypto: string; amount: string; fiat: string; fiat_amount: string }>`
    select a.order_id::text as order_id, a.issue, a.opened_at, o.crypto, o.amount::text as amount, o.fiat, o.fiat_amount::text as fiat_amount
      from p2p_appeals a join p2p_orders o on o.id = a.order_id where a.status = 'OPEN' order by a.opened_at limit 100`
  if (rows.length === 0) return `<h2>Open appeals</h2>\n<p class="muted">No appeal waits for a decision</p>`
  const items = rows
    .map(
      (row) =>
        `<tr data-appeal-order="${escapeHtml(row.order_id)}"><td><a href="/ops/p2p?order=${escapeHtml(row.order_id)}">#${escapeHtml(row.order_id)}</a></td><td>${escapeHtml(row.issue)}</td>` +
        `<td>${escapeHtml(formatAmount(BigInt(row.amount), cryptoDecimals(row.crypto) ?? 0))} ${escapeHtml(row.crypto)}</td><td>${(Number(row.fiat_amount) / 100).toFixed(2)} ${escapeHtml(row.fiat)}</td><td>${when(row.opened_at)}</td></tr>`,
    )
    .join("\n")
  return `<h2>Open appeals</h2>\n<table><thead><tr><th scope="col">Order</th><th scope="col">Issue</th><th scope="col">Crypto</th><th scope="col">Fiat</th><th scope="col">Opened</th></tr></thead><tbody>\n${items}\n</tbody></table>`
})

const orderSection = (csrf: string, orderId: number) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const [order] = yield* sql<{
      status: string
      buyer_id: string
      seller_id: string
      crypto: string
      amount: string
      fiat: string
      fiat_amount: string
      method: string
      payment_details: unknown
      created_at: Date
      paid_at: Date | null
    }>`select status, buyer_id::text as buyer_id, seller_id::text as seller_id, crypto, amount::text as amount, fiat, fiat_amount::text as fiat_amount, method,
        payment_details, created_at, paid_at from p2p_orders where id = ${orderId}`
    if (order === undefined) return `<p role="alert">No order #${orderId}</p>`
    const appeal = (yield* appealsOf([orderId])).get(orderId)
    const decimals = cryptoDecimals(order.crypto) ?? 0
    const details = typeof order.payment_details === "string" ? order.payment_details : JSON.stringify(order.payment_details)
    const facts = [
      ["Status", order.status],
      ["Buyer", order.buyer_id],
      ["Seller", order.seller_id],
      ["Crypto", `${formatAmount(BigInt(order.amount), decimals)} ${order.crypto}`],
      ["Fiat", `${(Number(order.fiat_amount) / 100).toFixed(2)} ${order.fiat}`],
      ["Method", order.method],
      ["Seller's details", details],
      ["Created", when(order.created_at)],
      ["Marked paid", when(order.paid_at)],
    ]
      .map(([k, v]) => `<tr><th scope="row">${escapeHtml(k!)}</th><td>${escapeHtml(v!)}</td></tr>`)
      .join("")
    const statements =
      appeal === undefined
        ? `<p class="muted">No appeal</p>`
        : `<p>Issue: <strong data-appeal-issue>${escapeHtml(appeal.issue)}</strong>, opened by the ${appeal.openedBy} at ${escapeHtml(appeal.openedAt)}; ${appeal.status.toLowerCase()}${appeal.outcome ? `: ${appeal.outcome}` : ""}</p>
<ol>${appeal.statements.map((st) => `<li data-statement-author="${st.author}"><strong>${st.author}</strong> (${escapeHtml(st.at)}): ${escapeHtml(st.text)}${receiptsHtml(orderId, st.author, st.files)}</li>`).join("")}</ol>`
    const decide =
      order.status !== "IN_APPEAL"
        ? ""
        : `<h2>Decision</h2>
<form method="post" action="/ops/p2p/decide">${hiddenField("csrf", csrf)}${hiddenField("order", orderId)}
<fieldset><legend>Outcome</legend>
<label><input type="radio" name="outcome" value="BUYER" required> Release the crypto to the buyer</label><br>
<label><input type="radio" name="outcome" value="SELLER"> Return the crypto to the seller</label><br>
<label><input type="radio" name="outcome" value="SPLIT"> Split: the buyer gets <input name="buyerAmount" inputmode="numeric" pattern="[0-9]*" size="16" aria-label="Buyer's part in minor units"> minor units of ${escapeHtml(order.crypto)} (of ${escapeHtml(order.amount)})</label>
</fieldset>
<p><label>Note to both sides <input name="note" maxlength="500" size="60"></label></p>
<button type="submit">Decide</button></form>`
    const chat = yield* chatSection(orderId, Number(order.buyer_id))
    return `<h2>Order #${orderId}</h2>\n<table>${facts}</table>\n<h2>Appeal</h2>\n${statements}\n${chat}\n${decide}`
  })

const render = ({ session, query, document }: OperatorPageInput) =>
  Effect.gen(function* () {
    const orderId = orderIdOf(query.get("order"))
    const body =
      orderId === undefined
        ? `<h1>P2P appeals</h1>\n${statusLines(query, escapeHtml)}\n<p><a href="/ops/p2p/merchants">Trusted merchants</a></p>\n<form method="get" action="/ops/p2p"><label>Order <input name="order" inputmode="numeric"></label> <button type="submit">Open</button></form>\n${yield* queue}`
        : `<h1>P2P appeal</h1>\n${statusLines(query, escapeHtml)}\n<p><a href="/ops/p2p">All open appeals</a></p>\n${yield* orderSection(session.csrf, orderId)}`
    return document("P2P appeals", body)
  }).pipe(Effect.orDie)

export const p2pOperatorPages = Layer.unwrap(
  Effect.gen(function* () {
    const ledger = yield* Ledger
    const outbox = yield* Outbox
    return operatorPages(
      { id: "p2p", label: P2P_OPERATOR_LABEL },
      {
        pages: [{ path: "", render }],
        files: [chatOperatorFile],
        actions: [
          {
            path: "/decide",
            page: "",
            apply: ({ form, actor }) =>
              Effect.gen(function* () {
                const orderId = orderIdOf(form.get("order"))
                if (orderId === undefined) return yield* Effect.fail({ message: "The order id is a number", back: "" })
                const back = `order=${orderId}`
                const outcome = form.get("outcome")
                if (!(APPEAL_OUTCOMES as ReadonlyArray<string>).includes(outcome ?? "")) return yield* Effect.fail({ message: "Choose an outcome", back })
                const raw = (form.get("buyerAmount") ?? "").trim()
                const buyerAmount = outcome === "SPLIT" ? (/^[1-9]\d{0,18}$/.test(raw) ? BigInt(raw) : undefined) : null
                if (buyerAmount === undefined) return yield* Effect.fail({ message: "A split needs the buyer's part in minor units", back })
                const sql = yield* SqlClient.SqlClient
                const [order] = yield* sql<{ amount: string }>`select amount::text as amount from p2p_orders where id = ${orderId}`.pipe(Effect.orDie)
                if (order === undefined) return yield* Effect.fail({ message: `No order #${orderId}`, back: "" })
                if (buyerAmount !== null && buyerAmount >= BigInt(order.amount)) {
                  return yield* Effect.fail({ message: "A split gives the buyer less than the whole amount (release it instead)", back })
                }
                const note = (form.get("note") ?? "").trim().slice(0, 500)
                const resolution = { kind: "resolve" as const, outcome: outcome as AppealOutcome, buyerAmount }
                yield* resolveAppeal(orderId, resolution, actor, note, (before) =>
                  operatorAudit(actor, "p2p.appeal.decide", `order ${orderId}`, before, { outcome, buyerAmount: buyerAmount?.toString() ?? null, note }),
                ).pipe(
                  Effect.provideService(Ledger, ledger),
                  Effect.provideService(Outbox, outbox),
                  Effect.catch((error: unknown) =>
                    typeof error === "object" && error !== null && "_tag" in error && (error as { _tag: string })._tag === "P2pConflict"
                      ? Effect.fail({ message: (error as unknown as { message: string }).message, back })
                      : Effect.die(error),
                  ),
                )
                return { notice: `Order #${orderId}: ${outcome}${buyerAmount !== null ? ` (${buyerAmount} to the buyer)` : ""}; both sides are told`, back }
              }),
          },
        ],
      },
    )
  }),
)
