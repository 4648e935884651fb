/**
 * The custody operations an operation token is bound to (docs/decisions/0550), computed the same
 * way by the mini-app (when it asks for the token) and by the server handler (when it checks it),
 * from the request payload. Browser-safe.
 */
import { operationRequest, type OperationRequest } from "@wallet/kernel/api"
import { currencyInfo, formatAmount, parseAmount } from "./currencies.ts"

/** "1.50" and "1.5" bind alike: the amount in the currency's decimals, else as typed. */
const canonicalAmount = (currency: string, amount: string): string => {
  const info = currencyInfo(currency)
  const units = info === undefined ? undefined : parseAmount(amount, info.decimals)
  return info === undefined || units === undefined ? amount : formatAmount(units, info.decimals)
}

/** A transfer to a Telegram user: currency, amount (decimal) and the receiver's id. */
export const transferOperation = (request: { readonly receiverId: number; readonly currency: string; readonly amount: string }): OperationRequest =>
  operationRequest("custody_transfer", {
    currency: request.currency,
    amount: canonicalAmount(request.currency, request.amount),
    receiver: String(request.receiverId),
  })

/** An on-chain withdrawal: currency, network, amount (minor units, or "max"), the address as given and the memo. */
export const withdrawalOperation = (request: {
  readonly currency: string
  readonly network: string
  readonly amount: bigint
  readonly max_value: boolean
  readonly address: string
  readonly comment?: string | undefined
}): OperationRequest =>
  operationRequest("custody_withdrawal", {
    currency: request.currency,
    network: request.network,
    amount: request.max_value ? "max" : request.amount.toString(),
    destination: request.address,
    memo: request.comment ?? "",
  })
