/**
 * Composition of server modules: the kernel first, then the enabled plugins with every
 * dependency before its dependents. Refuses (throws `ServerCompositionError`) on a conflict.
 */
import type { HttpApiEndpoint } from "effect/http-api"
import { RequestValidation } from "@wallet/kernel/api"
import { devModule, kernelModule } from "./kernel/module.ts"
import { bridgeModule } from "./bridge/index.ts"
import { ledgerModule } from "./ledger/index.ts"
import { outboxDevModule, outboxModule } from "./outbox/index.ts"
import { analyticsDevModule, analyticsModule } from "./analytics/index.ts"
import { fingerprintDevModule, fingerprintModule } from "./fingerprint/index.ts"
import { makeOperatorModule } from "./operator/index.ts"
import type { ServerPlugin } from "./plugin.ts"

export class ServerCompositionError extends Error {
  override readonly name = "ServerCompositionError"
}

const RESERVED_IDS = new Set([
  "kernel",
  "dev",
  "outbox",
  "outbox-dev",
  "bridge",
  "ledger",
  "analytics",
  "analytics-dev",
  "fingerprint",
  "fingerprint-dev",
  "operator",
])

/** Orders the modules and checks ids, dependencies, groups, routes and middleware. */
export const composeServerModules = (plugins: ReadonlyArray<ServerPlugin>, options: { readonly dev: boolean }): ReadonlyArray<ServerPlugin> => {
  const byId = new Map<string, ServerPlugin>()
  for (const plugin of plugins) {
    if (RESERVED_IDS.has(plugin.id)) throw new ServerCompositionError(`server plugin id "${plugin.id}" is reserved for the kernel`)
    if (byId.has(plugin.id)) throw new ServerCompositionError(`server plugin "${plugin.id}" is enabled twice`)
    byId.set(plugin.id, plugin)
  }
  // Kernel modules: the kernel, the Outbox, the TonConnect bridge, the Ledger and the analytics gateway (every server), then the dev-only ones.
  const ordered: Array<ServerPlugin> = [
    kernelModule,
    outboxModule,
    bridgeModule,
    ledgerModule,
    analyticsModule,
    fingerprintModule,
    makeOperatorModule(plugins.flatMap((plugin) => (plugin.operatorLabel === undefined ? [] : [{ href: `/ops/${plugin.id}`, label: plugin.operatorLabel }]))),
    ...(options.dev ? [devModule, outboxDevModule, analyticsDevModule, fingerprintDevModule] : []),
  ]
  const kernelIds = new Set(ordered.map((module) => module.id))
  const state = new Map<string, "visiting" | "done">()
  const visit = (plugin: ServerPlugin, path: ReadonlyArray<string>) => {
    const seen = state.get(plugin.id)
    if (seen === "done") return
    if (seen === "visiting") throw new ServerCompositionError(`server plugins depend on each other in a cycle: ${[...path, plugin.id].join(" -> ")}`)
    state.set(plugin.id, "visiting")
    for (const dependency of plugin.dependsOn) {
      if (kernelIds.has(dependency)) continue
      const target = byId.get(dependency)
      if (target === undefined) {
        throw new ServerCompositionError(`server plugin "${plugin.id}" depends on "${dependency}", which is not enabled in this region`)
      }
      visit(target, [...path, plugin.id])
    }
    state.set(plugin.id, "done")
    ordered.push(plugin)
  }
  for (const plugin of plugins) visit(plugin, [])

  const usdBalanceProviders = ordered.filter((module) => module.usdBalances !== undefined).map((module) => module.id)
  if (usdBalanceProviders.length > 1) {
    throw new ServerCompositionError(`the UsdBalances port is provided by more than one module: ${usdBalanceProviders.join(", ")}`)
  }
  const limitProviders = ordered.filter((module) => module.verificationLimits !== undefined).map((module) => module.id)
  if (limitProviders.length > 1) {
    throw new ServerCompositionError(`the VerificationLimits port is provided by more than one module: ${limitProviders.join(", ")}`)
  }
  const guardProviders = ordered.filter((module) => module.operationGuard !== undefined).map((module) => module.id)
  if (guardProviders.length > 1) {
    throw new ServerCompositionError(`the OperationGuard port is provided by more than one module: ${guardProviders.join(", ")}`)
  }

  const groupOwners = new Map<string, string>()
  const routeOwners = new Map<string, string>()
  for (const module of ordered) {
    for (const group of module.groups) {
      const owner = groupOwners.get(group.identifier)
      if (owner !== undefined) {
        throw new ServerCompositionError(`API group "${group.identifier}" of "${module.id}" is already defined by "${owner}"`)
      }
      groupOwners.set(group.identifier, module.id)
      for (const endpoint of Object.values(group.endpoints) as unknown as ReadonlyArray<HttpApiEndpoint.Top>) {
        const where = `${module.id}: ${group.identifier}.${endpoint.identifier} (${endpoint.method} ${endpoint.path})`
        if (!endpoint.path.startsWith("/api/")) throw new ServerCompositionError(`${where}: paths must start with /api/`)
        if (!endpoint.middlewares.has(RequestValidation)) {
          throw new ServerCompositionError(`${where}: missing RequestValidation middleware (use authenticated(group))`)
        }
        const key = `${endpoint.method} ${endpoint.path.replace(/:[^/]+/g, ":")}`
        const existing = routeOwners.get(key)
        if (existing !== undefined) throw new ServerCompositionError(`${where}: method and path already served by ${existing}`)
        routeOwners.set(key, where)
      }
    }
  }
  return ordered
}
