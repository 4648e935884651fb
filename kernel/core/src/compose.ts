import { parseRange, parseVersion, satisfies } from "./semver.ts"
import {
  BUILTIN_PARENTS,
  KERNEL_VERSION,
  checkAnalyticsEvents,
  checkMainSlots,
  ManifestError,
  type AnalyticsEventDefinition,
  MAIN_SLOTS,
  type DeepLinkHandler,
  type MainActionEntry,
  type MainSectionEntry,
  type MainTopBarEntry,
  type ServiceProviderModule,
  type FeatureFlagDefinition,
  type Lazy,
  type PasscodeChangeHookModule,
  type StartHookModule,
  type PluginManifest,
  type ProvidableService,
  type RouteDefinition,
  type SettingsEntry,
  type TabBar,
  type TabEntry,
} from "./manifest.ts"
import { REGION_DEFAULTS_KEYS, REGION_KEYS, REGION_PLUGIN_KEYS, type RegionConfig } from "./region.ts"

/** Why the host refuses to boot. The message names the plugins, paths and keys involved. */
export class CompositionError extends Error {
  override readonly name = "CompositionError"
  constructor(
    readonly reason:
      | "path-conflict"
      | "deep-link-conflict"
      | "missing-dependency"
      | "disabled-dependency"
      | "dependency-cycle"
      | "kernel-range"
      | "unknown-region-key"
      | "unknown-plugin"
      | "invalid-plugin-config"
      | "unknown-parent"
      | "duplicate-namespace"
      | "duplicate-feature-flag"
      | "duplicate-provider"
      | "duplicate-slot-id"
      | "invalid-slot"
      | "invalid-analytics-event"
      | "unknown-slot-target"
      | "api-path-conflict"
      | "migration-conflict"
      | "server-part-without-manifest"
      | "no-manifest",
    message: string,
  ) {
    super(message)
  }
}

export interface ComposedRoute extends RouteDefinition {
  readonly pluginId: string
  /** `<pluginId>/<id>`. */
  readonly globalId: string
  /** `root`, `wallet`, `scw` or another route's global id. */
  readonly parentId: string
  /** Path from the app root, layouts included (`/settings/language`). */
  readonly fullPath: string
}

export interface ComposedDeepLink extends DeepLinkHandler {
  readonly pluginId: string
}

export interface Composition {
  readonly region: RegionConfig
  readonly kernelVersion: string
  /** Enabled plugins, dependencies before dependants. */
  readonly plugins: ReadonlyArray<PluginManifest>
  readonly pluginConfig: ReadonlyMap<string, unknown>
  /** Routes ordered so that every parent comes before its children. */
  readonly routes: ReadonlyArray<ComposedRoute>
  readonly deepLinks: ReadonlyArray<ComposedDeepLink>
  readonly tabs: Readonly<Record<TabBar, ReadonlyArray<TabEntry & { readonly pluginId: string }>>>
  readonly settings: ReadonlyArray<SettingsEntry & { readonly pluginId: string }>
  readonly featureFlags: ReadonlyArray<FeatureFlagDefinition & { readonly pluginId: string }>
  /** The analytics events the enabled plugins declare (`analytics.events`), dependencies first. */
  readonly analyticsEvents: ReadonlyArray<AnalyticsEventDefinition & { readonly pluginId: string }>
  /** Route global id -> permissions required to enter it (its own and its ancestors'). */
  readonly permissionGates: ReadonlyMap<string, ReadonlyArray<string>>
  readonly i18nNamespaces: ReadonlyMap<string, NonNullable<PluginManifest["i18n"]>>
  /** The enabled plugin providing each kernel service (`provides`), if any. */
  readonly providers: { readonly [S in ProvidableService]?: ComposedProvider<S> }
  /**
   * Wallet main's contributed slots (`main` in the manifests), each ordered by `order` (ties:
   * dependencies first). Not filtered by user: `slotsForUser` does that at run time.
   */
  readonly main: ComposedMainSlots
  /** Lifecycle hooks of the enabled plugins, dependencies first (`hooks` in the manifests). */
  readonly hooks: {
    readonly beforePasscodeChange: ReadonlyArray<ComposedHook<PasscodeChangeHookModule<any>>>
    readonly afterStart: ReadonlyArray<ComposedHook<StartHookModule<any>>>
  }
}

export interface ComposedHook<M> {
  readonly pluginId: string
  readonly load: Lazy<M>
}

export interface ComposedProvider<S extends ProvidableService = ProvidableService> {
  readonly pluginId: string
  readonly load: Lazy<ServiceProviderModule<S>>
}

/** A contributed slot entry with its plugin and global id `<pluginId>/<id>`. */
export type ComposedSlot<E> = E & { readonly pluginId: string; readonly globalId: string }

export interface ComposedMainSlots {
  readonly topBar: ReadonlyArray<ComposedSlot<MainTopBarEntry>>
  readonly actions: ReadonlyArray<ComposedSlot<MainActionEntry>>
  readonly sections: ReadonlyArray<ComposedSlot<MainSectionEntry>>
}

/** The user facts a slot's audience is checked against (a `SessionUser` has them). */
export interface SlotUser {
  readonly isCustodyAvailable: boolean
  readonly permissions: Readonly<Record<string, boolean>>
}

/** The entries `user` may see: all their permissions held, custody available where required. No user: none. */
export function slotsForUser<E extends { readonly permissions?: ReadonlyArray<string>; readonly requiresCustody?: boolean }>(
  entries: ReadonlyArray<E>,
  user: SlotUser | undefined,
): ReadonlyArray<E> {
  if (!user) return []
  return entries.filter((entry) => (entry.permissions ?? []).every((p) => user.permissions[p] === true) && (!entry.requiresCustody || user.isCustodyAvailable))
}

/** Whether the route pattern `fullPath` (`/choose-asset/$type`) serves the concrete path `to` (`/choose-asset/receive`). */
export const routeServes = (fullPath: string, to: string): boolean => {
  const pattern = fullPath.split("/").filter(Boolean)
  const path = to.split("?")[0]!.split("/").filter(Boolean)
  return pattern.length === path.length && pattern.every((segment, i) => segment.startsWith("$") || segment === path[i])
}

/**
 * A manifest as the host found it: loaded from a package's `./manifest` export, with the package
 * name the region files use for it (decision 0120). Manifests given without one (tests) are named
 * by their plugin id only.
 */
export type InstalledPlugin = PluginManifest & { readonly packageName?: string }

/** Path prefix each built-in parent contributes. `wallet` and `scw` are layouts (spec: /_wallet is pathless). */
const BUILTIN_PARENT_PATH: Record<(typeof BUILTIN_PARENTS)[number], string> = { root: "", wallet: "", scw: "/scw" }

const unknownKeys = (value: object, allowed: ReadonlyArray<string>) => Object.keys(value).filter((k) => !allowed.includes(k))

const normalisePath = (path: string) => {
  const joined = `/${path.split("/").filter(Boolean).join("/")}`
  // Param names do not make two paths different: /a/$x and /a/$y claim the same URLs.
  return joined.replace(/\/\$[^/]+/g, "/$")
}

/**
 * Composes the installed plugins under one region config into the navigation, deep-link table, tab
 * bars, settings, flags, gates and i18n namespaces. Pure: it runs no plugin code. Throws a
 * `CompositionError` with a precise message on any conflict.
 */
export function composePlugins(options: {
  readonly region: RegionConfig
  readonly installed: ReadonlyArray<InstalledPlugin>
  readonly kernelVersion?: string
}): Composition {
  const { region, installed } = options
  const kernelVersion = options.kernelVersion ?? KERNEL_VERSION
  const where = `region '${region.id}'`

  // 1. Region config: every key known, every plugin installed, every plugin config valid.
  for (const key of unknownKeys(region, REGION_KEYS)) {
    throw new CompositionError("unknown-region-key", `Unknown key '${key}' in ${where} config (allowed: ${REGION_KEYS.join(", ")})`)
  }
  for (const key of unknownKeys(region.defaults ?? {}, REGION_DEFAULTS_KEYS)) {
    throw new CompositionError("unknown-region-key", `Unknown key 'defaults.${key}' in ${where} config`)
  }
  const byId = new Map(installed.map((p) => [p.id, p]))
  // Region files name a plugin by its package name (decision 0120) or, in tests, by its id.
  const byKey = new Map<string, PluginManifest>(byId)
  for (const p of installed) if (p.packageName) byKey.set(p.packageName, p)
  const pluginConfig = new Map<string, unknown>()
  const enabledIds = new Set<string>()
  const listedAs = new Map<string, string>()
  for (const [listed, entry] of Object.entries(region.plugins)) {
    const plugin = byKey.get(listed)
    if (!plugin) {
      throw new CompositionError("unknown-plugin", `Unknown plugin '${listed}' in ${where} config: no installed plugin has this package name or id`)
    }
    const id = plugin.id
    const twice = listedAs.get(id)
    if (twice !== undefined) {
      throw new CompositionError("unknown-region-key", `Plugin '${id}' is listed twice in ${where} config (as '${twice}' and '${listed}')`)
    }
    listedAs.set(id, listed)
    for (const key of unknownKeys(entry, REGION_PLUGIN_KEYS)) {
      throw new CompositionError("unknown-region-key", `Unknown key 'plugins.${id}.${key}' in ${where} config`)
    }
    if (!entry.enabled) continue
    enabledIds.add(id)
    const raw = entry.config ?? {}
    if (plugin.config) {
      const result = plugin.config.run(raw)
      if (!result.ok) {
        const at = result.issue.path.length > 0 ? ` at ${result.issue.path.map(String).join(".")}` : ""
        const reason = result.issue.message === "unexpected key" ? "unknown-region-key" : "invalid-plugin-config"
        throw new CompositionError(reason, `Invalid config for plugin '${id}' in ${where}: ${result.issue.message}${at}`)
      }
      pluginConfig.set(id, result.value)
    } else {
      for (const key of Object.keys(raw)) {
        throw new CompositionError("unknown-region-key", `Unknown key 'plugins.${id}.config.${key}' in ${where} config: plugin '${id}' takes no config`)
      }
      pluginConfig.set(id, raw)
    }
  }

  // 2. Kernel range and dependencies; order dependencies first.
  if (!parseVersion(kernelVersion)) throw new CompositionError("kernel-range", `Kernel version '${kernelVersion}' is not semver`)
  for (const id of enabledIds) {
    const plugin = byId.get(id)!
    if (!parseRange(plugin.kernel)) {
      throw new CompositionError("kernel-range", `Plugin '${id}' declares an invalid kernel range '${plugin.kernel}'`)
    }
    if (!satisfies(kernelVersion, plugin.kernel)) {
      throw new CompositionError("kernel-range", `Plugin '${id}' requires kernel ${plugin.kernel}, but this kernel is ${kernelVersion}`)
    }
    for (const dep of plugin.dependsOn ?? []) {
      if (!byId.has(dep)) {
        throw new CompositionError(
          "missing-dependency",
          `Plugin '${id}' depends on '${dep}', which is not installed (no plugin listed in ${where} has id '${dep}')`,
        )
      }
      if (!enabledIds.has(dep)) {
        throw new CompositionError("disabled-dependency", `Plugin '${id}' depends on '${dep}', which is disabled in ${where}`)
      }
    }
  }
  const ordered: PluginManifest[] = []
  const state = new Map<string, "visiting" | "done">()
  const visit = (id: string, trail: string[]) => {
    if (state.get(id) === "done") return
    if (state.get(id) === "visiting") {
      throw new CompositionError("dependency-cycle", `Plugin dependency cycle: ${[...trail, id].join(" -> ")}`)
    }
    state.set(id, "visiting")
    const plugin = byId.get(id)!
    for (const dep of plugin.dependsOn ?? []) visit(dep, [...trail, id])
    state.set(id, "done")
    ordered.push(plugin)
  }
  for (const plugin of installed) if (enabledIds.has(plugin.id)) visit(plugin.id, [])

  // 3. Routes: resolve parents, full paths and conflicts.
  const declared = new Map<string, { plugin: PluginManifest; route: RouteDefinition }>()
  for (const plugin of ordered) for (const route of plugin.routes ?? []) declared.set(`${plugin.id}/${route.id}`, { plugin, route })
  const composed = new Map<string, ComposedRoute>()
  const resolving = new Set<string>()
  const resolve = (globalId: string): ComposedRoute => {
    const done = composed.get(globalId)
    if (done) return done
    const { plugin, route } = declared.get(globalId)!
    if (resolving.has(globalId)) throw new CompositionError("unknown-parent", `Route '${globalId}' is its own ancestor`)
    resolving.add(globalId)
    let parentPath: string
    if ((BUILTIN_PARENTS as ReadonlyArray<string>).includes(route.parent)) {
      parentPath = BUILTIN_PARENT_PATH[route.parent as keyof typeof BUILTIN_PARENT_PATH]
    } else if (declared.has(route.parent)) {
      parentPath = resolve(route.parent).fullPath
    } else {
      throw new CompositionError(
        "unknown-parent",
        `Route '${globalId}' of plugin '${plugin.id}' names parent '${route.parent}', which no enabled plugin declares`,
      )
    }
    const fullPath = route.path === "/" ? parentPath || "/" : `${parentPath}${route.path}`
    const result: ComposedRoute = { ...route, pluginId: plugin.id, globalId, parentId: route.parent, fullPath }
    composed.set(globalId, result)
    return result
  }
  const claimed = new Map<string, ComposedRoute>()
  const routes: ComposedRoute[] = []
  for (const globalId of declared.keys()) resolve(globalId)
  // Parents first: a stable order by depth keeps declaration order within a level.
  const depth = (r: ComposedRoute): number => (composed.has(r.parentId) ? depth(composed.get(r.parentId)!) + 1 : 0)
  for (const route of [...composed.values()].sort((a, b) => depth(a) - depth(b))) {
    const other = claimed.get(normalisePath(route.fullPath))
    if (other) {
      throw new CompositionError(
        "path-conflict",
        `Path '${route.fullPath}' is claimed by plugin '${other.pluginId}' (route '${other.globalId}') and plugin '${route.pluginId}' (route '${route.globalId}')`,
      )
    }
    claimed.set(normalisePath(route.fullPath), route)
    routes.push(route)
  }

  // 4. Deep links: one owner per prefix.
  const deepLinks: ComposedDeepLink[] = []
  const prefixes = new Map<string, ComposedDeepLink>()
  for (const plugin of ordered) {
    for (const link of plugin.deepLinks ?? []) {
      // Two handlers of one prefix may coexist when their patterns differ (the first that matches wins).
      const key = `${link.exact ? "=" : "^"}${link.prefix}${link.pattern === undefined ? "" : `/${link.pattern}`}`
      const other = prefixes.get(key)
      if (other) {
        throw new CompositionError("deep-link-conflict", `Deep-link prefix '${link.prefix}' is claimed by plugin '${other.pluginId}' and plugin '${plugin.id}'`)
      }
      const composedLink = { ...link, pluginId: plugin.id }
      prefixes.set(key, composedLink)
      deepLinks.push(composedLink)
    }
  }

  // 5. Tabs, settings, flags, gates, namespaces.
  const tabs: Record<TabBar, Array<TabEntry & { pluginId: string }>> = { custodial: [], ton: [] }
  for (const plugin of ordered) {
    for (const tab of plugin.tabs ?? []) {
      // A tab bar tells its tabs apart by id: two plugins' tabs with one id on one bar would swap places.
      const other = tabs[tab.bar].find((t) => t.id === tab.id)
      if (other) {
        throw new CompositionError(
          "duplicate-slot-id",
          `Tab id '${tab.id}' on the ${tab.bar} tab bar is declared by plugin '${other.pluginId}' and plugin '${plugin.id}'`,
        )
      }
      tabs[tab.bar].push({ ...tab, pluginId: plugin.id })
    }
  }
  tabs.custodial.sort((a, b) => a.order - b.order)
  tabs.ton.sort((a, b) => a.order - b.order)
  const settings = ordered.flatMap((plugin) => (plugin.settings ?? []).map((entry) => ({ ...entry, pluginId: plugin.id }))).sort((a, b) => a.order - b.order)
  const featureFlags: Array<FeatureFlagDefinition & { pluginId: string }> = []
  const flagOwners = new Map<string, string>()
  for (const plugin of ordered) {
    for (const flag of plugin.featureFlags ?? []) {
      const owner = flagOwners.get(flag.key)
      if (owner) {
        throw new CompositionError("duplicate-feature-flag", `Feature flag '${flag.key}' is declared by plugin '${owner}' and plugin '${plugin.id}'`)
      }
      flagOwners.set(flag.key, plugin.id)
      featureFlags.push({ ...flag, pluginId: plugin.id })
    }
  }
  const analyticsEvents = ordered.flatMap((plugin) => {
    try {
      checkAnalyticsEvents(plugin)
    } catch (error) {
      // A manifest not made with definePlugin gets the same checks here.
      if (error instanceof ManifestError) throw new CompositionError("invalid-analytics-event", error.message)
      throw error
    }
    return (plugin.analytics?.events ?? []).map((event) => ({ ...event, pluginId: plugin.id }))
  })
  const permissionGates = new Map<string, ReadonlyArray<string>>()
  for (const route of routes) {
    const inherited = permissionGates.get(route.parentId) ?? []
    permissionGates.set(route.globalId, [...new Set([...inherited, ...(route.permissions ?? [])])])
  }
  const i18nNamespaces = new Map<string, NonNullable<PluginManifest["i18n"]>>()
  const namespaceOwners = new Map<string, string>()
  for (const plugin of ordered) {
    if (!plugin.i18n) continue
    const owner = namespaceOwners.get(plugin.i18n.namespace)
    if (owner) {
      throw new CompositionError("duplicate-namespace", `i18n namespace '${plugin.i18n.namespace}' is declared by plugin '${owner}' and plugin '${plugin.id}'`)
    }
    namespaceOwners.set(plugin.i18n.namespace, plugin.id)
    i18nNamespaces.set(plugin.i18n.namespace, plugin.i18n)
  }

  // 6. Service providers: at most one enabled plugin per kernel service.
  const providers: { [S in ProvidableService]?: ComposedProvider<S> } = {}
  for (const plugin of ordered) {
    for (const [service, load] of Object.entries(plugin.provides ?? {}) as Array<[ProvidableService, ComposedProvider["load"] | undefined]>) {
      if (!load) continue
      const other = providers[service]
      if (other) {
        throw new CompositionError("duplicate-provider", `Kernel service '${service}' is provided by plugin '${other.pluginId}' and plugin '${plugin.id}'`)
      }
      providers[service] = { pluginId: plugin.id, load }
    }
  }

  // 7. Hooks: every enabled plugin's, in dependency order.
  const beforePasscodeChange = ordered.flatMap((plugin) => {
    const load = plugin.hooks?.beforePasscodeChange
    return load ? [{ pluginId: plugin.id, load }] : []
  })
  const afterStart = ordered.flatMap((plugin) => {
    const load = plugin.hooks?.afterStart
    return load ? [{ pluginId: plugin.id, load }] : []
  })

  // 8. Wallet main's slots: valid entries, targets served by a route, ordered.
  const main = composeMainSlots(ordered, routes)

  return {
    region,
    kernelVersion,
    plugins: ordered,
    pluginConfig,
    routes,
    deepLinks,
    tabs,
    settings,
    featureFlags,
    analyticsEvents,
    permissionGates,
    i18nNamespaces,
    providers,
    main,
    hooks: { beforePasscodeChange, afterStart },
  }
}

function composeMainSlots(ordered: ReadonlyArray<PluginManifest>, routes: ReadonlyArray<ComposedRoute>): ComposedMainSlots {
  const slots = {
    topBar: [] as Array<ComposedSlot<MainTopBarEntry>>,
    actions: [] as Array<ComposedSlot<MainActionEntry>>,
    sections: [] as Array<ComposedSlot<MainSectionEntry>>,
  }
  for (const plugin of ordered) {
    try {
      checkMainSlots(`plugin '${plugin.id}'`, plugin.main)
    } catch (error) {
      // A manifest not made with definePlugin (a plain object from a package) gets the same checks here.
      if (error instanceof ManifestError && /declared twice/.test(error.message)) throw new CompositionError("duplicate-slot-id", error.message)
      if (error instanceof ManifestError) throw new CompositionError("invalid-slot", error.message)
      throw error
    }
    for (const slot of MAIN_SLOTS) {
      for (const entry of plugin.main?.[slot] ?? []) {
        const to = slot === "sections" ? undefined : (entry as MainTopBarEntry).to
        if (to !== undefined && !routes.some((route) => routeServes(route.fullPath, to))) {
          if ((entry as { readonly whenTargetMissing?: string }).whenTargetMissing === "hide") continue
          throw new CompositionError(
            "unknown-slot-target",
            `main.${slot} entry '${plugin.id}/${entry.id}' leads to '${to}', which no enabled plugin's route serves (set whenTargetMissing: "hide" to leave it out instead)`,
          )
        }
        ;(slots[slot] as Array<unknown>).push({ ...entry, pluginId: plugin.id, globalId: `${plugin.id}/${entry.id}` })
      }
    }
  }
  // Array.prototype.sort is stable: equal orders keep the dependency order.
  for (const slot of MAIN_SLOTS) (slots[slot] as Array<{ readonly order: number }>).sort((a, b) => a.order - b.order)
  return slots
}

/** One API endpoint a plugin's server module serves (`GET /api/custody/assets/:id`). */
export interface ServerApiPath {
  readonly method: string
  readonly path: string
}

/**
 * The server-only facts of one enabled plugin, checked with its manifest: the API paths it serves
 * and its migrations. The server builds these from the plugin's `./server` export; the app build
 * has none.
 */
export interface ServerPart {
  readonly pluginId: string
  readonly apiPaths: ReadonlyArray<ServerApiPath>
  readonly migrations: ReadonlyArray<{ readonly id: number; readonly name: string }>
}

/**
 * The one composition check the app build and the server boot both run (decision 0120): the
 * region config, kernel range, `dependsOn`, routes, deep-link prefixes, i18n namespaces and
 * feature-flag keys of the manifests (`composePlugins`), then, on the server, the API paths and
 * migration names of the server parts. Throws a `CompositionError` whose message is the same on
 * both sides for the same manifests.
 */
export function checkComposition(options: {
  readonly region: RegionConfig
  readonly installed: ReadonlyArray<InstalledPlugin>
  readonly serverParts?: ReadonlyArray<ServerPart>
  readonly kernelVersion?: string
}): Composition {
  const composition = composePlugins(options)
  const enabled = new Set(composition.plugins.map((p) => p.id))
  const pathOwners = new Map<string, string>()
  const migrationOwners = new Map<string, string>()
  for (const part of options.serverParts ?? []) {
    if (!enabled.has(part.pluginId)) {
      throw new CompositionError(
        "server-part-without-manifest",
        `Server module '${part.pluginId}' has no enabled plugin manifest with this id in region '${options.region.id}'`,
      )
    }
    for (const endpoint of part.apiPaths) {
      const method = endpoint.method.toUpperCase()
      // Param names do not make two paths different: /a/:x and /a/:y serve the same URLs.
      const key = `${method} ${endpoint.path.replace(/\/:[^/]+/g, "/:")}`
      const owner = pathOwners.get(key)
      if (owner !== undefined) {
        throw new CompositionError("api-path-conflict", `API path '${method} ${endpoint.path}' is served by plugin '${owner}' and plugin '${part.pluginId}'`)
      }
      pathOwners.set(key, part.pluginId)
    }
    for (const migration of part.migrations) {
      const owner = migrationOwners.get(migration.name)
      if (owner !== undefined) {
        throw new CompositionError("migration-conflict", `Migration '${migration.name}' is declared by plugin '${owner}' and plugin '${part.pluginId}'`)
      }
      migrationOwners.set(migration.name, part.pluginId)
    }
  }
  return composition
}

/**
 * The plugin manifest a package's `./manifest` export holds: its default export, or else its one
 * export shaped like a manifest (`definePlugin(...)`: string `id` and `kernel`). Tags it with the
 * package name the region files use.
 */
export function manifestOfModule(module: Readonly<Record<string, unknown>>, packageName: string): InstalledPlugin {
  const isManifest = (value: unknown): value is PluginManifest =>
    typeof value === "object" &&
    value !== null &&
    typeof (value as { id?: unknown }).id === "string" &&
    typeof (value as { kernel?: unknown }).kernel === "string"
  const candidates = isManifest(module.default) ? [module.default] : Object.values(module).filter(isManifest)
  if (candidates.length !== 1) {
    throw new CompositionError(
      "no-manifest",
      `Package '${packageName}' must export one plugin manifest from '${packageName}/manifest' (default export or one definePlugin(...) export; found ${candidates.length})`,
    )
  }
  return { ...candidates[0]!, packageName }
}
