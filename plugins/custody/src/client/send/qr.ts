/**
 * QR text parsing (spec 1 §5 "QR text parsing", §8 QR scan errors). Pure: no kernel, no React.
 *
 * A scanned text is an address with an optional amount and text (comment), or a wallet deep link.
 * Prefixes stripped: ton-transfer links (`ton://transfer/`, `tonkeeper://transfer/`,
 * `https://app.tonkeeper.com/transfer/`: amount in nano units, divided by 10^9), `ton:`, `bitcoin:`
 * and wallet deep links (`https://t.me/wallet?startapp=…`). Amounts stay decimal strings (never a
 * float): only plain finite decimals pass; a param that fails a check gives the default error.
 */
import { currencyInfo, type NetworkCode } from "../../currencies.ts"

export type QrSource = "ton-transfer" | "ton" | "bitcoin" | "plain"

/** Error types; each has a text under `send.qr.error.<type>`, `default` covers the rest. */
export type QrErrorType = "default" | "unsupported_currency" | "no_asset"

export type QrResult =
  | {
      readonly kind: "address"
      readonly source: QrSource
      readonly address: string
      readonly network: NetworkCode
      /** The custodial currency the address resolves to. */
      readonly currency: string
      /** Canonical decimal string ("1.5") in the currency's units; absent when not given or zero. */
      readonly amount?: string
      readonly text?: string
    }
  | { readonly kind: "deeplink"; readonly startParam: string }
  /** A TonConnect link (`tc://…`, or a universal link with v, id and r): the connect screen's search. */
  | { readonly kind: "tonconnect"; readonly search: Readonly<Record<string, string>> }
  | { readonly kind: "error"; readonly error: QrErrorType }

const error = (type: QrErrorType = "default"): QrResult => ({ kind: "error", error: type })

const TON_RAW = /^-?\d{1,3}:[0-9a-fA-F]{64}$/
const TON_FRIENDLY = /^[A-Za-z0-9_\-+/]{48}$/
const TON_DOMAIN = /^(?:[a-z0-9-]{1,63}\.)+(?:ton|t\.me)$/i
const BITCOIN = /^(?:(?:bc1|tb1|bcrt1)[ac-hj-np-z02-9]{11,87}|[13mn2][a-km-zA-HJ-NP-Z1-9]{25,34})$/
const ETHEREUM = /^0x[0-9a-fA-F]{40}$/
const TRON = /^T[1-9A-HJ-NP-Za-km-z]{33}$/
const SOLANA = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/
const START_PARAM = /^[\w-]{1,512}$/

/** The network and default custodial currency an address belongs to, by its shape; undefined when unknown. */
export function detectAddress(address: string): { readonly network: NetworkCode; readonly currency: string } | undefined {
  if (TON_RAW.test(address) || TON_FRIENDLY.test(address) || TON_DOMAIN.test(address)) return { network: "ton", currency: "TON" }
  if (ETHEREUM.test(address)) return { network: "ethereum", currency: "ETH" }
  if (TRON.test(address)) return { network: "tron", currency: "USDT" }
  if (BITCOIN.test(address)) return { network: "bitcoin", currency: "BTC" }
  if (SOLANA.test(address)) return { network: "solana", currency: "SOL" }
  return undefined
}

const DECIMAL = /^\d+(?:\.\d+)?$/
const NANO = /^\d+$/

/** Canonical form of a decimal string: no leading zeros, no trailing fraction zeros ("007.50" -> "7.5"). */
export function canonicalDecimal(value: string): string {
  const [intPart = "0", frac = ""] = value.split(".")
  const int = intPart.replace(/^0+(?=\d)/, "")
  const trimmed = frac.replace(/0+$/, "")
  return trimmed === "" ? int : `${int}.${trimmed}`
}

/** Nano units (an integer string) as a decimal string of whole units: "1500000000" -> "1.5". */
export function nanoToDecimal(nano: string, decimals = 9): string {
  const digits = nano.replace(/^0+(?=\d)/, "").padStart(decimals + 1, "0")
  return canonicalDecimal(`${digits.slice(0, digits.length - decimals)}.${digits.slice(digits.length - decimals)}`)
}

const fractionDigits = (value: string) => value.split(".")[1]?.length ?? 0

/** Params that change what a link means; the app cannot honour them, so the link is refused. */
const REFUSED_PARAMS = new Set(["bin", "init", "stateInit", "exp", "jetton", "nft"])

interface Split {
  readonly target: string
  readonly params: URLSearchParams
}

const splitQuery = (rest: string): Split | undefined => {
  const q = rest.indexOf("?")
  const rawTarget = q === -1 ? rest : rest.slice(0, q)
  let target: string
  try {
    target = decodeURIComponent(rawTarget).replace(/\/+$/, "")
  } catch {
    return undefined
  }
  return { target, params: new URLSearchParams(q === -1 ? "" : rest.slice(q + 1)) }
}

const TON_TRANSFER_PREFIXES = ["ton://transfer/", "tonkeeper://transfer/", "https://app.tonkeeper.com/transfer/"]
const WALLET_LINK = /^(?:https?:\/\/)?t\.me\/wallet(?:\/start|\/app)?\/?\?(.*)$/i
const TG_RESOLVE = /^tg:\/\/resolve\?(.*)$/i

const startsWithCi = (text: string, prefix: string) => text.slice(0, prefix.length).toLowerCase() === prefix.toLowerCase()

/** `tc://?v=…&id=…&r=…` or `https://<wallet>/…?v=…&id=…&r=…`: the TonConnect plugin's connect screen takes it. */
const tonConnectSearch = (text: string): Record<string, string> | undefined => {
  const scheme = /^(tc:\/\/|https?:\/\/)[^?]*\?(.*)$/i.exec(text)
  if (!scheme) return undefined
  const params = new URLSearchParams(scheme[2])
  const tc = scheme[1]!.toLowerCase() === "tc://"
  if (!tc && !(params.has("v") && params.has("id") && params.has("r"))) return undefined
  const search: Record<string, string> = {}
  for (const key of ["v", "id", "r", "ret"]) {
    const value = params.get(key)
    if (value !== null) search[key] = value
  }
  return search
}

/** Parses a scanned text (spec 1 §5). Never throws. */
export function parseQr(input: string): QrResult {
  const text = input.trim()
  if (text === "" || text.length > 4096) return error()

  const tonConnect = tonConnectSearch(text)
  if (tonConnect) return { kind: "tonconnect", search: tonConnect }

  const wallet = WALLET_LINK.exec(text) ?? TG_RESOLVE.exec(text)
  if (wallet) {
    const params = new URLSearchParams(wallet[1])
    if (TG_RESOLVE.test(text) && params.get("domain")?.toLowerCase() !== "wallet") return error()
    const startParam = params.get("startapp") ?? params.get("start") ?? ""
    return START_PARAM.test(startParam) ? { kind: "deeplink", startParam } : error()
  }

  let source: QrSource = "plain"
  let rest = text
  const transferPrefix = TON_TRANSFER_PREFIXES.find((prefix) => startsWithCi(text, prefix))
  if (transferPrefix) {
    source = "ton-transfer"
    rest = text.slice(transferPrefix.length)
  } else if (startsWithCi(text, "ton:")) {
    source = "ton"
    rest = text.slice("ton:".length).replace(/^\/\//, "")
  } else if (startsWithCi(text, "bitcoin:")) {
    source = "bitcoin"
    rest = text.slice("bitcoin:".length)
  } else if (/^[a-z][a-z0-9+.-]*:/i.test(text) && !TON_RAW.test(text.split("?")[0]!)) {
    // Some other scheme (http:, ethereum:, mailto:, …): not a payment the wallet understands.
    return error()
  }

  const split = splitQuery(rest)
  if (!split || split.target === "") return error()
  const { target, params } = split
  for (const key of params.keys()) {
    if (REFUSED_PARAMS.has(key) || key.startsWith("req-")) return error(key === "jetton" || key === "nft" ? "unsupported_currency" : "default")
  }

  const detected = detectAddress(target)
  if (!detected) return error()
  if ((source === "ton-transfer" || source === "ton") && detected.network !== "ton") return error()
  if (source === "bitcoin" && detected.network !== "bitcoin") return error()
  const info = currencyInfo(detected.currency)
  if (!info || !info.networks.includes(detected.network)) return error("unsupported_currency")

  let amount: string | undefined
  const rawAmount = params.get("amount")
  if (rawAmount !== null) {
    if (source === "ton-transfer") {
      if (!NANO.test(rawAmount) || rawAmount.length > 30) return error()
      amount = nanoToDecimal(rawAmount, 9)
    } else {
      if (!DECIMAL.test(rawAmount) || rawAmount.length > 40) return error()
      amount = canonicalDecimal(rawAmount)
    }
    if (fractionDigits(amount) > info.decimals) return error()
    if (amount === "0") amount = undefined
  }

  const rawText = params.get("text")
  const comment = rawText === null ? undefined : rawText.trim()
  if (comment !== undefined && comment.length > 512) return error()

  return {
    kind: "address",
    source,
    address: target,
    network: detected.network,
    currency: detected.currency,
    ...(amount !== undefined ? { amount } : {}),
    ...(comment ? { text: comment } : {}),
  }
}
