/**
 * The ramp sandbox's constants: the dev credentials the wallet's server ships with (not secrets), the
 * port, the providers' paths, and the currencies, rates and limits the sandbox quotes with.
 */
import path from "node:path"
import { repoRoot } from "../config.ts"

/** Dev credentials: the wallet's dev server uses the same values against the sandbox (never in production). */
export const DEV_RAMP = {
  moonpay: {
    publishableKey: "pk_test_wallet_dev",
    secretKey: "sk_test_wallet_dev_not_a_secret",
    webhookKey: "wk_test_wallet_dev_not_a_secret",
  },
  mercuryo: {
    widgetId: "wallet-dev-widget",
    secret: "mercuryo_dev_secret_not_a_secret",
    signKey: "mercuryo_dev_sign_key_not_a_secret",
  },
} as const

export const DEFAULT_RAMP_PORT = 8093
export const DEFAULT_RAMP_DATA_DIR = path.join(repoRoot, ".data/partners/ramp")
/** Quick enough for dev and tests; the real providers retry over hours. */
export const RAMP_RETRY_DELAYS_MS: ReadonlyArray<number> = [2000, 10_000, 60_000, 300_000]
export const DEFAULT_THREE_DS_DELAY_MS = 3000

export type Provider = "moonpay" | "mercuryo"
export const PROVIDERS: ReadonlyArray<Provider> = ["moonpay", "mercuryo"]

/** What the wallet puts in `pluginConfig.ramp.providers` to use a sandbox at `url` (an origin). */
export const rampProvidersConfig = (url: string) => ({
  moonpay: {
    widgetUrl: `${url}/moonpay/buy`,
    sellWidgetUrl: `${url}/moonpay/sell`,
    apiUrl: url,
    publishableKey: DEV_RAMP.moonpay.publishableKey,
    secretKey: DEV_RAMP.moonpay.secretKey,
    webhookKey: DEV_RAMP.moonpay.webhookKey,
  },
  mercuryo: {
    widgetUrl: `${url}/mercuryo/widget`,
    apiUrl: url,
    widgetId: DEV_RAMP.mercuryo.widgetId,
    secret: DEV_RAMP.mercuryo.secret,
    signKey: DEV_RAMP.mercuryo.signKey,
  },
})

/** Crypto the sandbox sells: the code per provider and its decimals (TON 9, USDT on TON 6). */
export interface Crypto {
  readonly symbol: "TON" | "USDT"
  readonly moonpay: string
  readonly mercuryo: string
  readonly decimals: number
  /** fiat per 1 unit, in the fiat's minor units (cents) */
  readonly price: Readonly<Record<string, number>>
}

export const CRYPTOS: ReadonlyArray<Crypto> = [
  { symbol: "TON", moonpay: "ton", mercuryo: "TON", decimals: 9, price: { usd: 550, eur: 510, gbp: 435, rub: 50_000 } },
  { symbol: "USDT", moonpay: "usdt_ton", mercuryo: "USDT", decimals: 6, price: { usd: 100, eur: 92, gbp: 79, rub: 9_200 } },
]

/** Fiat the sandbox takes, with the limits of one purchase in major units. */
export const FIATS: Readonly<Record<string, { readonly min: number; readonly max: number }>> = {
  usd: { min: 20, max: 5000 },
  eur: { min: 20, max: 5000 },
  gbp: { min: 20, max: 4000 },
  rub: { min: 1500, max: 450_000 },
}

/** The provider's fee, in basis points of the fiat amount. */
export const FEE_BPS: Readonly<Record<Provider, number>> = { moonpay: 450, mercuryo: 395 }

/** Test cards (digits only). Any other number is a form error. */
export const TEST_CARDS = {
  approved: "4242424242424242",
  declined: "4000000000000002",
  threeDs: "4000000000003220",
} as const
