/** An amount's value in US cents from custody's Rates service (the verification limits); undefined when unknown. */
import { Effect, Option } from "effect"
import { Rates } from "@wallet/plugin-custody/server"
import { cryptoDecimals } from "../domain.ts"

export const usdValueOf = (crypto: string, amount: bigint) =>
  Effect.gen(function* () {
    const rates = yield* Effect.serviceOption(Rates)
    const decimals = cryptoDecimals(crypto)
    if (Option.isNone(rates) || decimals === undefined) return undefined
    const quotes = yield* rates.value.quotes([crypto], "USD").pipe(Effect.catch(() => Effect.succeed(new Map())))
    const quote = quotes.get(crypto)
    // price: USD per unit scaled 10^12; cents = amount / 10^decimals * price / 10^10.
    return quote === undefined ? undefined : (amount * quote.price) / (10n ** BigInt(decimals) * 10_000_000_000n)
  })
