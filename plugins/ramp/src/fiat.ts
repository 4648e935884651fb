/** The fixed fiat list (spec 1 §3) lives with custody's currency table, which every plugin choosing a fiat reads. */
export { FIATS, FIAT_CODES, isFiat, fiatOfCountry, countryOfFiat, type FiatInfo } from "@wallet/plugin-custody/currencies"
