/**
 * The exchange screens' pure logic: the pair a search asks for, the side the user types, the swap, the
 * countdown of a quote by the server's clock, the message key of a refusal, the currency search.
 */
import type { ExchangeSettings, Quote } from "../api.ts"
import type { ExchangeMode, TradingMode } from "../domain.ts"

export type ExchangeCurrency = ExchangeSettings["currencies"][number]

/**
 * The pair to show: the asked currencies when offered and different, else USDT and TON (or the first
 * offered ones). A trading mode puts the stock side: buy receives it, sell pays with it.
 */
export const pickPair = (
  currencies: ReadonlyArray<ExchangeCurrency>,
  asked: { readonly pay?: string | undefined; readonly receive?: string | undefined; readonly tradingMode?: TradingMode | undefined },
): { readonly pay: string; readonly receive: string } => {
  const codes = currencies.map((currency) => currency.code)
  const known = (code: string | undefined) => (code !== undefined && codes.includes(code) ? code : undefined)
  let pay = known(asked.pay)
  let receive = known(asked.receive)
  if (asked.tradingMode === "sell" && pay === undefined && receive !== undefined) [pay, receive] = [receive, undefined]
  const fallback = (not: string | undefined, first: string) => (first !== not && codes.includes(first) ? first : codes.find((code) => code !== not)!)
  if (pay === undefined) pay = fallback(receive, receive === "USDT" ? "TON" : "USDT")
  if (receive === undefined || receive === pay) receive = fallback(pay, pay === "TON" ? "USDT" : "TON")
  return { pay, receive }
}

/** Minor units of a typed decimal, or null when empty or malformed or more precise than the currency. */
export const parseUnits = (text: string, decimals: number): bigint | null => {
  const match = /^(\d+)(?:[.,](\d*))?$/.exec(text.trim())
  if (match === null) return null
  const fraction = match[2] ?? ""
  if (fraction.length > decimals) return null
  return BigInt(match[1]!) * 10n ** BigInt(decimals) + BigInt(fraction.padEnd(decimals, "0") || "0")
}

/** The typed decimal as the API takes it ("1,5" -> "1.5", no trailing dot). */
export const apiAmount = (text: string): string => text.trim().replace(",", ".").replace(/\.$/, "")

/** The swap button: the other side pays, the typed value moves with its currency. */
export const swapped = (state: { readonly pay: string; readonly receive: string; readonly mode: ExchangeMode; readonly text: string }) => ({
  pay: state.receive,
  receive: state.pay,
  mode: (state.mode === "pay" ? "receive" : "pay") as ExchangeMode,
  text: state.text,
})

/** Whole seconds the quote has left: its validity by the server's clock, less what passed here since it arrived. */
export const secondsLeft = (quote: Pick<Quote, "expiresAt" | "serverTime">, receivedAt: number, now: number): number => {
  const left = new Date(quote.expiresAt).getTime() - new Date(quote.serverTime).getTime() - (now - receivedAt)
  return Math.max(0, Math.ceil(left / 1000))
}

/** The i18n key of a refusal code (unknown ones: the generic error). */
export const errorKey = (code: string | undefined): string => {
  switch (code) {
    case "amount_too_small":
    case "amount_too_large":
    case "insufficient_balance":
    case "insufficient_liquidity":
    case "pair_not_offered":
    case "trading_closed":
    case "rates_unavailable":
    case "invalid_amount":
    case "quote_not_found":
    case "exchange_unavailable":
    case "stocks_unavailable":
      return `error.${code}`
    case "region_restricted":
      return "error_region_restricted"
    default:
      return "error.generic"
  }
}

/** Currencies matching a search by code or name, case-insensitive, without `exclude`. */
export const searchCurrencies = (currencies: ReadonlyArray<ExchangeCurrency>, query: string, exclude?: string): ReadonlyArray<ExchangeCurrency> => {
  const q = query.trim().toLowerCase()
  return currencies.filter((c) => c.code !== exclude && (q === "" || c.code.toLowerCase().includes(q) || c.name.toLowerCase().includes(q)))
}

/** The pair needs the market open and it is closed now (by the server's clock, as the settings said). */
export const marketClosedFor = (settings: Pick<ExchangeSettings, "currencies" | "marketOpen">, pay: string, receive: string): boolean =>
  !settings.marketOpen && settings.currencies.some((c) => (c.code === pay || c.code === receive) && c.marketHours)

/** Where a finished exchange goes: the successRedirect path when it is a plain in-app path (no scheme, host or query), else the received asset. */
export const successTarget = (successRedirect: string | undefined, receiveCurrency: string): { readonly path: string } | { readonly asset: string } =>
  successRedirect !== undefined && /^\/[A-Za-z0-9/_-]*$/.test(successRedirect) && !successRedirect.startsWith("//")
    ? { path: successRedirect }
    : { asset: receiveCurrency }

/** A rate for reading: about `significant` significant digits, cut (not rounded; display only). */
export const shortRate = (rate: string, significant = 6): string => {
  const [whole = "0", fraction = ""] = rate.split(".")
  const lead = whole === "0" ? (/^0*/.exec(fraction)?.[0].length ?? 0) : 0
  const room = whole === "0" ? lead + significant : Math.max(0, significant - whole.length)
  const cut = fraction.slice(0, room).replace(/0+$/, "")
  return cut === "" ? whole : `${whole}.${cut}`
}
