/**
 * Dev servers only: a market to open at once. Lena (level 2) sells USDT for RUB (SBP and card) and
 * buys TON for EUR; she is funded once from the deposits side of the Ledger. Rhea (level 1) can buy.
 * Idempotent (keys and the offers' idempotency keys); the dev launch's "new" user loses their P2P rows.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { demoUsers, ServerConfig } from "@wallet/kernel-server"
import { Ledger, System, userOwner } from "@wallet/kernel-server/ledger"
import { P2P_CRYPTO } from "../domain.ts"
import { createOffer } from "./offers.ts"
import { createPayment, ensureP2pUser } from "./people.ts"

export const DEMO_SELLER_KIND = "kyc_level2"

export const p2pDevSeed = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const ledger = yield* Ledger
  for (const crypto of P2P_CRYPTO) yield* ledger.defineCurrency({ code: crypto.code, decimals: crypto.decimals })
  const seller = demoUsers.find((demo) => demo.kind === DEMO_SELLER_KIND)
  if (seller === undefined) return
  const known = yield* sql`select 1 from kernel_users where id = ${seller.id}`
  if (known.length === 0) return
  for (const [crypto, amount] of [
    ["USDT", 2_000_000_000n],
    ["TON", 300_000_000_000n],
  ] as const) {
    const account = { owner: userOwner(seller.id), currency: crypto }
    yield* ledger.openAccount(account)
    yield* ledger.transfer({
      key: `p2p:demo:fund:${seller.id}:${crypto}`,
      legs: [{ from: { owner: System.deposits, currency: crypto }, to: account, amount }],
      metadata: { gateway: "top_up", demo: true },
    })
  }
  const row = yield* ensureP2pUser(seller.id)
  if (row.initialized_at !== null) return
  const config = yield* ServerConfig
  yield* sql`update p2p_users set initialized_at = ${new Date(config.now())}, experienced = true where user_id = ${seller.id}`
  const sbp = yield* createPayment(seller.id, { code: "sbp", fiat: "RUB", fields: { phone: "+79161234567", bankName: "Tinkoff", holderName: "Lena Level" } })
  const card = yield* createPayment(seller.id, {
    code: "card",
    fiat: "RUB",
    fields: { cardNumber: "4111 1111 1111 1111", holderName: "Lena Level", bankName: "Sber" },
  })
  yield* createOffer(seller.id, {
    type: "SALE",
    crypto: "USDT",
    fiat: "RUB",
    price: { type: "FIXED", value: "9550" },
    volume: "500000000",
    minOrderFiat: "100000",
    maxOrderFiat: "4000000",
    paymentDetailsIds: [sbp.id, card.id],
    paymentMethodCodes: [],
    paymentWindowMinutes: 15,
    terms: "Pay from an account in your own name. Release within 10 minutes of the payment.",
    autoAccept: true,
    idempotencyKey: "demo-usdt-rub",
  })
  yield* createOffer(seller.id, {
    type: "PURCHASE",
    crypto: "TON",
    fiat: "EUR",
    price: { type: "FLOATING", value: "10100" },
    volume: "50000000000",
    minOrderFiat: "2000",
    maxOrderFiat: "50000",
    paymentDetailsIds: [],
    paymentMethodCodes: ["revolut_pay", "volt_banktransfer_eur"],
    paymentWindowMinutes: 30,
    terms: null,
    autoAccept: false,
    idempotencyKey: "demo-ton-eur",
  })
})

export const p2pDevResetUser = (userId: number) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* sql`delete from p2p_payment_details where user_id = ${userId}`
    yield* sql`delete from p2p_users where user_id = ${userId}`
    yield* sql`delete from p2p_notify_settings where user_id = ${userId}`
    yield* sql`delete from p2p_merchant_applications where user_id = ${userId}`
    yield* sql`delete from p2p_exports where user_id = ${userId}`
  })
