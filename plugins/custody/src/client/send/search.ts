/**
 * Search params of the send screens (spec 1 §2 /assets/send and friends). Lenient: a wrong-typed
 * value is dropped, an unknown enum value becomes the default or is dropped.
 */
import { booleanParam, optionalEnumParam, searchParams, stringParam } from "@wallet/kernel"
import type { NetworkCode } from "../../currencies.ts"

const NETWORKS = ["ton", "tron", "ethereum", "solana", "bitcoin"] as const

export const SendSearch = searchParams({
  assetCurrency: stringParam,
  address: stringParam,
  assetNetwork: optionalEnumParam(NETWORKS),
  comment: stringParam,
  back: stringParam,
  currency: stringParam,
  value: stringParam,
  maxBalanceUsedAmount: stringParam,
  qr: booleanParam,
  scwAssetType: optionalEnumParam(["token", "collectible"]),
  assetListExpanded: booleanParam,
})

export interface SendParams {
  readonly assetCurrency?: string
  readonly address?: string
  readonly assetNetwork?: NetworkCode
  readonly comment?: string
  readonly back?: string
  readonly currency?: string
  readonly value?: string
  readonly maxBalanceUsedAmount?: string
  readonly qr?: boolean
}

export const StatusSearch = searchParams({ transactionId: stringParam, qr: booleanParam })
export const FirstTransactionSearch = searchParams({ withdrawTransactionId: stringParam })
export const ReceiverSearchSearch = searchParams({ assetCurrency: stringParam, receiverId: stringParam, value: stringParam })
export const SendOptionsSearch = searchParams({ assetCurrency: stringParam })

/** Drops undefined and empty values so URLs stay short. */
export const cleanSearch = (search: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(search).filter(([, value]) => value !== undefined && value !== ""))

/**
 * Spec 1 §4: when the withdraw request of a QR with an amount fails, the manual send form opens
 * prefilled (the same params, no longer marked as a QR). Undefined when that rule does not apply.
 */
export const qrFallbackSearch = (search: SendParams): Record<string, unknown> | undefined =>
  search.qr === true && search.value !== undefined && search.value !== "" ? cleanSearch({ ...search, qr: undefined }) : undefined
