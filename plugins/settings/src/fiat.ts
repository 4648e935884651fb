/** Fiat currencies offered as the default currency (ISO 4217). The full ~190-code list arrives with the ramp plugin. */
export const FIAT_CURRENCIES = [
  "USD",
  "EUR",
  "RUB",
  "GBP",
  "UAH",
  "KZT",
  "UZS",
  "BYN",
  "TRY",
  "INR",
  "IDR",
  "BRL",
  "ARS",
  "AED",
  "AZN",
  "AMD",
  "GEL",
  "KGS",
  "TJS",
  "MDL",
  "PLN",
  "CZK",
  "CHF",
  "SEK",
  "NOK",
  "DKK",
  "HUF",
  "RON",
  "BGN",
  "ILS",
  "JPY",
  "CNY",
  "KRW",
  "HKD",
  "SGD",
  "THB",
  "VND",
  "MYR",
  "PHP",
  "NGN",
  "KES",
  "EGP",
  "ZAR",
  "MXN",
  "COP",
  "CLP",
  "PEN",
  "CAD",
  "AUD",
  "NZD",
] as const

export const isFiatCurrency = (code: string): boolean => (FIAT_CURRENCIES as ReadonlyArray<string>).includes(code)

/** Display name of a currency in a language, through Intl (no tables to ship). */
export const currencyName = (code: string, language: string): string => {
  try {
    return new Intl.DisplayNames([language], { type: "currency" }).of(code) ?? code
  } catch {
    return code
  }
}
