// HTTP layer: the tonapi v2 subset plus the devnet faucet, on node:http. The routes live in http/
// (accounts.ts, market.ts, devnet-only.ts), with the router, request parsing and shared JSON views.
import type http from "node:http"
import type { Devnet } from "./devnet.ts"
import type { SimNetworks } from "./sim.ts"
import { accountRoutes, lookupRoutes } from "./http/accounts.ts"
import { devnetRoutes } from "./http/devnet-only.ts"
import { marketRoutes } from "./http/market.ts"
import { routeList, serve } from "./http/router.ts"
import { makeViews } from "./http/views.ts"

export const createServer = (devnet: Devnet, sim?: SimNetworks): http.Server => {
  const { routes, on } = routeList()
  const views = makeViews(devnet)
  // registration order is match order
  accountRoutes(on, devnet, views)
  marketRoutes(on, devnet)
  lookupRoutes(on, devnet, views)
  devnetRoutes(on, devnet, sim)
  // sending a message defers its emulated in-progress events; every other request may show them
  // (events, traces, is_wallet flags), so it settles them first, in send order
  return serve(routes, (method, path) => (method === "POST" && path === "/v2/blockchain/message" ? Promise.resolve() : devnet.settleProvisional()))
}
