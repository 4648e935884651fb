/**
 * The ramp sandbox's HTTP server: MoonPay's pages and API under /moonpay, Mercuryo's under /mercuryo.
 * Pages answer HTML (errors included); the APIs answer the provider's JSON errors. A widget URL whose
 * signature does not verify is refused before anything is stored.
 */
import http from "node:http"
import type { PGlite } from "@electric-sql/pglite"
import { header, json, match, readBody, SumsubError, type Reply, type Request, type Route } from "../http/http.ts"
import { correlationId } from "../ids.ts"
import { cryptoByCode, cryptoBySymbol, quoteBuy, quoteSell, type QuoteProblem } from "./amounts.ts"
import { TEST_CARDS, type Provider } from "./config.ts"
import { challengePage, checkoutPage, depositPage, errorPage, langOf, resultPage, sellPage, t, type Lang, type TextKey } from "./pages.ts"
import { mercuryoWidgetSignature, sameText, verifyMoonpaySearch } from "./signatures.ts"
import {
  answerChallenge,
  applyCard,
  cancelSell,
  createTransaction,
  findByExternalId,
  findTransaction,
  initialBuyStatus,
  markDeposited,
  mercuryoObject,
  moonpayObject,
  type CardOutcome,
  type Effects,
  type RampTransaction,
} from "./transactions.ts"

export interface RampCredentials {
  readonly moonpay: { readonly publishableKey: string; readonly secretKey: string; readonly webhookKey: string }
  readonly mercuryo: { readonly widgetId: string; readonly secret: string; readonly signKey: string }
}

export interface RampContext {
  readonly db: PGlite
  readonly credentials: RampCredentials
  readonly now: () => number
  readonly threeDsDelayMs: number
  readonly settleDelayMs: number
  readonly reorder: () => number
}

/** An API error: the provider's JSON error body with its status. */
class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(`HTTP ${status}`)
  }
}

const moonpayError = (status: number, type: string, message: string): ApiError => new ApiError(status, { type, message, errors: [] })
const mercuryoError = (status: number, code: number, message: string): ApiError => new ApiError(status, { status, code, message })

/** A page that is an answer in itself (an error page) rather than data to go on with. */
class PageReply extends Error {
  constructor(readonly reply: Reply) {
    super("page")
  }
}

const refuse = (provider: Provider, lang: Lang, key: TextKey, status: number, detail?: string): PageReply =>
  new PageReply(errorPage(provider, lang, detail ? `${t(lang, key)}: ${detail}` : t(lang, key), status))

const redirect = (location: string): Reply => ({ status: 303, headers: { location }, body: "" })

/** An http(s) URL the pages may send the user back to, or null. */
const returnUrl = (raw: string | null): string | null => {
  if (!raw) return null
  try {
    const url = new URL(raw)
    return url.protocol === "https:" || url.protocol === "http:" ? url.toString() : null
  } catch {
    return null
  }
}

const withParams = (base: string, params: Readonly<Record<string, string>>): string => {
  const url = new URL(base)
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v)
  return url.toString()
}

const formOf = (req: Request): URLSearchParams => new URLSearchParams(req.body.toString("utf8"))

const searchOf = (req: Request): string => {
  const q = req.url.indexOf("?")
  return q < 0 ? "" : req.url.slice(q)
}

const QUOTE_TEXT: Readonly<Record<QuoteProblem, TextKey>> = { amount: "invalidParams", currency: "unsupportedCurrency", limits: "amountOutOfRange" }

const langPart = (lang: Lang): string => `language=${lang}`

// ---- the widgets' requests -----------------------------------------------------------------------

/** A verified buy request from a widget URL (MoonPay or Mercuryo). */
interface BuyRequest {
  readonly provider: Provider
  readonly lang: Lang
  /** the signed query, as requested (posted back by the form) */
  readonly widget: string
  readonly crypto: string
  readonly cryptoCode: string
  readonly fiat: string
  readonly fiatAmount: string
  readonly cryptoAmount: string
  readonly feeAmount: string
  readonly address: string
  readonly externalTransactionId: string
  readonly externalCustomerId: string | null
  readonly redirectUrl: string | null
}

const ID_RE = /^[A-Za-z0-9._:-]{1,128}$/

/** MoonPay: the signature over the query as sent (or as a URL parser re-serialises it), then the key and the parameters. */
const moonpayVerified = (search: string, ctx: RampContext, lang: Lang): URLSearchParams => {
  const secret = ctx.credentials.moonpay.secretKey
  let normalised = search
  try {
    normalised = new URL(`http://sandbox/${search}`).search
  } catch {
    // the raw form is checked anyway
  }
  if (!verifyMoonpaySearch(search, secret) && !verifyMoonpaySearch(normalised, secret)) {
    throw refuse("moonpay", lang, "invalidSignature", 403)
  }
  const query = new URLSearchParams(search)
  const apiKey = query.get("apiKey") ?? ""
  if (!sameText(apiKey, ctx.credentials.moonpay.publishableKey)) throw refuse("moonpay", lang, "invalidApiKey", 401)
  return query
}

const externalIds = (provider: Provider, lang: Lang, query: URLSearchParams, idName: string) => {
  const externalTransactionId = query.get(idName) ?? ""
  if (!ID_RE.test(externalTransactionId)) throw refuse(provider, lang, "invalidParams", 400, idName)
  const customer = query.get("externalCustomerId")
  if (customer !== null && !ID_RE.test(customer)) throw refuse(provider, lang, "invalidParams", 400, "externalCustomerId")
  return { externalTransactionId, externalCustomerId: customer }
}

const moonpayBuy = (search: string, ctx: RampContext): BuyRequest => {
  const lang = langOf(new URLSearchParams(search))
  const query = moonpayVerified(search, ctx, lang)
  const crypto = cryptoByCode("moonpay", query.get("currencyCode"))
  if (!crypto) throw refuse("moonpay", lang, "unsupportedCurrency", 400, query.get("currencyCode") ?? "currencyCode")
  const fiat = (query.get("baseCurrencyCode") ?? "").toLowerCase()
  const quote = quoteBuy("moonpay", crypto, fiat, query.get("baseCurrencyAmount"))
  if (typeof quote === "string") throw refuse("moonpay", lang, QUOTE_TEXT[quote], 400, quote === "amount" ? "baseCurrencyAmount" : undefined)
  const address = query.get("walletAddress") ?? ""
  if (!address || address.length > 200) throw refuse("moonpay", lang, "invalidParams", 400, "walletAddress")
  return {
    provider: "moonpay",
    lang,
    widget: search,
    crypto: crypto.symbol,
    cryptoCode: crypto.moonpay,
    fiat,
    ...quote,
    address,
    ...externalIds("moonpay", lang, query, "externalTransactionId"),
    redirectUrl: returnUrl(query.get("redirectURL")),
  }
}

const mercuryoBuy = (search: string, ctx: RampContext): BuyRequest => {
  const query = new URLSearchParams(search)
  const lang = langOf(query)
  const address = query.get("address") ?? ""
  const signature = query.get("signature") ?? ""
  if (!address || !sameText(signature.toLowerCase(), mercuryoWidgetSignature(address, ctx.credentials.mercuryo.secret))) {
    throw refuse("mercuryo", lang, "invalidSignature", 403)
  }
  if (!sameText(query.get("widget_id") ?? "", ctx.credentials.mercuryo.widgetId)) throw refuse("mercuryo", lang, "invalidApiKey", 401)
  if ((query.get("type") ?? "buy") !== "buy") throw refuse("mercuryo", lang, "invalidParams", 400, "type")
  const network = query.get("network")
  if (network !== null && network.toUpperCase() !== "TON") throw refuse("mercuryo", lang, "unsupportedCurrency", 400, network)
  const crypto = cryptoByCode("mercuryo", query.get("currency"))
  if (!crypto) throw refuse("mercuryo", lang, "unsupportedCurrency", 400, query.get("currency") ?? "currency")
  const fiat = (query.get("fiat_currency") ?? "").toLowerCase()
  const quote = quoteBuy("mercuryo", crypto, fiat, query.get("fiat_amount"))
  if (typeof quote === "string") throw refuse("mercuryo", lang, QUOTE_TEXT[quote], 400, quote === "amount" ? "fiat_amount" : undefined)
  const merchantId = query.get("merchant_transaction_id") ?? ""
  if (!ID_RE.test(merchantId)) throw refuse("mercuryo", lang, "invalidParams", 400, "merchant_transaction_id")
  return {
    provider: "mercuryo",
    lang,
    widget: search,
    crypto: crypto.symbol,
    cryptoCode: crypto.mercuryo,
    fiat,
    ...quote,
    address,
    externalTransactionId: merchantId,
    externalCustomerId: null,
    redirectUrl: returnUrl(query.get("redirect_url")),
  }
}

const buyRequest = (provider: Provider, search: string, ctx: RampContext): BuyRequest =>
  provider === "moonpay" ? moonpayBuy(search, ctx) : mercuryoBuy(search, ctx)

// ---- pages ---------------------------------------------------------------------------------------

const BASE: Readonly<Record<Provider, string>> = { moonpay: "/moonpay/buy", mercuryo: "/mercuryo/widget" }

const checkout = (b: BuyRequest, extra?: Pick<Parameters<typeof checkoutPage>[0], "errors" | "values">): Reply =>
  checkoutPage({
    provider: b.provider,
    lang: b.lang,
    action: `${BASE[b.provider]}/checkout`,
    widget: b.widget,
    fiatAmount: b.fiatAmount,
    fiat: b.fiat,
    cryptoAmount: b.cryptoAmount,
    crypto: b.cryptoCode,
    feeAmount: b.feeAmount,
    address: b.address,
    ...extra,
  })

/** Where a buy goes after the form or the challenge: the challenge, the wallet's redirect URL, or the result page. */
const afterBuy = (tx: RampTransaction, lang: Lang): Reply => {
  const base = BASE[tx.provider]
  const challenge = tx.threeDs && tx.status === (tx.provider === "moonpay" ? "waitingAuthorization" : "new")
  if (challenge) return redirect(`${base}/3ds/${encodeURIComponent(tx.id)}?${langPart(lang)}`)
  if (tx.redirectUrl) return redirect(withParams(tx.redirectUrl, { transactionId: tx.id, transactionStatus: tx.status }))
  return redirect(`${base}/transactions/${encodeURIComponent(tx.id)}?${langPart(lang)}`)
}

const cardOutcome = (digits: string): CardOutcome | undefined =>
  digits === TEST_CARDS.approved ? "approved" : digits === TEST_CARDS.declined ? "declined" : digits === TEST_CARDS.threeDs ? "threeDs" : undefined

const expiryValid = (text: string, now: number): boolean => {
  const m = /^(\d{2})\s*\/\s*(\d{2})$/.exec(text.trim())
  if (!m) return false
  const month = Number(m[1])
  const year = 2000 + Number(m[2])
  if (month < 1 || month > 12) return false
  return Date.UTC(year, month, 1) > now
}

const fx = (ctx: RampContext): Effects => ({ now: ctx.now(), reorder: ctx.reorder() })

const buyRoutes = (provider: Provider, ctx: RampContext): Route[] => {
  const base = BASE[provider]
  const esc = base.replace(/\//g, "\\/")
  return [
    {
      method: "GET",
      pattern: new RegExp(`^${esc}\\/?$`),
      handler: async (req) => {
        const b = buyRequest(provider, searchOf(req), ctx)
        const existing = await findByExternalId(ctx.db, provider, b.externalTransactionId)
        return existing ? afterBuy(existing, b.lang) : checkout(b)
      },
    },
    {
      method: "POST",
      pattern: new RegExp(`^${esc}\\/checkout$`),
      handler: async (req) => {
        const form = formOf(req)
        const widget = form.get("widget") ?? ""
        const b = buyRequest(provider, widget.startsWith("?") ? widget : `?${widget}`, ctx)
        const digits = (form.get("card") ?? "").replace(/[\s-]/g, "")
        const expiry = form.get("expiry") ?? ""
        const outcome = cardOutcome(digits)
        const errors: Partial<Record<"card" | "expiry" | "cvc", TextKey>> = {}
        if (!outcome) errors.card = "errCard"
        if (!expiryValid(expiry, ctx.now())) errors.expiry = "errExpiry"
        if (!/^\d{3,4}$/.test((form.get("cvc") ?? "").trim())) errors.cvc = "errCvc"
        if (!outcome || Object.keys(errors).length > 0) {
          return checkout(b, { errors, values: { card: form.get("card") ?? "", expiry, holder: form.get("holder") ?? "" } })
        }
        const tx = await ctx.db.transaction(async (sql) => {
          const effects = fx(ctx)
          const made = await createTransaction(
            sql,
            {
              provider,
              direction: "buy",
              status: initialBuyStatus(provider, outcome),
              externalTransactionId: b.externalTransactionId,
              externalCustomerId: b.externalCustomerId,
              crypto: b.crypto,
              fiat: b.fiat,
              cryptoAmount: b.cryptoAmount,
              fiatAmount: b.fiatAmount,
              feeAmount: b.feeAmount,
              walletAddress: b.address,
              refundAddress: null,
              redirectUrl: b.redirectUrl,
              cardLast4: digits.slice(-4),
              threeDs: outcome === "threeDs",
            },
            effects,
          )
          return made.created ? applyCard(sql, made.tx, outcome, effects) : made.tx
        })
        return afterBuy(tx, b.lang)
      },
    },
    {
      method: "GET",
      pattern: new RegExp(`^${esc}\\/3ds\\/(?<id>[^/]+)$`),
      handler: async (req) => {
        const lang = langOf(req.query)
        const tx = await found(ctx, provider, req.params["id"], lang)
        const waiting = tx.threeDs && tx.status === (provider === "moonpay" ? "waitingAuthorization" : "new")
        return waiting ? challengePage(tx, lang, `${base}/3ds/${encodeURIComponent(tx.id)}?${langPart(lang)}`) : afterBuy(tx, lang)
      },
    },
    {
      method: "POST",
      pattern: new RegExp(`^${esc}\\/3ds\\/(?<id>[^/]+)$`),
      handler: async (req) => {
        const lang = langOf(req.query)
        const tx = await found(ctx, provider, req.params["id"], lang)
        const passed = formOf(req).get("answer") === "pass"
        const moved = await ctx.db.transaction(async (sql) => {
          const effects = fx(ctx)
          return answerChallenge(sql, tx, passed, effects.now + ctx.threeDsDelayMs, effects)
        })
        return afterBuy(moved ?? tx, lang)
      },
    },
    {
      method: "GET",
      pattern: new RegExp(`^${esc}\\/transactions\\/(?<id>[^/]+)$`),
      handler: async (req) => {
        const lang = langOf(req.query)
        return resultPage(await found(ctx, provider, req.params["id"], lang), lang)
      },
    },
  ]
}

const found = async (ctx: RampContext, provider: Provider, id: string | undefined, lang: Lang): Promise<RampTransaction> => {
  const tx = id ? await findTransaction(ctx.db, provider, id) : undefined
  if (!tx) throw refuse(provider, lang, "notFound", 404)
  return tx
}

interface SellRequest {
  readonly lang: Lang
  readonly widget: string
  readonly crypto: string
  readonly cryptoCode: string
  readonly fiat: string
  readonly fiatAmount: string
  readonly cryptoAmount: string
  readonly feeAmount: string
  readonly refundAddress: string | null
  readonly externalTransactionId: string
  readonly externalCustomerId: string | null
  readonly redirectUrl: string | null
}

const moonpaySell = (search: string, ctx: RampContext): SellRequest => {
  const lang = langOf(new URLSearchParams(search))
  const query = moonpayVerified(search, ctx, lang)
  const crypto = cryptoByCode("moonpay", query.get("baseCurrencyCode"))
  if (!crypto) throw refuse("moonpay", lang, "unsupportedCurrency", 400, query.get("baseCurrencyCode") ?? "baseCurrencyCode")
  const fiat = (query.get("quoteCurrencyCode") ?? "").toLowerCase()
  const quote = quoteSell("moonpay", crypto, fiat, query.get("baseCurrencyAmount"))
  if (typeof quote === "string") throw refuse("moonpay", lang, QUOTE_TEXT[quote], 400, quote === "amount" ? "baseCurrencyAmount" : undefined)
  const refund = query.get("refundWalletAddress")
  return {
    lang,
    widget: search,
    crypto: crypto.symbol,
    cryptoCode: crypto.moonpay,
    fiat,
    ...quote,
    refundAddress: refund && refund.length <= 200 ? refund : null,
    ...externalIds("moonpay", lang, query, "externalTransactionId"),
    redirectUrl: returnUrl(query.get("redirectURL")),
  }
}

const depositLocation = (tx: RampTransaction, lang: Lang): string => `/moonpay/sell/transactions/${encodeURIComponent(tx.id)}?${langPart(lang)}`

/** Back to the wallet from the deposit page: MoonPay's sell return parameters. */
const sellReturnUrl = (tx: RampTransaction): string | undefined =>
  tx.redirectUrl
    ? withParams(tx.redirectUrl, {
        transactionId: tx.id,
        transactionStatus: tx.status,
        baseCurrencyCode: cryptoBySymbol(tx.crypto)?.moonpay ?? tx.crypto,
        baseCurrencyAmount: tx.cryptoAmount,
        depositWalletAddress: tx.depositAddress ?? "",
      })
    : undefined

const sellRoutes = (ctx: RampContext): Route[] => [
  {
    method: "GET",
    pattern: /^\/moonpay\/sell\/?$/,
    handler: async (req) => {
      const s = moonpaySell(searchOf(req), ctx)
      const existing = await findByExternalId(ctx.db, "moonpay", s.externalTransactionId)
      if (existing) return redirect(depositLocation(existing, s.lang))
      return sellPage({ ...s, action: "/moonpay/sell/confirm", crypto: s.cryptoCode })
    },
  },
  {
    method: "POST",
    pattern: /^\/moonpay\/sell\/confirm$/,
    handler: async (req) => {
      const widget = formOf(req).get("widget") ?? ""
      const s = moonpaySell(widget.startsWith("?") ? widget : `?${widget}`, ctx)
      const made = await ctx.db.transaction((sql) =>
        createTransaction(
          sql,
          {
            provider: "moonpay",
            direction: "sell",
            status: "waitingForDeposit",
            externalTransactionId: s.externalTransactionId,
            externalCustomerId: s.externalCustomerId,
            crypto: s.crypto,
            fiat: s.fiat,
            cryptoAmount: s.cryptoAmount,
            fiatAmount: s.fiatAmount,
            feeAmount: s.feeAmount,
            walletAddress: null,
            refundAddress: s.refundAddress,
            redirectUrl: s.redirectUrl,
            cardLast4: null,
            threeDs: false,
          },
          fx(ctx),
        ),
      )
      return redirect(depositLocation(made.tx, s.lang))
    },
  },
  {
    method: "GET",
    pattern: /^\/moonpay\/sell\/transactions\/(?<id>[^/]+)$/,
    handler: async (req) => {
      const lang = langOf(req.query)
      const tx = await found(ctx, "moonpay", req.params["id"], lang)
      if (tx.direction !== "sell") throw refuse("moonpay", lang, "notFound", 404)
      const id = encodeURIComponent(tx.id)
      return depositPage(tx, lang, {
        statusUrl: `/moonpay/sell/transactions/${id}/status`,
        cancelAction: `/moonpay/sell/transactions/${id}/cancel?${langPart(lang)}`,
        returnUrl: sellReturnUrl(tx),
      })
    },
  },
  {
    method: "GET",
    pattern: /^\/moonpay\/sell\/transactions\/(?<id>[^/]+)\/status$/,
    handler: async (req) => {
      const tx = req.params["id"] ? await findTransaction(ctx.db, "moonpay", req.params["id"]) : undefined
      if (!tx) throw moonpayError(404, "NotFoundError", "Transaction not found")
      return json({ status: tx.status })
    },
  },
  {
    method: "POST",
    pattern: /^\/moonpay\/sell\/transactions\/(?<id>[^/]+)\/cancel$/,
    handler: async (req) => {
      const lang = langOf(req.query)
      const tx = await found(ctx, "moonpay", req.params["id"], lang)
      if (tx.direction === "sell") await ctx.db.transaction((sql) => cancelSell(sql, tx, fx(ctx)))
      return redirect(depositLocation(tx, lang))
    },
  },
]

// ---- the APIs ------------------------------------------------------------------------------------

const moonpaySecretAuth = (req: Request, ctx: RampContext): boolean => {
  const auth = header(req, "authorization") ?? ""
  const m = /^Api-Key\s+(.+)$/i.exec(auth.trim())
  return m?.[1] !== undefined && sameText(m[1], ctx.credentials.moonpay.secretKey)
}

const requireMoonpay = (req: Request, ctx: RampContext, publishableOk: boolean): void => {
  if (moonpaySecretAuth(req, ctx)) return
  if (publishableOk && sameText(req.query.get("apiKey") ?? "", ctx.credentials.moonpay.publishableKey)) return
  throw moonpayError(401, "UnauthorizedError", "Invalid API key")
}

const apiTransaction = async (ctx: RampContext, direction: "buy" | "sell", by: "id" | "ext", key: string | undefined): Promise<RampTransaction> => {
  const tx = key ? await (by === "id" ? findTransaction(ctx.db, "moonpay", key) : findByExternalId(ctx.db, "moonpay", key)) : undefined
  if (!tx || tx.direction !== direction) throw moonpayError(404, "NotFoundError", "Transaction not found")
  return tx
}

/** The deposit body: optional `cryptoTransactionId` (the chain transaction) and `baseCurrencyAmount` (checked). */
const depositBody = (req: Request): { cryptoTransactionId?: string; amount?: string } => {
  const text = req.body.toString("utf8").trim()
  if (text === "") return {}
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    throw moonpayError(400, "BadRequestError", "The request body is not valid JSON")
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw moonpayError(400, "BadRequestError", "The request body must be an object")
  const body = value as Record<string, unknown>
  const id = body["cryptoTransactionId"]
  const amount = body["baseCurrencyAmount"]
  if (id !== undefined && (typeof id !== "string" || !/^[A-Za-z0-9:_+/=-]{1,200}$/.test(id)))
    throw moonpayError(400, "BadRequestError", "Invalid cryptoTransactionId")
  if (amount !== undefined && typeof amount !== "string" && typeof amount !== "number") throw moonpayError(400, "BadRequestError", "Invalid baseCurrencyAmount")
  return { ...(id !== undefined ? { cryptoTransactionId: id as string } : {}), ...(amount !== undefined ? { amount: String(amount) } : {}) }
}

/** MoonPay's transaction reads: buy (publishable or secret key) and sell (secret key), by its id or by the wallet's. */
const moonpayLookup = (ctx: RampContext, direction: "buy" | "sell", by: "ext" | "id", pattern: RegExp): Route => ({
  method: "GET",
  pattern,
  handler: async (req) => {
    requireMoonpay(req, ctx, direction === "buy")
    return json(moonpayObject(await apiTransaction(ctx, direction, by, req.params[by])))
  },
})

const moonpayApiRoutes = (ctx: RampContext): Route[] => [
  moonpayLookup(ctx, "buy", "ext", /^\/moonpay\/v1\/transactions\/ext\/(?<ext>[^/]+)$/),
  moonpayLookup(ctx, "buy", "id", /^\/moonpay\/v1\/transactions\/(?<id>[^/]+)$/),
  moonpayLookup(ctx, "sell", "ext", /^\/moonpay\/v3\/sell_transactions\/ext\/(?<ext>[^/]+)$/),
  moonpayLookup(ctx, "sell", "id", /^\/moonpay\/v3\/sell_transactions\/(?<id>[^/]+)$/),
  {
    method: "POST",
    pattern: /^\/moonpay\/v3\/sell_transactions\/(?<id>[^/]+)\/deposit$/,
    handler: async (req) => {
      requireMoonpay(req, ctx, false)
      const id = req.params["id"]
      const tx = (id ? await findTransaction(ctx.db, "moonpay", id) : undefined) ?? (id ? await findByExternalId(ctx.db, "moonpay", id) : undefined)
      if (!tx || tx.direction !== "sell") throw moonpayError(404, "NotFoundError", "Transaction not found")
      const body = depositBody(req)
      if (body.amount !== undefined && Number(body.amount) !== Number(tx.cryptoAmount)) {
        throw moonpayError(400, "BadRequestError", `The deposit must be exactly ${tx.cryptoAmount}`)
      }
      if (tx.status === "pending" || tx.status === "completed") return json(moonpayObject(tx))
      if (tx.status !== "waitingForDeposit") throw moonpayError(409, "ConflictError", `The transaction is ${tx.status}`)
      const moved = await ctx.db.transaction(async (sql) => {
        const effects = fx(ctx)
        return markDeposited(sql, tx, body.cryptoTransactionId, effects.now + ctx.settleDelayMs, effects)
      })
      return json(moonpayObject(moved ?? (await apiTransaction(ctx, "sell", "id", tx.id))))
    },
  },
]

const mercuryoApiRoutes = (ctx: RampContext): Route[] => [
  {
    method: "GET",
    pattern: /^\/mercuryo\/v1\.6\/sdk-partner\/transactions$/,
    handler: async (req) => {
      if (!sameText(header(req, "sdk-partner-token") ?? "", ctx.credentials.mercuryo.secret)) throw mercuryoError(401, 403001, "Invalid Sdk-Partner-Token")
      const id = req.query.get("merchant_transaction_id")
      if (!id) throw mercuryoError(400, 400001, "merchant_transaction_id is required")
      const tx = await findByExternalId(ctx.db, "mercuryo", id)
      const data = tx ? [mercuryoObject(tx)] : []
      return json({ status: 200, total: data.length, data })
    },
  },
]

// ---- the server ----------------------------------------------------------------------------------

const MAX_BODY = 64 * 1024

const isApi = (path: string): boolean => /^\/(moonpay\/v\d|mercuryo\/v\d)/.test(path) || path.endsWith("/status")

const handle = async (routes: ReadonlyArray<Route>, raw: http.IncomingMessage, id: string): Promise<Reply> => {
  const method = raw.method ?? "GET"
  const url = raw.url ?? "/"
  const q = url.indexOf("?")
  const path = q < 0 ? url : url.slice(0, q)
  const matched = match(routes, method, path)
  if (!matched) {
    await readBody(raw, 0)
    throw new SumsubError(404, "not found")
  }
  const body = await readBody(raw, MAX_BODY)
  if (body === "oversize") throw new SumsubError(413, "the request body is too large")
  return matched.route.handler({
    method,
    url,
    path,
    query: new URLSearchParams(q < 0 ? "" : url.slice(q + 1)),
    headers: raw.headers,
    body,
    oversize: false,
    correlationId: id,
    params: matched.params,
  })
}

const providerOf = (path: string): Provider => (path.startsWith("/mercuryo") ? "mercuryo" : "moonpay")

const failure = (error: unknown, raw: http.IncomingMessage, log: (line: string) => void, id: string): Reply => {
  if (error instanceof PageReply) return error.reply
  if (error instanceof ApiError) return json(error.body, error.status)
  const url = raw.url ?? "/"
  const path = url.split("?")[0] ?? "/"
  const provider = providerOf(path)
  const known = error instanceof SumsubError
  const status = known ? error.code : 500
  if (!known) log(`ramp ${raw.method} ${url} failed (${id}): ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`)
  const message = known ? error.description : "internal error"
  if (isApi(path)) return json(provider === "moonpay" ? { type: "Error", message, errors: [] } : { status, code: status * 1000, message }, status)
  return errorPage(provider, langOf(new URLSearchParams(url.includes("?") ? url.slice(url.indexOf("?")) : "")), message, status)
}

export const createRampServer = (ctx: RampContext, log: (line: string) => void): http.Server => {
  const routes = [...moonpayApiRoutes(ctx), ...mercuryoApiRoutes(ctx), ...buyRoutes("moonpay", ctx), ...buyRoutes("mercuryo", ctx), ...sellRoutes(ctx)]
  return http.createServer((raw, res) => {
    const id = correlationId()
    handle(routes, raw, id)
      .catch((error: unknown) => failure(error, raw, log, id))
      .then((reply) => {
        if (res.headersSent || res.destroyed) return
        res.writeHead(reply.status, { "x-content-type-options": "nosniff", "cache-control": "no-store", ...reply.headers, "x-request-id": id })
        res.end(raw.method === "HEAD" ? undefined : reply.body)
      })
  })
}
