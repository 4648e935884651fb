import { StrictMode } from "react"
import { createRoot } from "react-dom/client"
import { RouterProvider } from "@tanstack/react-router"
import { Effect, Layer, ManagedRuntime, Option } from "effect"
import {
  colorSchemeOf,
  composePlugins,
  FeatureFlags,
  FeatureFlagsCheck,
  Http,
  I18n,
  languageFromCode,
  Passcode,
  type PasscodeShape,
  searchParams,
  PreferencesStore,
  readLaunchParams,
  type LaunchParams,
  setTelegramTargetOrigin,
  parentFrameFacts,
  telegramTargetOrigin,
  Session,
  startupFailure,
  stringParam,
  Storage,
  Telegram,
  themeCssVars,
  type Composition,
  type NamespaceBundles,
  type SessionUser,
  type StartupFailure,
} from "@wallet/kernel"
import { buildRouter, createOverlayStore, KernelProvider, passcodeFromComposition, trackScreenViews, type Kernel, type ShellRoute } from "@wallet/kernel-react"
import { regionById } from "@wallet/regions"
import { installedPlugins } from "virtual:wallet-plugins"
import { RootLayout } from "./shell/RootLayout.tsx"
import * as screens from "./shell/screens.tsx"
import { isContentUnavailable, RESTRICTED_KEY, shouldRestoreHistory, startupTarget } from "./startup.ts"
import { readRouteHistory, recordRoute, restoreBrowserHistory, writeRouteHistory } from "./route-history.ts"
import { adoptingFetch, checkSession, HttpError, takeBootFetches } from "@wallet/kernel"
import { hasStartQuery, kernelQueryClient, runStartQueries } from "@wallet/kernel-react"
import { makeAppAnalytics, NotFoundTracked } from "./analytics.tsx"
import { startAppFingerprint } from "./fingerprint.ts"
import { startNamespaces } from "./boot-start.ts"
import { Analytics, browserLaunchFacts, launchProperties, type AnalyticsShape } from "@wallet/kernel"
import "@wallet/kernel-react/ui"

const rootElement = document.getElementById("root")!
const root = createRoot(rootElement)

/** The latest the Telegram SDK's chunk waits for the first screen's data (a held or slow first request). */
const SDK_LATEST_MS = 2500

const RootSearch = searchParams({ backPath: stringParam, code: stringParam, public_asset: stringParam })
const ErrorSearch = searchParams({ code: stringParam })

const shellRoutes: ReadonlyArray<ShellRoute> = [
  { id: "startup", parent: "root", path: "/", component: screens.StartupScreen },
  { id: "error", parent: "root", path: "/error", search: ErrorSearch, component: screens.ErrorScreen },
  { id: "unsupported-region", parent: "root", path: "/unsupported_region", component: screens.UnsupportedRegionScreen },
  { id: "unsupported-app-store", parent: "root", path: "/unsupported_app_store", component: screens.UnsupportedAppStoreScreen },
  { id: "unavailable", parent: "root", path: "/unavailable", component: screens.UnavailableScreen },
  { id: "client-connection-error", parent: "root", path: "/client-connection-error", component: screens.ClientConnectionErrorScreen },
  { id: "attach-private-chats-error", parent: "root", path: "/attach-private-chats-error", component: screens.AttachPrivateChatsErrorScreen },
  { id: "service-unavailable", parent: "root", path: "/service_temporarily_unavailable/$service", component: screens.ServiceUnavailableScreen },
]

/** Shell screens that stand in on a path until an installed plugin claims it. */
const fallbackRoutes: ReadonlyArray<ShellRoute> = [
  { id: "onboarding", parent: "wallet", path: "/wallet-onboarding", component: screens.OnboardingScreen },
  { id: "scw", parent: "scw", path: "/scw", component: screens.ScwFallbackScreen },
]

/** Applies Telegram's theme as CSS vars and the colour scheme on <html>. */
const applyTheme = (theme: Readonly<Record<string, string>>) => {
  const html = document.documentElement
  for (const [name, value] of Object.entries(themeCssVars(theme))) html.style.setProperty(name, value)
  html.dataset.colorScheme = colorSchemeOf(theme)
  html.style.colorScheme = colorSchemeOf(theme)
}

function buildLayer(
  composition: Composition,
  telegram: Telegram["Service"],
  passcode: PasscodeShape,
  analytics: AnalyticsShape,
  fetch: typeof globalThis.fetch,
) {
  const baseUrl = window.location.origin
  const session = Session.layer({ baseUrl, persist: window.sessionStorage, shared: window.localStorage, fetch })
  const http = Http.layer({}, fetch).pipe(Layer.provide(Session.tokensLayer), Layer.provide(session))
  const i18n = I18n.layer({
    language: "en",
    namespaces: new Map<string, { readonly bundles: NamespaceBundles }>([
      [
        screens.SHELL,
        {
          bundles: {
            en: () => import("./i18n/en.json"),
            ru: () => import("./i18n/ru.json"),
            hi: () => import("./i18n/hi.json"),
            bn: () => import("./i18n/bn.json"),
            "zh-TW": () => import("./i18n/zh-TW.json"),
          },
        },
      ],
      ...composition.i18nNamespaces,
    ]),
    onProblem: (message) => console.warn(`[i18n] ${message}`),
  })
  return Layer.mergeAll(
    Layer.succeed(Telegram, telegram),
    Storage.layerLocalStorage,
    FeatureFlags.layer(composition.featureFlags),
    i18n,
    session,
    http,
    Passcode.layer(passcode),
    Layer.succeed(Analytics, analytics),
  )
}

async function boot() {
  let composition: Composition
  try {
    composition = composePlugins({ region: regionById(import.meta.env.VITE_REGION ?? "default"), installed: installedPlugins })
  } catch (error) {
    root.render(<screens.BootFailureScreen message={error instanceof Error ? error.message : String(error)} />)
    return
  }

  // Telegram Web's origin, or the dev launch page's (this origin); never "*" (decision 0207).
  setTelegramTargetOrigin(telegramTargetOrigin(parentFrameFacts(), (import.meta.env.VITE_TELEGRAM_PARENT_ORIGINS ?? "").split(",")))
  let launchParams: LaunchParams
  let opened = true
  try {
    launchParams = readLaunchParams()
  } catch {
    opened = false
    launchParams = { platform: "unknown", version: "6.0", themeParams: {} }
  }
  // The SDK loads in its own chunk, not awaited: calls made before it arrives are queued (decision 0330).
  // It is requested once the first screen's data has settled (or SDK_LATEST_MS into the boot), so on a
  // slow link its 11.5 kB do not share the bandwidth the first balance needs (decision 0010).
  let loadSdk!: () => void
  const sdkWanted = new Promise<void>((resolve) => (loadSdk = resolve))
  const sdkCap = setTimeout(() => loadSdk(), SDK_LATEST_MS)
  const telegram = Telegram.make(
    launchParams,
    sdkWanted.then(() => import("@wallet/kernel/telegram-sdk")).then((sdk) => sdk.connectTelegramSdk({ launchParams })),
  )
  applyTheme(telegram.theme.current())
  telegram.theme.onChange(applyTheme)
  telegram.ready()
  telegram.expandUntilExpanded()

  // The passcode provider loads on first use and reaches the kernel then (it is built below).
  const overlays = createOverlayStore()
  let kernelRef: Kernel | undefined
  const passcode = passcodeFromComposition(composition, () => ({ kernel: kernelRef!, overlays }))
  const analytics = makeAppAnalytics(composition, telegram.launchParams)
  // Sign-in and the first screen's requests the HTML already sent on a cold start (decision 0010).
  const bootFetches = adoptingFetch(takeBootFetches())
  const runtime = ManagedRuntime.make(buildLayer(composition, telegram, passcode, analytics, bootFetches.fetch))
  const services = await runtime.runPromise(Effect.all({ i18n: I18n, session: Session, flags: FeatureFlags, storage: Storage, http: Http }))
  const preferences = await runtime.runPromise(services.storage.load(PreferencesStore))
  const language = preferences.languageCode ?? languageFromCode(telegram.launchParams.languageCode)
  const initData = telegram.launchParams.initDataRaw

  // No waterfall (decision 0007): sign-in starts now, in parallel with the strings. The shell's
  // namespace is awaited before the first render; at the start path the first screen's namespaces
  // (wallet main and the plugins on it) load beside it, in the launch language and English.
  const signingIn = opened && initData ? runtime.runPromise(Effect.result(services.session.signIn(initData))) : undefined
  const strings = runtime.runPromise(services.i18n.changeLanguage(language)).then(() => {
    document.documentElement.lang = language
    for (const namespace of startNamespaces(composition)) void runtime.runPromise(services.i18n.loadNamespace(namespace))
    return runtime.runPromise(services.i18n.loadNamespace(screens.SHELL))
  })
  services.i18n.subscribe(() => (document.documentElement.lang = services.i18n.language()))

  let user: SessionUser | undefined
  let failure: StartupFailure | undefined
  if (signingIn) {
    const signedIn = await signingIn
    if (signedIn._tag === "Success") {
      user = signedIn.success
      analytics.identify(user.id, { is_new_user: user.isNew })
      // Flags load beside the route's chunks and are applied when they arrive: every flag hook
      // re-renders, and nothing the first screen lays out waits for them (decision 0007).
      void runtime
        .runPromise(Effect.result(services.http.json(FeatureFlagsCheck, `${window.location.origin}/api/feature-flags`)))
        .then((flags) => (flags._tag === "Success" ? runtime.runPromise(services.flags.applyServerFlags(flags.success)) : undefined))
    } else {
      failure = startupFailure(signedIn.failure, "auth")
    }
  }
  await strings
  const currentUser = () => Option.getOrUndefined(Effect.runSync(services.session.user))
  analytics.track("launch", launchProperties(browserLaunchFacts(telegram.launchParams.startParam)))

  services.session.onEvent(async (event) => {
    if (event.type !== "expired") return
    const t = (key: string) => services.i18n.t(`${screens.SHELL}:${key}`)
    const choice = await telegram.popup({
      title: t("sessionExpired.title"),
      message: t("sessionExpired.text"),
      buttons: [
        { id: "close", type: "destructive", text: t("close") },
        { id: "cancel", type: "cancel" },
      ],
    })
    if (choice === "close") telegram.close()
  })

  // Spec 1 §4: the auth check is repeated when the app is re-activated (Telegram's `activated`, or the
  // page shown again); a revoked session ends in the expired event above, i.e. the dialog.
  let checking = false
  const recheckSession = () => {
    if (checking || !currentUser()) return
    checking = true
    void runtime.runPromise(checkSession(services.http, window.location.origin)).finally(() => (checking = false))
  }
  telegram.on("activated", recheckSession)
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") recheckSession()
  })

  let api: ReturnType<Kernel["api"]> | undefined
  const kernel: Kernel = {
    composition,
    api: () => (api ??= import("@wallet/kernel/client").then((m) => runtime.runPromise(m.makeKernelClient(window.location.origin)))),
    runtime,
    telegram,
    i18n: services.i18n,
    session: services.session,
    flags: services.flags,
    storage: services.storage,
    user: currentUser,
    passcode,
    overlays,
  }
  kernelRef = kernel

  // Decision 0380: where the app opens. A start at `/` follows the startup rules, or reopens the route
  // history this user left in this Telegram session; 403 content_unavailable marks the user restricted.
  if (isContentUnavailable(failure)) sessionStorage.setItem(RESTRICTED_KEY, "1")
  const target =
    window.location.pathname === "/" || !user
      ? startupTarget({
          composition,
          user,
          failure,
          hasInitData: opened && Boolean(initData),
          startParam: telegram.launchParams.startParam,
          publicAsset: new URLSearchParams(window.location.search).get("public_asset") ?? undefined,
          restricted: sessionStorage.getItem(RESTRICTED_KEY) === "1",
        })
      : undefined
  const savedHistory = target && user && window.location.pathname === "/" ? readRouteHistory(sessionStorage, user.id) : undefined
  const restoredTo = target && shouldRestoreHistory(target, savedHistory) ? restoreBrowserHistory(savedHistory) : undefined

  const claimed = new Set(composition.routes.map((r) => r.fullPath))
  const router = buildRouter({
    kernel,
    composition,
    root: RootLayout,
    rootSearch: RootSearch,
    shellRoutes: [...shellRoutes, ...fallbackRoutes.filter((route) => !claimed.has(route.path))],
    notFound: NotFoundTracked,
    error: screens.RouteErrorScreen,
    pending: screens.StartupScreen,
    onGateDenied: () => {
      const t = (key: string) => services.i18n.t(`${screens.SHELL}:${key}`)
      void telegram.popup({ title: t("unavailablePopup.title"), message: t("unavailablePopup.text"), buttons: [{ id: "ok", type: "ok" }] })
    },
  })

  // Open where the startup rules say, unless Telegram restored a deeper page of this session.
  if (target && restoredTo === undefined) {
    if (target.notFound) analytics.track("not_found", { start_param: target.notFound, kind: "start_param" })
    await router.navigate({ to: target.to, search: target.search ?? {}, replace: true } as never)
  }
  // The first screen's data request goes out now that the session and the route's chunk are there,
  // before React renders (the same query the screen then reads: decision 0007).
  // What the first screen does not need waits for its data, so it does not share the link with it.
  const firstData = user ? runStartQueries(kernel, router.state.location.pathname) : Promise.resolve()
  // Work the first screen does not need starts once its data has settled AND the browser is idle:
  // right after the data React renders the balance, and this work would delay that render (#17's profile).
  const afterFirstScreen = (run: () => void) =>
    void firstData.then(() => {
      if ("requestIdleCallback" in window) window.requestIdleCallback(run, { timeout: 2000 })
      else setTimeout(run, 200)
    })
  // The SDK waits only behind a start query (wallet main's balance). Elsewhere it loads at once:
  // Telegram's buttons and events reach the app only through it, and a screen without data to wait
  // for is interactive as soon as it shows (bug: a back press right after a restart was lost).
  const startSdk = () => {
    clearTimeout(sdkCap)
    loadSdk()
  }
  if (user && hasStartQuery(router.state.location.pathname)) afterFirstScreen(startSdk)
  else startSdk()
  void firstData.then(() => {
    // What the boot script sent and nothing adopted (another route, a resumed session) is dropped with its token.
    bootFetches.forget()
    // How many of its requests the app took over (browser tests and diagnostics: 0 on a reopen).
    document.documentElement.dataset.bootAdopted = String(bootFetches.adopted())
  })

  if (user) {
    const userId = user.id
    afterFirstScreen(() => {
      void ensureUserRecord(kernel, telegram.launchParams.startParam, () => analytics.track("user_created")).catch((error: unknown) =>
        console.warn("[user] current user check failed", error),
      )
      // The device fingerprint: lazily, 1 s after the start when idle, once per user and device in 30 days (decision 0390).
      startAppFingerprint(kernel, userId)
    })
  }

  trackScreenViews(router, analytics, composition)

  if (user) {
    // The route history of this session, for the next start at `/` (decision 0380).
    const userId = user.id
    let history = readRouteHistory(sessionStorage, userId)
    const record = () => {
      const location = router.state.location
      // A history entry the router did not write has no position: it counts as a push.
      const position = (location.state as { __TSR_index?: number }).__TSR_index ?? (history ? history.index + 1 : 0)
      history = recordRoute(history, userId, location.href, Number(position))
      writeRouteHistory(sessionStorage, history)
    }
    record()
    router.subscribe("onResolved", record)
  }

  // 403 content_unavailable from any later call: the user is restricted from now on (spec 1 §8).
  const onRestricted = (error: unknown) => {
    if (!(error instanceof HttpError) || error.status !== 403 || error.serverCode !== "content_unavailable") return
    sessionStorage.setItem(RESTRICTED_KEY, "1")
    if (window.location.pathname !== "/unavailable") void router.navigate({ to: "/unavailable", replace: true } as never)
  }
  kernelQueryClient(kernel)
    .getQueryCache()
    .subscribe((event) => event.type === "updated" && event.action.type === "error" && onRestricted(event.action.error))
  kernelQueryClient(kernel)
    .getMutationCache()
    .subscribe((event) => event.type === "updated" && event.action.type === "error" && onRestricted(event.action.error))

  root.render(
    <StrictMode>
      <KernelProvider kernel={kernel}>
        <RouterProvider router={router} />
      </KernelProvider>
    </StrictMode>,
  )

  // Plugins' afterStart hooks: loaded once the first screen is up and the browser is idle.
  if (user && composition.hooks.afterStart.length > 0) {
    const host = {
      kernel,
      navigate: (options: object) => router.navigate(options as never),
      // Every screen the user reaches (the path), e.g. for a plugin that gates screens.
      onNavigate: (listener: (pathname: string) => void) => router.subscribe("onResolved", (event) => listener(event.toLocation.pathname)),
    }
    const run = () => {
      for (const hook of composition.hooks.afterStart) {
        void hook.load().then(
          (module) => module.default(host),
          (error: unknown) => console.warn(`[hooks] afterStart of ${hook.pluginId} did not load`, error),
        )
      }
    }
    afterFirstScreen(run)
  }
}

/**
 * Spec 3 §7.4: get the current user; on user_not_found, upsert it with UTM tags from the launch start
 * parameter; a 201 fires the user-created callback. Runs after the first screen, on the typed client.
 * The start param carries no UTM fields of its own (spec silent), so `operation` records it whole.
 */
async function ensureUserRecord(kernel: Kernel, startParam: string | undefined, onCreated: () => void) {
  const api = await kernel.api()
  const utmTags = startParam ? { operation: startParam.slice(0, 256) } : {}
  const created = await kernel.runtime.runPromise(
    api.users.me().pipe(
      Effect.as(false),
      Effect.catchTag("NotFound", () => api.users.upsertMe({ payload: { utmTags } }).pipe(Effect.map((r) => r.created))),
      Effect.catch(() => Effect.succeed(false)),
    ),
  )
  if (created) onCreated()
}

void boot()
