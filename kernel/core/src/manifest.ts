import type { Check } from "./check.ts"
import type { PasscodeFactory } from "./passcode.ts"

/** Version of the kernel API that plugins declare a range against (`kernel` field). */
export const KERNEL_VERSION = "0.1.0"

export const PLUGIN_ID_PATTERN = /^[a-z][a-z0-9-]*$/

/** A module loaded on demand: route screens, i18n bundles. The host never calls it at boot. */
export type Lazy<T> = () => Promise<T>

/** A lazily loaded screen. The React kernel narrows `default` to a component. */
export type RouteModule = { readonly default: unknown }

/** The built-in parents every plugin can hang routes on. */
export const BUILTIN_PARENTS = ["root", "wallet", "scw"] as const
export type BuiltinParent = (typeof BUILTIN_PARENTS)[number]

/**
 * The route tree's `validateSearch` input: a kernel `Check` that decodes the raw search object
 * (`searchParams({...})` with the lenient params of `search.ts`; decision 0003: no Effect Schema at boot).
 */
export type SearchSchema = Check<any>

export interface RouteDefinition {
  /** Unique within the plugin; the global id is `<pluginId>/<id>`. */
  readonly id: string
  /** A built-in parent (`root`, `wallet` = the custodial area, `scw` = the self-custody area) or `<pluginId>/<routeId>`. */
  readonly parent: BuiltinParent | (string & {})
  /** Path below the parent, starting with '/': `/settings/language`, `/assets/$assetCurrency`. */
  readonly path: string
  readonly search?: SearchSchema
  /** Permissions the session must hold (all of them) to enter; otherwise the gate shows the unavailable popup. */
  readonly permissions?: ReadonlyArray<string>
  /** Redirect-only routes (spec: /wv and /giveaway redirect to main). */
  readonly redirectTo?: string
  readonly component?: Lazy<RouteModule>
}

export type TabBar = "custodial" | "ton"

export interface TabEntry {
  readonly id: string
  readonly bar: TabBar
  /** The full path the tab opens. */
  readonly to: string
  /** i18n key in the plugin's namespace. */
  readonly labelKey: string
  /** Icon name from the kit's icon set. */
  readonly icon: string
  readonly order: number
  readonly permissions?: ReadonlyArray<string>
  /**
   * A one-off tooltip over this tab (i18n key) and its priority: the highest one shows, once per
   * session, on wallet main, for a left-to-right language (spec 1 §2: earn before trade).
   */
  readonly tooltip?: { readonly textKey: string; readonly priority: number }
}

/**
 * A start-param deep link. `prefix` is matched against Telegram's start param; with `exact` the whole
 * param must equal it. The rest after the prefix is split on '_' into captures `{0}`, `{1}`, … and
 * `{rest}` that may appear in `params` and `search` values.
 */
export interface DeepLinkHandler {
  readonly prefix: string
  readonly exact?: boolean
  /**
   * A regular expression (source text) the part after the prefix (and its `_`) must match in full;
   * its named groups fill `{name}` in `to`/`params`/`search`. When it does not match, the next
   * shorter prefix is tried (decision 0380: `tonwallet_send_<address>_<nano>` vs the bare form).
   */
  readonly pattern?: string
  readonly to: string
  readonly params?: Readonly<Record<string, string>>
  readonly search?: Readonly<Record<string, string>>
}

export interface SettingsEntry {
  readonly id: string
  /** `cw` (custodial settings tab), `scw` (self-custody tab) or `general` (both). */
  readonly section: "cw" | "scw" | "general"
  readonly labelKey: string
  readonly to: string
  readonly icon: string
  readonly order: number
  readonly permissions?: ReadonlyArray<string>
}

/**
 * An analytics event a plugin sends (`analytics.events`): `name` is `<pluginId>.<event>` (lower
 * case, digits, `_`), unique in the plugin; the kernel's own events (launch, screen_view, ...)
 * are bare names (decision 0350). `track` refuses names no enabled manifest declares.
 */
export interface AnalyticsEventDefinition {
  readonly name: string
  readonly description: string
}

export interface FeatureFlagDefinition {
  readonly key: string
  readonly default: boolean
  readonly description: string
}

/**
 * The kernel's catalogue of services a plugin can provide (`provides`), each by name with the type
 * of the factory its module's `default` exports. At most one enabled plugin provides each service
 * in a region (`duplicate-provider`). The catalogue grows in the kernel, never in a plugin: a new
 * service adds its name here with its factory type, to `PROVIDABLE_SERVICES`, and a kernel-side
 * wrapper that loads the provider on first use (as `passcodeFromComposition` does; decision 0140).
 */
export interface KernelServiceCatalogue {
  /** The Passcode service (decision 0510): `(host) => PasscodeShape`; the React kernel narrows the host. */
  readonly passcode: PasscodeFactory<any>
}
export type ProvidableService = keyof KernelServiceCatalogue
/** The catalogue's names, checked by `definePlugin` (an unknown name fails where it is written). */
export const PROVIDABLE_SERVICES = ["passcode"] as const satisfies ReadonlyArray<ProvidableService>
/** The module a provider's lazy import resolves to. */
export interface ServiceProviderModule<S extends ProvidableService> {
  readonly default: KernelServiceCatalogue[S]
}

/**
 * What a main-screen action or top-bar button can be at the moment (spec 1 §4): runnable, not yet
 * (the date), never, or switched off for this user by an access flag.
 */
export type SlotAvailability =
  | { readonly kind: "available" }
  | { readonly kind: "scheduled"; readonly at: Date }
  | { readonly kind: "never" }
  | { readonly kind: "restricted" }

/** Who may see a contributed entry: all the permissions, and a custody user when `requiresCustody`. */
interface SlotAudience {
  readonly permissions?: ReadonlyArray<string>
  /** Shown only to a user for whom custody is available (spec 1 §2: the QR button, the actions). */
  readonly requiresCustody?: boolean
}

/**
 * The lazily loaded code of a top-bar button or action: `default` gets the host (the React kernel
 * passes `{ kernel, navigate, go, snackbar }`, `MainSlotHost`) and does what the button does.
 */
export interface SlotRunModule<Host = unknown> {
  readonly default: (host: Host) => void | Promise<void>
}

/** Where a button leads: a full path served by an enabled plugin's route, or code loaded on the first press. */
type SlotTarget =
  | {
      /** A concrete full path (`/choose-asset/receive`); composition checks that a route serves it. */
      readonly to: string
      readonly search?: Readonly<Record<string, string>>
      /**
       * `hide`: leave the entry out when no enabled plugin serves `to` (an action whose screen is
       * another plugin's, present in some regions); otherwise composition refuses to boot.
       */
      readonly whenTargetMissing?: "error" | "hide"
      readonly run?: undefined
    }
  | { readonly run: Lazy<SlotRunModule<any>>; readonly to?: undefined }

/** An icon button in wallet main's top bar (`main.topBar`). */
export type MainTopBarEntry = SlotAudience &
  SlotTarget & {
    /** Unique within the plugin's top-bar entries; the global id is `<pluginId>/<id>`. */
    readonly id: string
    /** i18n key in the contributing plugin's namespace (the button's accessible name). */
    readonly labelKey: string
    /** Icon name from the kit's icon set. */
    readonly icon: string
    readonly order: number
  }

/** What an availability module decides from: what main loaded (custodial main: `{ accounts, frozen }` of the custody contract) and the time. */
export interface SlotAvailabilityContext<Main = unknown> {
  readonly main: Main
  readonly now: Date
}

/**
 * An action's availability logic, lazily loaded in parallel with main's data (`main.actions[].availability`).
 * `default` decides; `explain` (optional) tells the user why a pressed action cannot run now.
 */
export interface SlotAvailabilityModule<Host = unknown, Main = any> {
  readonly default: (action: { readonly id: string }, context: SlotAvailabilityContext<Main>) => SlotAvailability
  readonly explain?: (action: { readonly id: string; readonly label: string }, availability: SlotAvailability, host: Host) => Promise<void>
}

/** A round action button under the balance (`main.actions`). */
export type MainActionEntry = SlotAudience &
  SlotTarget & {
    readonly id: string
    readonly labelKey: string
    /** Glyph name from the kit's icon set. */
    readonly icon: string
    readonly order: number
    /** The access flag (in main's data) whose `false` makes the action restricted before any other check. */
    readonly accessFlag?: string
    /** Decides available / scheduled / never / restricted; without it the action is always available. */
    readonly availability?: Lazy<SlotAvailabilityModule<any>>
  }

/** A block rendered under wallet main's asset list (`main.sections`), in `order`. */
export type MainSectionEntry = SlotAudience & {
  readonly id: string
  readonly order: number
  readonly component: Lazy<RouteModule>
}

/** What a plugin contributes to wallet main (the home plugin composes them; decision 0140). */
export interface MainSlots {
  readonly topBar?: ReadonlyArray<MainTopBarEntry>
  readonly actions?: ReadonlyArray<MainActionEntry>
  readonly sections?: ReadonlyArray<MainSectionEntry>
}
export const MAIN_SLOTS = ["topBar", "actions", "sections"] as const

/** What a `beforePasscodeChange` hook gets: the passcode the user just proved and the new one. */
export interface PasscodeChangeInput {
  readonly current: string
  readonly next: string
}

/**
 * A plugin's reaction to a passcode change, lazily loaded (`hooks.beforePasscodeChange`). The
 * passcode provider runs every hook BEFORE the server changes the passcode (`current` still opens
 * what was sealed under it); a failing hook is reported (console.warn, no secrets) and never
 * blocks the change. `Host` is the kernel object of the running app (the React kernel narrows it).
 */
export interface PasscodeChangeHookModule<Host = unknown> {
  /** Re-seal what this plugin keeps under `current` so that `next` opens it. */
  readonly default: (input: PasscodeChangeInput, host: Host) => Promise<void>
  /**
   * Whether this device holds something this plugin sealed under the passcode. A reset (forgotten
   * passcode) cannot know `current`, so the reset screen warns when any hook answers true.
   */
  readonly sealedUnderPasscode?: (host: Host) => Promise<boolean>
}

/**
 * Work a plugin does once the app has started (`hooks.afterStart`): the host loads the module after
 * the first screen rendered, when the browser is idle, and passes what it has (`Host`: the kernel
 * object, a navigate function and `onNavigate`, which tells each path the user reaches). E.g.
 * resuming a listener the plugin's sessions need, or sending a blocked user to the blocked screen.
 */
export interface StartHookModule<Host = unknown> {
  readonly default: (host: Host) => void | Promise<void>
}

/** Lifecycle hooks a plugin may declare (each a lazy module; no plugin code runs at boot). */
export interface PluginHooks {
  readonly beforePasscodeChange?: Lazy<PasscodeChangeHookModule<any>>
  readonly afterStart?: Lazy<StartHookModule<any>>
}
export const PLUGIN_HOOKS = ["beforePasscodeChange", "afterStart"] as const

/** Interface languages (decision 0310). */
export type Language = "en" | "ru" | "hi" | "bn" | "zh-TW"
export type I18nBundle = Readonly<Record<string, unknown>>

export interface PluginManifest<Config = unknown> {
  readonly id: string
  readonly version: string
  /** Semver range of the kernel this plugin works with. */
  readonly kernel: string
  readonly dependsOn?: ReadonlyArray<string>
  readonly routes?: ReadonlyArray<RouteDefinition>
  readonly tabs?: ReadonlyArray<TabEntry>
  readonly deepLinks?: ReadonlyArray<DeepLinkHandler>
  readonly settings?: ReadonlyArray<SettingsEntry>
  readonly featureFlags?: ReadonlyArray<FeatureFlagDefinition>
  /** Permissions this plugin checks (documentation and composition checks). */
  readonly permissions?: ReadonlyArray<string>
  /** Check of the plugin's region config (`Check.struct(..., { exact: true })`); unknown keys are refused at boot. */
  readonly config?: Check<Config>
  readonly i18n?: {
    readonly namespace: string
    /** English is required; a language without a bundle reads as English. */
    readonly bundles: Readonly<{ en: Lazy<{ readonly default: I18nBundle }> } & Partial<Record<Language, Lazy<{ readonly default: I18nBundle }>>>>
  }
  /**
   * Kernel services this plugin implements, each a lazy module whose `default` is the service's
   * factory (e.g. `passcode: () => import("./client/service.ts")`); loaded on the service's first use.
   */
  readonly provides?: { readonly [S in ProvidableService]?: Lazy<ServiceProviderModule<S>> }
  /** Contributions to wallet main: top-bar buttons, action buttons, sections under the asset list. */
  readonly main?: MainSlots
  /** Lifecycle hooks (`beforePasscodeChange: () => import("./client/rekey.ts")`), collected by composition. */
  readonly hooks?: PluginHooks
  /**
   * The strip above the custodial tab bar (spec 1 §2: e.g. the active P2P orders), lazily loaded once the
   * bar shows for a user holding `permissions`. The module's `default` is a source component the host
   * renders (`TabStripSource` of the React kernel): it reports what the strip shows, or nothing. The first
   * enabled plugin with one wins.
   */
  readonly tabStrip?: { readonly source: Lazy<RouteModule>; readonly permissions?: ReadonlyArray<string> }
  /** The analytics events this plugin's screens send (decision 0350). */
  readonly analytics?: { readonly events: ReadonlyArray<AnalyticsEventDefinition> }
}

export class ManifestError extends Error {
  override readonly name = "ManifestError"
}

const SEMVER = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/

/**
 * Declares a plugin. Checks what can be checked without other plugins (id pattern, version, unique
 * local ids, path shape) so a broken manifest fails where it is written.
 */
export function definePlugin<const M extends PluginManifest<any>>(manifest: M): M {
  const where = `plugin '${manifest.id}'`
  if (!PLUGIN_ID_PATTERN.test(manifest.id)) {
    throw new ManifestError(`Plugin id '${manifest.id}' must match ${PLUGIN_ID_PATTERN.source}`)
  }
  if (!SEMVER.test(manifest.version)) throw new ManifestError(`${where}: version '${manifest.version}' is not semver`)
  const seen = new Set<string>()
  for (const route of manifest.routes ?? []) {
    if (seen.has(route.id)) throw new ManifestError(`${where}: route id '${route.id}' is declared twice`)
    seen.add(route.id)
    if (!route.path.startsWith("/")) throw new ManifestError(`${where}: route '${route.id}' path '${route.path}' must start with '/'`)
    if (!route.component && !route.redirectTo) {
      throw new ManifestError(`${where}: route '${route.id}' needs a component or a redirectTo`)
    }
  }
  for (const service of Object.keys(manifest.provides ?? {})) {
    if (!(PROVIDABLE_SERVICES as ReadonlyArray<string>).includes(service)) {
      throw new ManifestError(`${where}: provides unknown service '${service}' (known: ${PROVIDABLE_SERVICES.join(", ")})`)
    }
  }
  checkMainSlots(where, manifest.main)
  checkAnalyticsEvents(manifest)
  for (const hook of Object.keys(manifest.hooks ?? {})) {
    if (!(PLUGIN_HOOKS as ReadonlyArray<string>).includes(hook)) {
      throw new ManifestError(`${where}: declares unknown hook '${hook}' (known: ${PLUGIN_HOOKS.join(", ")})`)
    }
  }
  for (const link of manifest.deepLinks ?? []) {
    if (!/^[\w-]{1,64}$/.test(link.prefix)) throw new ManifestError(`${where}: deep-link prefix '${link.prefix}' is not a start-param prefix`)
    if (link.pattern !== undefined) {
      try {
        RegExp(link.pattern)
      } catch {
        throw new ManifestError(`${where}: deep-link '${link.prefix}' has an invalid pattern`)
      }
    }
  }
  return manifest
}

const ANALYTICS_EVENT_PART = /^[a-z][a-z0-9_]{0,47}$/

/** The local checks of `analytics` (also run by composition): `<pluginId>.<event>` names, each once. */
export function checkAnalyticsEvents(manifest: Pick<PluginManifest, "id" | "analytics">): void {
  const seen = new Set<string>()
  for (const event of manifest.analytics?.events ?? []) {
    const where = `plugin '${manifest.id}': analytics event '${event.name}'`
    if (!event.name.startsWith(`${manifest.id}.`) || !ANALYTICS_EVENT_PART.test(event.name.slice(manifest.id.length + 1))) {
      throw new ManifestError(`${where} must be named '${manifest.id}.<event>' (<event>: ${ANALYTICS_EVENT_PART.source})`)
    }
    if (seen.has(event.name)) throw new ManifestError(`${where} is declared twice`)
    if (!event.description) throw new ManifestError(`${where} needs a description`)
    seen.add(event.name)
  }
}

/** The local checks of `main` (also run by composition for manifests not made with `definePlugin`). */
export function checkMainSlots(where: string, main: MainSlots | undefined): void {
  if (main === undefined) return
  for (const key of Object.keys(main)) {
    if (!(MAIN_SLOTS as ReadonlyArray<string>).includes(key)) {
      throw new ManifestError(`${where}: unknown main-screen slot 'main.${key}' (known: ${MAIN_SLOTS.join(", ")})`)
    }
  }
  for (const slot of MAIN_SLOTS) {
    const seen = new Set<string>()
    for (const entry of main[slot] ?? []) {
      const at = `${where}: main.${slot} entry '${entry.id}'`
      if (seen.has(entry.id)) throw new ManifestError(`${where}: main.${slot} id '${entry.id}' is declared twice`)
      seen.add(entry.id)
      if (!Number.isFinite(entry.order)) throw new ManifestError(`${at} needs a numeric order`)
      if (slot === "sections") {
        if (typeof (entry as MainSectionEntry).component !== "function") throw new ManifestError(`${at} needs a lazy component`)
        continue
      }
      const target = entry as MainTopBarEntry
      if ((target.to === undefined) === (target.run === undefined)) throw new ManifestError(`${at} needs either 'to' or 'run' (exactly one)`)
      if (target.to !== undefined && !target.to.startsWith("/")) throw new ManifestError(`${at}: 'to' '${target.to}' must be a full path starting with '/'`)
    }
  }
}
