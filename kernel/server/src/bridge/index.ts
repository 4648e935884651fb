/**
 * `@wallet/kernel-server/bridge`: the TonConnect v2 HTTP bridge as a kernel server module.
 *
 * `bridgeModule` (id "bridge", tables `bridge_*`) belongs to every server: its migration creates
 * `bridge_messages` and its handlers layer adds the `/bridge/events` (SSE) and `/bridge/message`
 * routes next to the JSON API. Limits come from the region's `pluginConfig.bridge`
 * (`BridgeLimits`, defaults in `defaultBridgeLimits`).
 */
import { defineServerPlugin, type ServerPlugin } from "../plugin.ts"
import { bridgeMigrations } from "./Bridge.ts"
import { bridgeRoutes } from "./routes.ts"

export {
  BRIDGE_CHANNEL,
  BridgeHub,
  bridgeLimits,
  bridgeMigrations,
  bridgeTrustedProxies,
  clientAddress,
  defaultBridgeLimits,
  isClientId,
  type BridgeEvent,
  type BridgeHubShape,
  type BridgeLimits,
  type BridgePost,
} from "./Bridge.ts"
export { BRIDGE_PREFIX, HEARTBEAT, bridgeRoutes, formatEvent, parseClientIds } from "./routes.ts"

export const bridgeModule: ServerPlugin = defineServerPlugin({ id: "bridge", migrations: bridgeMigrations, handlers: bridgeRoutes })
