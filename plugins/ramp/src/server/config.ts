/**
 * The ramp providers' server config (`pluginConfig.ramp`, issue 23 wire): `providers.moonpay`
 * { widgetUrl, sellWidgetUrl, apiUrl, publishableKey, secretKey, webhookKey } and `providers.mercuryo`
 * { widgetUrl, apiUrl, widgetId, secret, signKey }, `sandbox` (the local provider sandboxes: their
 * API paths sit under `/moonpay` and `/mercuryo` and they take the sell deposit stand-in), and
 * `returnOrigins` (where the providers may send the user back). A dev server without config talks
 * to the sandbox on 127.0.0.1:8093 with its dev credentials; a production server without a
 * provider's config does not offer that provider.
 */
import { Effect } from "effect"
import { ServerConfig } from "@wallet/kernel-server"

export interface MoonpayConfig {
  readonly widgetUrl: string
  readonly sellWidgetUrl: string
  readonly apiUrl: string
  readonly publishableKey: string
  readonly secretKey: string
  readonly webhookKey: string
}

export interface MercuryoConfig {
  readonly widgetUrl: string
  readonly apiUrl: string
  readonly widgetId: string
  readonly secret: string
  readonly signKey: string
}

export interface RampConfig {
  readonly moonpay: MoonpayConfig | undefined
  readonly mercuryo: MercuryoConfig | undefined
  readonly sandbox: boolean
  /** Origins a `returnUrl` may have; empty: any http(s) URL (dev). */
  readonly returnOrigins: ReadonlyArray<string>
}

const DEV_SANDBOX = "http://127.0.0.1:8093"

/** The sandboxes' dev credentials (not secrets: the sandbox in host/partners uses the same). */
export const DEV_RAMP = {
  moonpay: {
    widgetUrl: `${DEV_SANDBOX}/moonpay/buy`,
    sellWidgetUrl: `${DEV_SANDBOX}/moonpay/sell`,
    apiUrl: DEV_SANDBOX,
    publishableKey: "pk_test_wallet_dev",
    secretKey: "sk_test_wallet_dev_not_a_secret",
    webhookKey: "wk_test_wallet_dev_not_a_secret",
  },
  mercuryo: {
    widgetUrl: `${DEV_SANDBOX}/mercuryo/widget`,
    apiUrl: DEV_SANDBOX,
    widgetId: "wallet-dev-widget",
    secret: "mercuryo_dev_secret_not_a_secret",
    signKey: "mercuryo_dev_sign_key_not_a_secret",
  },
} as const

const text = (value: unknown): string | undefined => (typeof value === "string" && value !== "" ? value : undefined)
const trim = (url: string) => url.replace(/\/+$/, "")

const pick = <K extends string>(given: Record<string, unknown>, base: Readonly<Record<K, string>> | undefined, keys: ReadonlyArray<K>) => {
  const out: Partial<Record<K, string>> = {}
  for (const key of keys) {
    const value = text(given[key]) ?? base?.[key]
    if (value === undefined) return undefined
    out[key] = key.endsWith("Url") ? trim(value) : value
  }
  return out as Record<K, string>
}

export const readRampConfig = (pluginConfig: unknown, dev: boolean): RampConfig => {
  const raw = (pluginConfig ?? {}) as {
    providers?: { moonpay?: Record<string, unknown>; mercuryo?: Record<string, unknown> }
    sandbox?: unknown
    returnOrigins?: unknown
  }
  const providers = raw.providers ?? {}
  return {
    moonpay: pick(providers.moonpay ?? {}, dev ? DEV_RAMP.moonpay : undefined, [
      "widgetUrl",
      "sellWidgetUrl",
      "apiUrl",
      "publishableKey",
      "secretKey",
      "webhookKey",
    ]),
    mercuryo: pick(providers.mercuryo ?? {}, dev ? DEV_RAMP.mercuryo : undefined, ["widgetUrl", "apiUrl", "widgetId", "secret", "signKey"]),
    sandbox: typeof raw.sandbox === "boolean" ? raw.sandbox : dev,
    returnOrigins: Array.isArray(raw.returnOrigins) ? raw.returnOrigins.filter((origin): origin is string => typeof origin === "string") : [],
  }
}

export const rampConfig = Effect.map(ServerConfig, (config) => readRampConfig(config.pluginConfig.ramp, config.dev))
