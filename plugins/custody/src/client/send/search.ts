/**
 * Helpers over the send screens' search params (spec 1 §2 /assets/send and friends). The checks
 * themselves are in ../../routes.ts with the routes' references (decision 0170).
 */
import type { NetworkCode } from "../../currencies.ts"

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

/** Drops undefined and empty values so URLs stay short. */
export const cleanSearch = <T extends Readonly<Record<string, unknown>>>(search: T): Partial<T> =>
  Object.fromEntries(Object.entries(search).filter(([, value]) => value !== undefined && value !== "")) as Partial<T>

/**
 * Spec 1 §4: when the withdraw request of a QR with an amount fails, the manual send form opens
 * prefilled (the same params, no longer marked as a QR). Undefined when that rule does not apply.
 */
export const qrFallbackSearch = (search: SendParams): Partial<SendParams> | undefined =>
  search.qr === true && search.value !== undefined && search.value !== "" ? cleanSearch({ ...search, qr: undefined }) : undefined
