import { Layer, Redacted } from "effect"
import { ServerConfig, type ServerConfigShape } from "../services.ts"

/**
 * The server configuration a suite runs its modules with: bot token `1:x`, production mode, the
 * default region, 15-minute access tokens, 30-day refresh tokens, init data valid for an hour, the
 * suite's clock; `overrides` for what a suite tests.
 */
export const testServerConfig = (now: () => number, overrides: Partial<ServerConfigShape> = {}): Layer.Layer<ServerConfig> =>
  Layer.succeed(ServerConfig, {
    botToken: Redacted.make("1:x"),
    botUsername: "bot",
    region: "default",
    dev: false,
    accessTokenTtlSeconds: 900,
    refreshTokenTtlSeconds: 30 * 24 * 3600,
    initDataMaxAgeSeconds: 3600,
    now,
    pluginConfig: {},
    ...overrides,
  })
