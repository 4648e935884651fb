/**
 * The screens' logic without React or TON code: route search -> connect parameters, errors -> the
 * text to show, a dApp request (+ its emulation) -> what the request screen lists. Amounts stay
 * bigint minor units and are formatted as strings (never floats).
 */
// First: the engine modules below load @ton/crypto, which reads the Buffer global at evaluation
// (the routes also install it before this chunk loads: manifest.ts `withBuffer`).
export { BUFFER_INSTALLED } from "../engine/buffer-shim.ts"
import { Effect } from "effect"
import { formatUnits, shortAddress } from "@wallet/kernel"
import type { MessageConsequences } from "@wallet/kernel/chain"
import { decodeStartParam, MISSING_PARAMS_MESSAGE, parseConnectParams, type ConnectLink, type ConnectParams } from "../engine/links.ts"
import { CONNECT_EVENT_ERROR_CODES, SEND_TRANSACTION_ERROR_CODES } from "@tonconnect/protocol"
import type { TransactionRequest } from "../engine/transaction.ts"
import { walletConnectAvailability, type WalletConnectAvailability } from "../engine/availability.ts"

export { MISSING_PARAMS_MESSAGE }

/** The search of /scw/tc/connect and /scw/tc/connect/qr: the link's v, id, r, ret, or a packed `startapp` (the deep link's rest). */
export interface ConnectSearch {
  readonly v?: string | undefined
  readonly id?: string | undefined
  /** JSON text; the router may have parsed it into an object already. */
  readonly r?: unknown
  readonly ret?: string | undefined
  readonly startapp?: string | undefined
}

/**
 * The connect parameters of a route search. The startapp deep link arrives packed (the part after
 * `tonconnect-`, in Telegram's start-param alphabet); explicit v / id / r win over it.
 */
export const connectParamsOf = (search: ConnectSearch): ConnectParams => {
  if (search.startapp && search.v === undefined && search.id === undefined && search.r === undefined) {
    const query = new URLSearchParams(decodeStartParam(search.startapp))
    return {
      v: query.get("v") ?? undefined,
      id: query.get("id") ?? undefined,
      r: query.get("r") ?? undefined,
      ret: query.get("ret") ?? undefined,
    }
  }
  const r = typeof search.r === "string" ? search.r : search.r !== undefined && search.r !== null ? JSON.stringify(search.r) : undefined
  return { v: search.v, id: search.id, r, ret: search.ret }
}

/** The text key for a failure of the connect flow (keys under `connect.error.*`). */
export type ConnectErrorKey = "missingParams" | "badLink" | "manifestNotFound" | "manifestContent" | "network" | "bridge" | "unknown"

export const linkErrorKey = (reason: string): ConnectErrorKey => (reason === "MissingParams" ? "missingParams" : "badLink")

export const manifestErrorKey = (code: number): ConnectErrorKey =>
  code === CONNECT_EVENT_ERROR_CODES.MANIFEST_NOT_FOUND_ERROR
    ? "manifestNotFound"
    : code === CONNECT_EVENT_ERROR_CODES.MANIFEST_CONTENT_ERROR
      ? "manifestContent"
      : "unknown"

/** Any failure of prepare / approve, by its tag and fields. */
export const connectErrorKey = (error: unknown): ConnectErrorKey => {
  const e = error as { _tag?: string; code?: number; reason?: string } | null
  switch (e?._tag) {
    case "ConnectLinkError":
      return linkErrorKey(e.reason ?? "")
    case "ManifestError":
      return manifestErrorKey(e.code ?? -1)
    case "RequestError":
      return e.code === SEND_TRANSACTION_ERROR_CODES.BAD_REQUEST_ERROR ? "network" : "unknown"
    case "BridgeError":
      return "bridge"
    default:
      return "unknown"
  }
}

/** Why wallet-connect is unavailable on this client (keys under `connect.unavailable.*`), or null. */
export const unavailableKey = (availability: WalletConnectAvailability): "platform" | "version" | null => (availability.available ? null : availability.reason)

/** Where the connect screen starts: a checked link, the spec's link error, or why this client cannot connect. */
export type ConnectStart =
  | { readonly kind: "link"; readonly link: ConnectLink }
  | { readonly kind: "error"; readonly key: ConnectErrorKey }
  | { readonly kind: "unavailable"; readonly reason: "platform" | "version" }

export const connectStart = (search: ConnectSearch, client: { readonly platform: string; readonly version: string }): ConnectStart => {
  const parsed = Effect.runSync(Effect.result(parseConnectParams(connectParamsOf(search))))
  if (parsed._tag === "Failure") return { kind: "error", key: linkErrorKey(parsed.failure.reason) }
  const reason = unavailableKey(walletConnectAvailability(client.platform, client.version))
  if (reason) return { kind: "unavailable", reason }
  return { kind: "link", link: parsed.success }
}

/** The wallet versions the engine signs for; others cannot connect (yet). */
export const engineVersionOf = (walletClass: string): "v5r1" | "v4r2" | null => (walletClass === "v5r1" || walletClass === "v4r2" ? walletClass : null)

/** Display amounts and short addresses: the kernel's (decision 0130). */
export { formatUnits, shortAddress } from "@wallet/kernel"

export const formatTon = (nano: bigint, maxDecimals = 9): string => `${formatUnits(nano, 9, maxDecimals)} TON`

/** Seconds left before valid_until (0 when passed); undefined without a deadline. */
export const secondsLeft = (validUntil: number | undefined, nowSeconds: number): number | undefined =>
  validUntil === undefined ? undefined : Math.max(0, validUntil - nowSeconds)

export const formatCountdown = (seconds: number): string => `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`

/** One line of the request screen per dApp message. */
export type MessageRow =
  | { readonly kind: "ton"; readonly to: string; readonly amount: string; readonly comment?: string; readonly encrypted?: boolean }
  | {
      readonly kind: "jetton"
      readonly to: string
      readonly jettonWallet: string
      readonly units: bigint
      /** "2.5 USDT" once the emulation named the jetton of that wallet. */
      readonly amount?: string
      readonly attached: string
      readonly comment?: string
    }
  | { readonly kind: "nft"; readonly item: string; readonly to: string; readonly attached: string }
  | { readonly kind: "call"; readonly to: string; readonly amount: string; readonly op: string }

/** What leaves the wallet according to the emulation. */
export interface Outflow {
  readonly ton: bigint
  readonly jettons: ReadonlyArray<{ readonly symbol: string; readonly amount: string; readonly verified: boolean }>
  readonly nfts: ReadonlyArray<{ readonly name: string; readonly address: string }>
  /** Network fee (the event's negative `extra`), when known. */
  readonly fee: bigint | undefined
  readonly allRemainingBalance: boolean
}

export type Risk = "none" | "failed" | "scam" | "allBalance"

export interface TransactionView {
  readonly rows: ReadonlyArray<MessageRow>
  /** TON attached to the messages (what the request itself says). */
  readonly attachedTon: bigint
  readonly outflow?: Outflow
  /** The strongest warning the emulation gives. */
  readonly risk: Risk
  readonly validUntil?: number
}

/** Addresses are shown in their friendly form when the caller can convert (the TON chunk), else short raw. */
export type AddressFormatter = (raw: string, bounceable: boolean) => string

export const transactionView = (
  request: TransactionRequest,
  consequences: MessageConsequences | undefined,
  format: AddressFormatter = (a) => a,
): TransactionView => {
  const rows: Array<MessageRow> = request.messages.map((m) => {
    // Shown as the dApp flagged it: a non-bounceable address stays UQ… (a new wallet, a user).
    const to = format(m.to, m.bounce)
    const amount = formatTon(m.amount)
    switch (m.action.kind) {
      case "ton":
        return {
          kind: "ton",
          to,
          amount,
          ...(m.action.comment !== undefined ? { comment: m.action.comment } : {}),
          ...(m.action.encryptedComment ? { encrypted: true } : {}),
        }
      case "jetton":
        return {
          kind: "jetton",
          to: format(m.action.recipient, true),
          jettonWallet: to,
          units: m.action.jettonAmount,
          attached: amount,
          ...(m.action.comment !== undefined ? { comment: m.action.comment } : {}),
        }
      case "nft":
        return { kind: "nft", item: to, to: format(m.action.newOwner, true), attached: amount }
      case "call":
        return { kind: "call", to, amount, op: m.action.op < 0 ? "—" : `0x${m.action.op.toString(16).padStart(8, "0")}` }
    }
  })
  const attachedTon = request.messages.reduce((sum, m) => sum + m.amount, 0n)
  // A jetton transfer goes to the sender's jetton wallet: the emulation says which jetton that is.
  const jettonOf = new Map((consequences?.risk.jettons ?? []).map((j) => [j.wallet_address.address.toLowerCase(), j.jetton]))
  for (const [i, m] of request.messages.entries()) {
    const row = rows[i]
    const jetton = jettonOf.get(m.to.toLowerCase())
    if (row?.kind === "jetton" && jetton) rows[i] = { ...row, amount: `${formatUnits(row.units, jetton.decimals)} ${jetton.symbol}` }
  }
  const view: TransactionView = { rows, attachedTon, risk: "none", ...(request.validUntil !== undefined ? { validUntil: request.validUntil } : {}) }
  if (!consequences) return view
  const { risk, event } = consequences
  const outflow: Outflow = {
    ton: risk.gram,
    jettons: risk.jettons.map((j) => ({
      symbol: j.jetton.symbol,
      amount: formatUnits(j.quantity, j.jetton.decimals),
      verified: j.jetton.verification === "whitelist",
    })),
    nfts: risk.nfts.map((n) => ({ name: nftName(n.metadata) ?? shortAddress(format(n.address, true)), address: n.address })),
    fee: event.extra < 0n ? -event.extra : undefined,
    allRemainingBalance: risk.transfer_all_remaining_balance,
  }
  const failed = event.actions.some((a) => a.status !== "ok")
  const scam = event.is_scam || risk.jettons.some((j) => j.jetton.verification === "blacklist")
  const level: Risk = failed ? "failed" : scam ? "scam" : risk.transfer_all_remaining_balance ? "allBalance" : "none"
  return { ...view, outflow, risk: level }
}

const nftName = (metadata: Readonly<Record<string, unknown>>): string | undefined =>
  typeof metadata.name === "string" && metadata.name !== "" ? metadata.name : undefined

/** signData: what the screen shows of the payload. */
export type SignDataView =
  | { readonly kind: "text"; readonly text: string }
  | { readonly kind: "binary"; readonly bytes: number; readonly preview: string }
  | { readonly kind: "cell"; readonly schema: string; readonly bytes: number }

const base64Length = (b64: string): number => {
  const clean = b64.replace(/[^A-Za-z0-9+/_-]/g, "")
  return Math.floor((clean.length * 3) / 4)
}

const hexPreview = (b64: string, max = 16): string => {
  try {
    const bin = atob(b64.replace(/-/g, "+").replace(/_/g, "/"))
    const hex = Array.from(bin.slice(0, max), (c) => c.charCodeAt(0).toString(16).padStart(2, "0")).join(" ")
    return bin.length > max ? `${hex} …` : hex
  } catch {
    return ""
  }
}

export const signDataView = (
  payload:
    | { readonly type: "text"; readonly text: string }
    | { readonly type: "binary"; readonly bytes: string }
    | { readonly type: "cell"; readonly schema: string; readonly cell: string },
): SignDataView => {
  switch (payload.type) {
    case "text":
      return { kind: "text", text: payload.text }
    case "binary":
      return { kind: "binary", bytes: base64Length(payload.bytes), preview: hexPreview(payload.bytes) }
    case "cell":
      return { kind: "cell", schema: payload.schema, bytes: base64Length(payload.cell) }
  }
}

/**
 * Why an approval failed, for the user (keys under `request.error.*`): the protocol's reasons
 * (expired, wrong network, too many messages, bad request), a refused message, or a transport problem.
 */
export type RequestErrorKey = "expired" | "network" | "from" | "tooMany" | "badRequest" | "refused" | "unavailable" | "gone" | "unknown"

export const requestErrorKey = (error: unknown): RequestErrorKey => {
  const e = error as { _tag?: string; code?: number; message?: string; cancelled?: boolean } | null
  const message = e?.message ?? ""
  if (e?._tag === "RequestError") {
    if (/expired/.test(message)) return "expired"
    if (/wrong network/.test(message)) return "network"
    if (/wrong from/.test(message)) return "from"
    if (/too many/i.test(message)) return "tooMany"
    if (/already answered/.test(message)) return "gone"
    return e.code === SEND_TRANSACTION_ERROR_CODES.BAD_REQUEST_ERROR ? "badRequest" : "unknown"
  }
  if (e?._tag === "SignerError") return "unavailable"
  if (e?._tag === "ChainError") return "refused"
  if (e?._tag === "BridgeError") return /session is gone/.test(message) ? "gone" : "unknown"
  return "unknown"
}
