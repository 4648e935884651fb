export { settingsPlugin, SettingsSearch, type SettingsConfig } from "./manifest.ts"
export { FIAT_CURRENCIES, isFiatCurrency, currencyName } from "./fiat.ts"
