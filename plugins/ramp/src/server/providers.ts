/**
 * The providers on the wire (issue 23 wire; MoonPay's and Mercuryo's published protocols): widget
 * URLs signed by the server, webhook signatures checked over the RAW body, the transaction status
 * APIs and the sandbox's sell-deposit stand-in. The same code serves the sandboxes and the real
 * providers; only the config differs (`sandbox` puts the API paths under `/moonpay` and `/mercuryo`).
 */
import { createHash, createHmac, timingSafeEqual } from "node:crypto"
import { MoonPay } from "@moonpay/moonpay-node"
import { Effect, Schema } from "effect"
import { mercuryoStatus, moonpayStatus, providerCurrencyCode, type Direction, type Provider, type RampCurrency, type RampStatus } from "../domain.ts"
import type { MercuryoConfig, MoonpayConfig, RampConfig } from "./config.ts"

/** A provider's word about one ramp transaction, whether from a webhook or its status API. */
export interface ProviderEvent {
  readonly provider: Provider
  readonly direction: Direction
  /** The wallet's ramp transaction id (`externalTransactionId` / `merchant_transaction_id`). */
  readonly rampId: string
  readonly providerId: string | null
  readonly rawStatus: string
  readonly status: RampStatus
  /** Crypto amount as the provider reported it (MoonPay buy: quoteCurrencyAmount; sell: baseCurrencyAmount; Mercuryo: amount). */
  readonly cryptoAmount: unknown
  readonly fiatAmount: unknown
  /** The provider's crypto code when it names one. */
  readonly currencyCode: string | null
  readonly failureReason: string | null
}

export type Verified =
  | { readonly ok: true; readonly event: ProviderEvent | undefined; readonly type: string }
  | { readonly ok: false; readonly code: string; readonly message: string }

/** Webhooks older (or newer) than this by their signed timestamp are refused as replays. */
export const WEBHOOK_TOLERANCE_SECONDS = 300

const sameBytes = (a: Buffer, b: Buffer) => a.length === b.length && timingSafeEqual(a, b)
const hexEqual = (given: string, expected: Buffer) => /^[0-9a-f]+$/i.test(given) && sameBytes(Buffer.from(given, "hex"), expected)

// --- MoonPay -------------------------------------------------------------------------------------

const MoonpayTransaction = Schema.Struct({
  id: Schema.String,
  status: Schema.String,
  externalTransactionId: Schema.optional(Schema.NullOr(Schema.String)),
  baseCurrencyAmount: Schema.optional(Schema.NullOr(Schema.Union([Schema.Number, Schema.String]))),
  quoteCurrencyAmount: Schema.optional(Schema.NullOr(Schema.Union([Schema.Number, Schema.String]))),
  failureReason: Schema.optional(Schema.NullOr(Schema.String)),
  currency: Schema.optional(Schema.NullOr(Schema.Struct({ code: Schema.String }))),
  quoteCurrency: Schema.optional(Schema.NullOr(Schema.Struct({ code: Schema.String }))),
  baseCurrency: Schema.optional(Schema.NullOr(Schema.Struct({ code: Schema.String }))),
})
type MoonpayTransaction = typeof MoonpayTransaction.Type
const MoonpayWebhook = Schema.Struct({ type: Schema.String, data: MoonpayTransaction, externalCustomerId: Schema.optional(Schema.NullOr(Schema.String)) })
const decodeMoonpayWebhook = Schema.decodeUnknownSync(MoonpayWebhook)
const decodeMoonpayTransaction = Schema.decodeUnknownSync(MoonpayTransaction)

const moonpayEvent = (data: MoonpayTransaction, direction: Direction): ProviderEvent | undefined => {
  const status = moonpayStatus(data.status)
  if (status === undefined || typeof data.externalTransactionId !== "string") return undefined
  return {
    provider: "moonpay",
    direction,
    rampId: data.externalTransactionId,
    providerId: data.id,
    rawStatus: data.status,
    status,
    cryptoAmount: direction === "buy" ? data.quoteCurrencyAmount : data.baseCurrencyAmount,
    fiatAmount: direction === "buy" ? data.baseCurrencyAmount : data.quoteCurrencyAmount,
    currencyCode: (direction === "buy" ? (data.currency ?? data.quoteCurrency) : data.baseCurrency)?.code ?? null,
    failureReason: data.failureReason ?? null,
  }
}

/** `Moonpay-Signature-V2: t=<unix s>,s=<hex HMAC-SHA256("<t>.<raw body>", webhook key)>`, within the tolerance. */
export const verifyMoonpayWebhook = (config: MoonpayConfig, raw: Uint8Array, header: string | undefined, nowMs: number): Verified => {
  const parts = Object.fromEntries((header ?? "").split(",").map((part) => part.trim().split("=", 2) as [string, string]))
  const t = parts.t
  const s = parts.s
  if (t === undefined || s === undefined || !/^\d{1,12}$/.test(t))
    return { ok: false, code: "webhook_signature_invalid", message: "Moonpay-Signature-V2 is missing or malformed" }
  const expected = createHmac("sha256", config.webhookKey).update(`${t}.`).update(raw).digest()
  if (!hexEqual(s, expected)) return { ok: false, code: "webhook_signature_invalid", message: "the signature does not match the body" }
  if (Math.abs(nowMs / 1000 - Number(t)) > WEBHOOK_TOLERANCE_SECONDS)
    return { ok: false, code: "webhook_timestamp_stale", message: "the signed timestamp is more than 5 minutes away (a replay)" }
  try {
    const body = decodeMoonpayWebhook(JSON.parse(Buffer.from(raw).toString("utf8")))
    const direction: Direction = body.type.startsWith("sell_") ? "sell" : "buy"
    return { ok: true, type: body.type, event: moonpayEvent(body.data, direction) }
  } catch {
    return { ok: false, code: "invalid_request", message: "the body is not a MoonPay webhook" }
  }
}

/** `@moonpay/moonpay-node` signs the URL's search ("?" included) and appends `signature` as its last parameter. */
const signMoonpay = (config: MoonpayConfig, url: string): string => {
  const signed = new MoonPay(config.secretKey).url.generateSignature(url, { returnFullUrl: true })
  if (signed === null) throw new Error("the MoonPay widget URL could not be signed")
  return signed
}

/** The buy widget URL, signed as `@moonpay/moonpay-node` signs it (the signature is the last parameter). */
export const moonpayBuyUrl = (
  config: MoonpayConfig,
  input: {
    currency: RampCurrency
    walletAddress: string
    fiat: string
    fiatAmount: string
    rampId: string
    userId: number
    redirectUrl: string
    paymentMethod?: string
  },
): string => {
  const query = new URLSearchParams({
    apiKey: config.publishableKey,
    currencyCode: providerCurrencyCode("moonpay", input.currency),
    walletAddress: input.walletAddress,
    baseCurrencyCode: input.fiat.toLowerCase(),
    baseCurrencyAmount: input.fiatAmount,
    externalTransactionId: input.rampId,
    externalCustomerId: String(input.userId),
    redirectURL: input.redirectUrl,
    ...(input.paymentMethod !== undefined ? { paymentMethod: moonpayMethod(input.paymentMethod) } : {}),
  })
  return signMoonpay(config, `${config.widgetUrl}?${query.toString()}`)
}

const moonpayMethod = (method: string) =>
  method === "card" ? "credit_debit_card" : method === "sepa" ? "sepa_bank_transfer" : method === "pix" ? "pix_instant_payment" : method

export const moonpaySellUrl = (
  config: MoonpayConfig,
  input: { currency: RampCurrency; cryptoAmount: string; fiat: string; rampId: string; userId: number; refundAddress: string; redirectUrl: string },
): string => {
  const query = new URLSearchParams({
    apiKey: config.publishableKey,
    baseCurrencyCode: providerCurrencyCode("moonpay", input.currency),
    baseCurrencyAmount: input.cryptoAmount,
    quoteCurrencyCode: input.fiat.toLowerCase(),
    externalTransactionId: input.rampId,
    externalCustomerId: String(input.userId),
    refundWalletAddress: input.refundAddress,
    redirectURL: input.redirectUrl,
  })
  return signMoonpay(config, `${config.sellWidgetUrl}?${query.toString()}`)
}

// --- Mercuryo ------------------------------------------------------------------------------------

const MercuryoData = Schema.Struct({
  id: Schema.optional(Schema.NullOr(Schema.Union([Schema.String, Schema.Number]))),
  status: Schema.String,
  amount: Schema.optional(Schema.NullOr(Schema.Union([Schema.Number, Schema.String]))),
  currency: Schema.optional(Schema.NullOr(Schema.String)),
  fiat_amount: Schema.optional(Schema.NullOr(Schema.Union([Schema.Number, Schema.String]))),
  fiat_currency: Schema.optional(Schema.NullOr(Schema.String)),
  merchant_transaction_id: Schema.optional(Schema.NullOr(Schema.String)),
})
type MercuryoData = typeof MercuryoData.Type
const MercuryoCallback = Schema.Struct({ payload: Schema.Struct({ type: Schema.String, data: MercuryoData }) })
const decodeMercuryoCallback = Schema.decodeUnknownSync(MercuryoCallback)

const mercuryoEvent = (data: MercuryoData): ProviderEvent | undefined => {
  const status = mercuryoStatus(data.status)
  if (status === undefined || typeof data.merchant_transaction_id !== "string") return undefined
  return {
    provider: "mercuryo",
    direction: "buy",
    rampId: data.merchant_transaction_id,
    providerId: data.id === undefined || data.id === null ? null : String(data.id),
    rawStatus: data.status,
    status,
    cryptoAmount: data.amount,
    fiatAmount: data.fiat_amount,
    currencyCode: data.currency ?? null,
    failureReason: status === "FAILED" ? data.status : null,
  }
}

/** `X-Signature: <hex HMAC-SHA256(raw body, sign key)>`. */
export const verifyMercuryoCallback = (config: MercuryoConfig, raw: Uint8Array, header: string | undefined): Verified => {
  if (header === undefined || !hexEqual(header, createHmac("sha256", config.signKey).update(raw).digest()))
    return { ok: false, code: "webhook_signature_invalid", message: "X-Signature does not match the body" }
  try {
    const body = decodeMercuryoCallback(JSON.parse(Buffer.from(raw).toString("utf8")))
    return { ok: true, type: body.payload.type, event: body.payload.type === "buy" ? mercuryoEvent(body.payload.data) : undefined }
  } catch {
    return { ok: false, code: "invalid_request", message: "the body is not a Mercuryo callback" }
  }
}

/** Mercuryo's v1 widget signature: hex SHA-512 of address + secret. */
export const mercuryoSignature = (address: string, secret: string) =>
  createHash("sha512")
    .update(address + secret, "utf8")
    .digest("hex")

export const mercuryoBuyUrl = (
  config: MercuryoConfig,
  input: { currency: RampCurrency; address: string; fiat: string; fiatAmount: string; rampId: string; redirectUrl: string },
): string => {
  const query = new URLSearchParams({
    widget_id: config.widgetId,
    type: "buy",
    currency: providerCurrencyCode("mercuryo", input.currency),
    network: "TON",
    fiat_currency: input.fiat,
    fiat_amount: input.fiatAmount,
    address: input.address,
    merchant_transaction_id: input.rampId,
    redirect_url: input.redirectUrl,
    signature: mercuryoSignature(input.address, config.secret),
  })
  return `${config.widgetUrl}?${query.toString()}`
}

// --- status APIs and the sandbox deposit ---------------------------------------------------------

const CALL_TIMEOUT_MS = 5_000

const getJson = (url: string, headers: Record<string, string>, method: "GET" | "POST" = "GET") =>
  Effect.tryPromise({
    try: async (signal) => {
      const response = await fetch(url, {
        method,
        headers: { accept: "application/json", ...headers },
        signal: AbortSignal.any([signal, AbortSignal.timeout(CALL_TIMEOUT_MS)]),
      })
      if (response.status === 404) return undefined
      if (!response.ok) throw new Error(`the provider answered ${response.status} to ${method} ${url.split("?")[0]}`)
      const text = await response.text()
      return text === "" ? {} : (JSON.parse(text) as unknown)
    },
    catch: (error) => new Error(error instanceof Error ? error.message : String(error)),
  })

const first = (value: unknown): unknown => (Array.isArray(value) ? value[value.length - 1] : value)

/** The provider's current word about a ramp transaction (undefined: it does not know it, or did not answer). */
export const fetchStatus = (config: RampConfig, provider: Provider, direction: Direction, rampId: string): Effect.Effect<ProviderEvent | undefined> => {
  if (provider === "moonpay") {
    const moonpay = config.moonpay
    if (moonpay === undefined) return Effect.succeed(undefined)
    const base = `${moonpay.apiUrl}${config.sandbox ? "/moonpay" : ""}`
    const path = direction === "buy" ? `/v1/transactions/ext/${encodeURIComponent(rampId)}` : `/v3/sell_transactions/ext/${encodeURIComponent(rampId)}`
    return getJson(`${base}${path}?apiKey=${encodeURIComponent(moonpay.publishableKey)}`, { authorization: `Api-Key ${moonpay.secretKey}` }).pipe(
      Effect.map((body) => {
        if (body === undefined) return undefined
        const event = moonpayEvent(decodeMoonpayTransaction(first(body)), direction)
        return event?.rampId === rampId ? event : undefined
      }),
      Effect.catch(() => Effect.succeed(undefined)),
      Effect.catchDefect(() => Effect.succeed(undefined)),
    )
  }
  const mercuryo = config.mercuryo
  if (mercuryo === undefined) return Effect.succeed(undefined)
  const base = `${mercuryo.apiUrl}${config.sandbox ? "/mercuryo" : ""}`
  return getJson(`${base}/v1.6/sdk-partner/transactions?merchant_transaction_id=${encodeURIComponent(rampId)}`, { "sdk-partner-token": mercuryo.secret }).pipe(
    Effect.map((body) => {
      if (body === undefined) return undefined
      const data = (body as { data?: unknown }).data ?? body
      const item = first(data) as Record<string, unknown> | undefined
      // Mercuryo nests the transaction under its type in some answers ({ buy: {...} }).
      const tx = item !== undefined && typeof item === "object" && "buy" in item && typeof item.buy === "object" ? item.buy : item
      const event = mercuryoEvent(Schema.decodeUnknownSync(MercuryoData)(tx))
      return event?.rampId === rampId ? event : undefined
    }),
    Effect.catch(() => Effect.succeed(undefined)),
    Effect.catchDefect(() => Effect.succeed(undefined)),
  )
}

/**
 * The sandbox's stand-in for the chain deposit MoonPay watches (wire: `POST <apiUrl>/moonpay/v3/
 * sell_transactions/<id>/deposit` with the secret key): the crypto is already held in the Ledger.
 */
export const notifySellDeposit = (config: RampConfig, moonpayId: string) => {
  const moonpay = config.moonpay
  if (moonpay === undefined || !config.sandbox) return Effect.void
  return getJson(
    `${moonpay.apiUrl}/moonpay/v3/sell_transactions/${encodeURIComponent(moonpayId)}/deposit`,
    { authorization: `Api-Key ${moonpay.secretKey}` },
    "POST",
  ).pipe(Effect.asVoid)
}
