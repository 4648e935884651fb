/**
 * The HTTP contract of the TON space's server module (spec 2 §3 "Addresses response", §6, §7
 * "Wallet addresses and backup"). Browser-safe: imports only `effect` and `@wallet/kernel/api`, so
 * the client derives its calls from it. Every endpoint needs `Authorization: Bearer <access token>`.
 *
 * Addresses travel friendly or raw; the server keeps the raw form (`0:<64 hex>`) and answers with it.
 * Errors carry a `code`: 400 `TonSpaceBadRequest` (invalid_address: the shape passed the schema but
 * the checksum or workchain did not), 404 `TonSpaceNotFound` (address_not_found, external_id_not_found),
 * 409 `TonSpaceConflict` (address_owned_by_another_user). Schema failures are the kernel's 400
 * `InvalidRequest` with the field named in `issues`.
 */
import { Schema } from "effect"
import { HttpApi, HttpApiEndpoint, HttpApiGroup, HttpApiSchema } from "effect/http-api"
import { ApiId, authenticated } from "@wallet/kernel/api"

// --- fields ------------------------------------------------------------------------------------

/** Friendly (48 characters, base64 or base64url) or raw (`wc:64 hex`), by shape; the server checks the rest. */
export const TonAddress = Schema.String.check(
  Schema.isPattern(/^(-?\d{1,3}:[0-9a-fA-F]{64}|[A-Za-z0-9_+/-]{48})$/, { message: "a TON address: 48 characters friendly or wc:64-hex raw" }),
)
export const WalletClass = Schema.Literals(["v5r1", "v5beta", "v4r2", "v3r2", "v3r1"])
export const WalletNetwork = Schema.Literals(["mainnet", "testnet"])
/** How the address came to the server: created or imported on a device, or claimed later. */
export const AddressSource = Schema.Literals(["create", "import", "claim"])

/** One of the user's self-custody addresses. */
export const ActiveAddress = Schema.Struct({
  /** Raw form, `0:<64 hex>`. */
  address: Schema.String,
  walletClass: Schema.NullOr(WalletClass),
  network: WalletNetwork,
  source: AddressSource,
  /** The manual backup (word test) was passed on some device. */
  manualBackupComplete: Schema.Boolean,
  /** ISO 8601, the first manual backup. */
  backedUpAt: Schema.NullOr(Schema.String),
})
export type ActiveAddress = typeof ActiveAddress.Type

/** A server-side encrypted key of an address (the device-key records), by `externalId`. */
export const BackupRecord = Schema.Struct({ address: Schema.String, externalId: Schema.String })
export type BackupRecord = typeof BackupRecord.Type

/** Spec 2 §3 "Addresses response": actives (with address) and backups (with externalId). */
export const AddressesResponse = Schema.Struct({ actives: Schema.Array(ActiveAddress), backups: Schema.Array(BackupRecord) })
export type AddressesResponse = typeof AddressesResponse.Type

export const RegisterAddressRequest = Schema.Struct({
  address: TonAddress,
  walletClass: WalletClass,
  network: WalletNetwork,
  source: Schema.Literals(["create", "import"]),
})
export type RegisterAddressRequest = typeof RegisterAddressRequest.Type
export const AddressRequest = Schema.Struct({ address: TonAddress })
export const ExternalIdQuery = Schema.Struct({ address: TonAddress })
export const ExternalIdResponse = Schema.Struct({ address: Schema.String, externalId: Schema.String })

// --- errors ------------------------------------------------------------------------------------

export class TonSpaceBadRequest extends Schema.TaggedError<TonSpaceBadRequest>()(
  "TonSpaceBadRequest",
  { code: Schema.Literal("invalid_address"), message: Schema.String },
  { httpApiStatus: 400, description: "The address has the right shape but is not a valid TON address" },
) {}

export class TonSpaceNotFound extends Schema.TaggedError<TonSpaceNotFound>()(
  "TonSpaceNotFound",
  { code: Schema.Literals(["address_not_found", "external_id_not_found"]), message: Schema.String },
  { httpApiStatus: 404, description: "The address is not one of the user's wallets, or it has no server-side key" },
) {}

export class TonSpaceConflict extends Schema.TaggedError<TonSpaceConflict>()(
  "TonSpaceConflict",
  { code: Schema.Literal("address_owned_by_another_user"), message: Schema.String },
  { httpApiStatus: 409, description: "Another user already tracks this address" },
) {}

// --- endpoints ---------------------------------------------------------------------------------

export const TonSpaceAddressesGroup = authenticated(
  HttpApiGroup.make("tonSpaceAddresses").add(
    /** The signed-in user's tracked addresses and their server-side key records (never cached). */
    HttpApiEndpoint.get("list", "/api/ton-space/addresses", { success: AddressesResponse }),
    /** Create and import: track the address for the user (idempotent; the version and network follow the latest call). */
    HttpApiEndpoint.post("register", "/api/ton-space/addresses", {
      payload: RegisterAddressRequest,
      success: ActiveAddress,
      error: [TonSpaceBadRequest, TonSpaceConflict],
    }),
    /** The word test passed: the manual backup flag of one of the user's addresses (idempotent, keeps the first time). */
    HttpApiEndpoint.post("manualBackup", "/api/ton-space/backup/manual", {
      payload: AddressRequest,
      success: ActiveAddress,
      error: [TonSpaceBadRequest, TonSpaceNotFound],
    }),
    /** Track an address the user does not track yet (unknown, or untracked at logout); refused when another user owns it. */
    HttpApiEndpoint.post("claim", "/api/ton-space/addresses/claim", {
      payload: AddressRequest,
      success: ActiveAddress,
      error: [TonSpaceBadRequest, TonSpaceConflict],
    }),
    /** Logout: stop tracking the address (the backup flag stays for a later import). */
    HttpApiEndpoint.post("untrack", "/api/ton-space/addresses/untrack", {
      payload: AddressRequest,
      success: HttpApiSchema.NoContent,
      error: [TonSpaceBadRequest, TonSpaceNotFound],
    }),
    /** The externalId of the server-side key of an address of this user. */
    HttpApiEndpoint.get("externalId", "/api/ton-space/external-id", {
      query: ExternalIdQuery,
      success: ExternalIdResponse,
      error: [TonSpaceBadRequest, TonSpaceNotFound],
    }),
  ),
)

export const TonSpaceApi = HttpApi.make(ApiId).add(TonSpaceAddressesGroup)
