/**
 * Run-time checks of what the wallet reads from dApps (Effect Schema): the shapes are
 * `@tonconnect/protocol`'s types (checked below at compile time), the error codes its enums
 * (CONNECT_EVENT_ERROR_CODES, SEND_TRANSACTION_ERROR_CODES, SIGN_DATA_ERROR_CODES). The package
 * itself only has types, so untrusted JSON still goes through these decoders before use.
 */
import type * as Protocol from "@tonconnect/protocol"
import { Schema } from "effect"

/** The highest protocol version the wallet speaks (DeviceInfo.maxProtocolVersion). */
export const PROTOCOL_VERSION = 2

export const TonAddressItem = Schema.Struct({ name: Schema.Literal("ton_addr"), network: Schema.optionalKey(Schema.String) })
export const TonProofItem = Schema.Struct({ name: Schema.Literal("ton_proof"), payload: Schema.String })
/** Items the wallet does not know are kept (and answered with 400 where the protocol has a reply for them). */
export const UnknownItem = Schema.Struct({ name: Schema.String })

export const ConnectRequest = Schema.Struct({
  manifestUrl: Schema.String,
  items: Schema.Array(Schema.Union([TonAddressItem, TonProofItem, UnknownItem])),
})
export type ConnectRequest = typeof ConnectRequest.Type

/** `r` of a connect link: a JSON string holding a ConnectRequest. */
export const ConnectRequestFromJson = Schema.fromJsonString(ConnectRequest)

/** An RPC request from the dApp, after decryption. */
export const AppRequest = Schema.Struct({
  method: Schema.String,
  params: Schema.Array(Schema.Unknown),
  id: Schema.Union([Schema.String, Schema.Number]),
})
export type AppRequest = typeof AppRequest.Type
export const AppRequestFromJson = Schema.fromJsonString(AppRequest)

const Amount = Schema.Union([Schema.String, Schema.Number]).pipe(
  Schema.check(Schema.makeFilter((v) => /^\d+$/.test(String(v)) || "amount must be a non-negative integer in nanotons")),
)

export const TransactionMessage = Schema.Struct({
  address: Schema.String,
  amount: Amount,
  payload: Schema.optionalKey(Schema.String),
  stateInit: Schema.optionalKey(Schema.String),
  extra_currency: Schema.optionalKey(Schema.Unknown),
})

/** params[0] of sendTransaction, a JSON string. */
export const TransactionPayload = Schema.Struct({
  valid_until: Schema.optionalKey(Schema.Union([Schema.Number, Schema.String])),
  network: Schema.optionalKey(Schema.String),
  from: Schema.optionalKey(Schema.String),
  messages: Schema.Array(TransactionMessage),
})
export type TransactionPayload = typeof TransactionPayload.Type
export const TransactionPayloadFromJson = Schema.fromJsonString(TransactionPayload)

export const SignDataPayload = Schema.Union([
  Schema.Struct({ type: Schema.Literal("text"), text: Schema.String, network: Schema.optionalKey(Schema.String), from: Schema.optionalKey(Schema.String) }),
  Schema.Struct({ type: Schema.Literal("binary"), bytes: Schema.String, network: Schema.optionalKey(Schema.String), from: Schema.optionalKey(Schema.String) }),
  Schema.Struct({
    type: Schema.Literal("cell"),
    schema: Schema.String,
    cell: Schema.String,
    network: Schema.optionalKey(Schema.String),
    from: Schema.optionalKey(Schema.String),
  }),
])
export type SignDataPayload = typeof SignDataPayload.Type
export const SignDataPayloadFromJson = Schema.fromJsonString(SignDataPayload)

/** The dApp manifest (tonconnect-manifest.json). */
export const DappManifest = Schema.Struct({
  url: Schema.String,
  name: Schema.String,
  iconUrl: Schema.String,
  termsOfUseUrl: Schema.optionalKey(Schema.String),
  privacyPolicyUrl: Schema.optionalKey(Schema.String),
})
export type DappManifest = typeof DappManifest.Type

/** The bridge's SSE data line. */
export const BridgeIncoming = Schema.Struct({ from: Schema.String, message: Schema.String, trace_id: Schema.optionalKey(Schema.String) })
export const BridgeIncomingFromJson = Schema.fromJsonString(BridgeIncoming)

// The decoders above produce the protocol package's shapes (a drift in either fails the type check).
type Assignable<A extends B, B> = A
export type ProtocolChecks = [
  Assignable<typeof SignDataPayload.Type, Protocol.SignDataPayload>,
  Assignable<typeof TonAddressItem.Type, Protocol.TonAddressItem>,
  Assignable<typeof TonProofItem.Type, Protocol.TonProofItem>,
]

/** What the wallet writes, typed by the package. */
export type WalletMessage = Protocol.WalletMessage
export type ConnectItemReply = Protocol.ConnectItemReply
export type DeviceInfoReply = Protocol.DeviceInfo
