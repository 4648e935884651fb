/**
 * The house's inventory (`system:house`, one account per currency, decision 1100): what the exchange can
 * pay out. A dev server seeds every custodial currency with about $250,000 worth at the sandbox price,
 * once per currency (the seed's key makes a restart a replay); production funds it by operations.
 */
import { Effect } from "effect"
import { Ledger, System } from "@wallet/kernel-server/ledger"
import { Rates } from "@wallet/plugin-custody/server"
import { CURRENCIES } from "@wallet/plugin-custody/currencies"

const SEED_USD = 250_000n
const PRICE_SCALE = 10n ** 12n

/** Moves `amount` minor units into the house's account of `currency` from the deposits side (money from outside). */
export const fundHouse = (currency: string, amount: bigint, key: string) =>
  Effect.gen(function* () {
    const ledger = yield* Ledger
    const house = { owner: System.house, currency }
    yield* ledger.openAccount(house)
    return yield* ledger.transfer({ key, legs: [{ from: { owner: System.deposits, currency }, to: house, amount }], memo: "exchange inventory" })
  })

export const seedHouse = Effect.gen(function* () {
  const ledger = yield* Ledger
  // The plugins' layers build in any order: define the currencies here too (idempotent), as custody does at boot.
  for (const currency of CURRENCIES) yield* ledger.defineCurrency({ code: currency.code, decimals: currency.decimals })
  const rates = yield* Rates
  const prices = yield* rates.quotes(
    CURRENCIES.map((currency) => currency.code),
    "USD",
  )
  for (const currency of CURRENCIES) {
    const price = prices.get(currency.code)?.price ?? 0n
    if (price <= 0n) continue
    const amount = (SEED_USD * PRICE_SCALE * 10n ** BigInt(currency.decimals)) / price
    // A restart prices it again: the key already made its movement (another amount: a conflict), so once only.
    yield* fundHouse(currency.code, amount, `exchange:house-seed:${currency.code}`).pipe(Effect.catchTag("IdempotencyConflict", () => Effect.void))
  }
})
