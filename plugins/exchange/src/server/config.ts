/** The exchange's region config (`pluginConfig.exchange`, read by `readConfig`) on the server. */
import { Effect } from "effect"
import { ServerConfig } from "@wallet/kernel-server"
import { readConfig } from "../domain.ts"

export const exchangeConfig = Effect.map(ServerConfig, (config) => readConfig(config.pluginConfig.exchange))

/** Custody's Rates run on the sandbox unless its region config names a feed: quotes say so. */
export const sandboxRates = Effect.map(ServerConfig, (config) => {
  const custody = (config.pluginConfig.custody ?? {}) as { rates?: { feedUrl?: unknown } }
  return !(typeof custody.rates?.feedUrl === "string" && custody.rates.feedUrl.length > 0)
})
