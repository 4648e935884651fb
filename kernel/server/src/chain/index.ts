// @wallet/kernel-server/chain: the server's Chain layer. Reads CHAIN_API_URL and CHAIN_API_KEY from config
// and reuses the core client, so the server talks to tonapi.io in production and to host/devnet locally.
import { Config, Effect, Layer, Option, Redacted } from "effect"
import { Chain, type ChainConfig } from "@wallet/kernel/chain"

export { Chain, ChainError, type ChainShape } from "@wallet/kernel/chain"

/** The devnet's default address (host/devnet, `--port 8091`). */
export const DEFAULT_CHAIN_API_URL = "http://127.0.0.1:8091"

/** CHAIN_API_URL (default: the local devnet) and CHAIN_API_KEY (optional, redacted). */
export const chainConfig = Config.all({
  baseUrl: Config.String("CHAIN_API_URL").pipe(Config.withDefault(DEFAULT_CHAIN_API_URL)),
  apiKey: Config.option(Config.Redacted("CHAIN_API_KEY")),
})

/** Chain from config (CHAIN_API_URL, CHAIN_API_KEY). */
export const ChainLive: Layer.Layer<Chain, Config.ConfigError> = Layer.unwrap(
  Effect.gen(function* () {
    const c = yield* chainConfig
    const config: ChainConfig = { baseUrl: c.baseUrl, ...(Option.isSome(c.apiKey) ? { apiKey: Redacted.value(c.apiKey.value) } : {}) }
    return Chain.layer(config)
  }),
)
