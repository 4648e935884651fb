export { exchangePlugin } from "./manifest.ts"
export { ExchangeApi, ExchangeGroup, type Quote, type Executed, type ExchangeSettings } from "./api.ts"
