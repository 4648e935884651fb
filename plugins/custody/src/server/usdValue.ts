/** The USD value of an amount, from the custody rates (the operation-token limit, the verification limits). */
import { Effect, Option } from "effect"
import { currencyInfo } from "../currencies.ts"
import { fiatCents } from "./money.ts"
import { Rates } from "./rates/Rates.ts"

/** The USD value in cents of `units` of `currency`, run only when the policy asks; undefined when unknown. */
export const usdValue = (currency: string, units: bigint | undefined) =>
  Effect.map(Effect.serviceOption(Rates), (rates) => {
    const info = currencyInfo(currency)
    if (Option.isNone(rates) || info === undefined || units === undefined) return Effect.succeed(undefined)
    return rates.value.quotes([info.code], "USD").pipe(
      Effect.map((quotes) => {
        const quote = quotes.get(info.code)
        return quote === undefined ? undefined : fiatCents(units, info.decimals, quote.price)
      }),
      Effect.catch(() => Effect.succeed(undefined)),
    )
  })
