/** The transactions list and one transaction (spec 1 §3 transaction list item), from `custody_transactions`. */
import { Effect } from "effect"
import { CustodyBadRequest, CustodyNotFound, TRANSACTIONS_PAGE_SIZE, type Transaction, type TransactionsPage } from "../api.ts"
import { CURRENCIES, currencyInfo, formatAmount } from "../currencies.ts"
import { cursorOf, findTransaction, listTransactions, parseCursor, type TransactionRow } from "./history.ts"
import { syncUserHistory } from "./ledgerSync.ts"
import { fiatCents, formatCents } from "./money.ts"
import { Rates, type Quote } from "./rates/Rates.ts"
import { currentUser, displayName, findUsers, requireAccessToList, type CustodyUser } from "./users.ts"

const str = (value: unknown): string | null => (typeof value === "string" ? value : null)

export const transactionView = (
  row: TransactionRow,
  users: ReadonlyMap<number, CustodyUser>,
  quotes: ReadonlyMap<string, Quote>,
  fiat: string,
): Transaction => {
  const decimals = currencyInfo(row.currency)?.decimals ?? 0
  const counterparty = row.counterpartyId === null ? undefined : users.get(row.counterpartyId)
  const pairCurrency = str(row.details.pairCurrency)
  const pairAmount = str(row.details.pairAmount)
  const platform = str(row.details.platform)
  return {
    id: row.id,
    status: row.status,
    type: row.type,
    gateway: row.gateway,
    amount: formatAmount(row.amount, decimals),
    currency: row.currency,
    fiatAmount: formatCents(fiatCents(row.amount, decimals, quotes.get(row.currency)?.price ?? 0n)),
    fiatCurrency: fiat,
    date: row.createdAt.toISOString(),
    name: counterparty !== undefined ? displayName(counterparty) : str(row.details.name),
    userId: row.counterpartyId,
    username: counterparty?.username ?? null,
    photoUrl: counterparty?.photoUrl ?? null,
    recipientAddress: row.type === "withdraw" ? row.address : null,
    network: row.network,
    inputAddresses: Array.isArray(row.details.inputAddresses)
      ? row.details.inputAddresses.filter((value): value is string => typeof value === "string")
      : row.type === "deposit" && row.address !== null && row.gateway !== "tg_transfer"
        ? [row.address]
        : [],
    txHash: row.txHash,
    fee: row.fee === null ? null : formatAmount(row.fee, decimals),
    comment: row.comment,
    transferId: row.transferId,
    cryptocurrencyExchange: platform === null ? null : { image: str(row.details.image), platform },
    storeName: str(row.details.storeName),
    storeId: str(row.details.storeId),
    pairTransactionAmount:
      pairAmount !== null && pairCurrency !== null && currencyInfo(pairCurrency) !== undefined
        ? formatAmount(BigInt(pairAmount), currencyInfo(pairCurrency)!.decimals)
        : null,
    pairTransactionCurrency: pairCurrency,
  }
}

const fiatOf = (user: CustodyUser, requested: string | undefined) =>
  Effect.gen(function* () {
    const rates = yield* Rates
    if (requested === undefined) return user.fiatCurrency
    if (!rates.isFiat(requested)) return yield* new CustodyBadRequest({ code: "unsupported_fiat", message: `${requested} is not a supported fiat currency` })
    return requested
  })

const viewContext = (fiat: string, rows: ReadonlyArray<TransactionRow>) =>
  Effect.gen(function* () {
    const rates = yield* Rates
    const users = yield* findUsers([...new Set(rows.flatMap((row) => (row.counterpartyId === null ? [] : [row.counterpartyId])))])
    const quotes = yield* rates
      .quotes(
        CURRENCIES.map((currency) => currency.code),
        fiat,
      )
      .pipe(Effect.catch(() => Effect.succeed(new Map<string, Quote>())))
    return { users, quotes }
  })

export const transactionsPage = (
  userId: number,
  query: { readonly cursor?: string; readonly limit?: number; readonly currency?: string; readonly fiatCurrency?: string },
) =>
  Effect.gen(function* () {
    const user = yield* currentUser(userId)
    yield* requireAccessToList(user)
    const fiat = yield* fiatOf(user, query.fiatCurrency)
    const before = query.cursor === undefined ? undefined : parseCursor(query.cursor)
    if (query.cursor !== undefined && before === undefined) {
      return yield* new CustodyBadRequest({ code: "invalid_cursor", message: "This cursor was not issued by this server" })
    }
    const limit = query.limit ?? TRANSACTIONS_PAGE_SIZE
    if (query.cursor === undefined) yield* syncUserHistory(userId)
    const rows = yield* Effect.orDie(
      listTransactions(userId, { limit, ...(before !== undefined ? { before } : {}), ...(query.currency !== undefined ? { currency: query.currency } : {}) }),
    )
    const page = rows.slice(0, limit)
    const { users, quotes } = yield* viewContext(fiat, page)
    const result: TransactionsPage = {
      items: page.map((row) => transactionView(row, users, quotes, fiat)),
      nextCursor: rows.length > limit ? cursorOf(page[page.length - 1]!) : null,
    }
    return result
  })

export const oneTransaction = (userId: number, id: string) =>
  Effect.gen(function* () {
    const user = yield* currentUser(userId)
    yield* requireAccessToList(user)
    const fiat = user.fiatCurrency
    yield* syncUserHistory(userId)
    const row = yield* Effect.orDie(findTransaction(userId, id))
    if (row === undefined) return yield* new CustodyNotFound({ code: "transaction_not_found", message: "No such transaction" })
    const { users, quotes } = yield* viewContext(fiat, [row])
    return transactionView(row, users, quotes, fiat)
  })
