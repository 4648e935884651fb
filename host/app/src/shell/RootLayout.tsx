import { Suspense, use, useCallback, useEffect, useRef, useState } from "react"
import { Outlet, useLocation, useRouter } from "@tanstack/react-router"
import { slotsForUser, tabTooltipToShow, type Lazy, type RouteModule } from "@wallet/kernel"
import {
  afterLoad,
  defaultBackTarget,
  Icon,
  loadOnce,
  OverlayHost,
  useGoTo,
  useKernel,
  useT,
  useTabBarHiddenByScreens,
  type Kernel,
  type TabStripRender,
  type TabStripSource,
} from "@wallet/kernel-react"
import { SnackbarProvider, TabBar, useSnackbar } from "@wallet/kernel-react/ui"
import { SHELL } from "./screens.tsx"
import { LanguageHints } from "./LanguageHints.tsx"
import { initialBackDepth } from "../route-history.ts"

/** Pages where Telegram's back button stays hidden: homes and the top-level status pages. */
const NO_BACK = [
  "/",
  "/main",
  "/scw",
  "/error",
  "/unsupported_region",
  "/unsupported_app_store",
  "/unavailable",
  "/client-connection-error",
  "/attach-private-chats-error",
  "/wallet-onboarding",
]

/** The custodial tabs the signed-in user may see: a tab's `permissions` must all be held (decision 0140). */
export const visibleCustodialTabs = (kernel: Pick<Kernel, "composition" | "user">) => slotsForUser(kernel.composition.tabs.custodial, kernel.user())

/** The first enabled plugin's strip above the tab bar whose permissions the user holds (manifest `tabStrip`). */
export const tabStripOf = (kernel: Pick<Kernel, "composition" | "user">) => {
  const user = kernel.user()
  const plugin = kernel.composition.plugins.find(
    (p) => p.tabStrip !== undefined && slotsForUser([{ id: p.id, permissions: p.tabStrip.permissions ?? [] }], user).length > 0,
  )
  return plugin?.tabStrip
}

/** Renders a plugin's strip source once its module loaded (one promise per module: `loadOnce`). */
function StripHost({ load, onChange }: { readonly load: Lazy<RouteModule>; readonly onChange: (render: TabStripRender | undefined) => void }) {
  const Source = (use(loadOnce(load)) as { readonly default: TabStripSource }).default
  return <Source onChange={onChange} />
}

/** The tab tooltip shows once per session. */
const TOOLTIP_SHOWN_KEY = "wallet:tab-tooltip-shown"

/** Spec 1 §2 "System back", tab bar hide rules, Telegram settings button, snackbars on navigation. */
function Chrome() {
  const kernel = useKernel()
  const t = useT(SHELL)
  const router = useRouter()
  const goTo = useGoTo()
  const { pathname } = useLocation()
  const snackbar = useSnackbar()
  // A restored route history (decision 0380) starts with its earlier entries behind the back button.
  const depth = useRef(initialBackDepth())
  const previous = useRef(pathname)
  const [keyboardOpen, setKeyboardOpen] = useState(false)
  const hiddenByScreens = useTabBarHiddenByScreens()
  const user = kernel.user()

  // In-app history depth decides between history.back() and the default back target.
  useEffect(() => {
    if (previous.current !== pathname) {
      depth.current += 1
      previous.current = pathname
      snackbar.dismissOnNavigation()
    }
  }, [pathname, snackbar])

  const showBack = !NO_BACK.includes(pathname)
  useEffect(() => {
    kernel.telegram.backButton.setVisible(showBack)
  }, [kernel, showBack])
  useEffect(
    () =>
      kernel.telegram.backButton.onClick(() => {
        if (depth.current > 1) {
          depth.current -= 2
          router.history.back()
        } else {
          void goTo({ to: defaultBackTarget(kernel.user(), window.location.pathname), replace: true })
        }
      }),
    [kernel, router, goTo],
  )

  // Telegram's settings button (bot version 6.10+): opens settings, or goes back if already there.
  const inWallet = user !== undefined && !NO_BACK.slice(3).includes(pathname)
  useEffect(() => {
    kernel.telegram.settingsButton.setVisible(inWallet)
  }, [kernel, inWallet])
  useEffect(
    () =>
      kernel.telegram.settingsButton.onClick(() => {
        if (window.location.pathname.startsWith("/settings")) router.history.back()
        else void goTo({ to: "/settings" })
      }),
    [kernel, router, goTo],
  )

  // The keyboard counts as open while a text field has focus.
  useEffect(() => {
    const update = () => {
      const el = document.activeElement
      setKeyboardOpen(el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement)
    }
    // Spec 1 §9: keyboard-hide delay 100 ms.
    const updateLater = () => setTimeout(update, 100)
    document.addEventListener("focusin", update)
    document.addEventListener("focusout", updateLater)
    return () => {
      document.removeEventListener("focusin", update)
      document.removeEventListener("focusout", updateLater)
    }
  }, [])

  const tabs = visibleCustodialTabs(kernel)
  // The strip's source loads once the bar can show, after the page's load (spec 1 §9 prefetch delay): no plugin code at boot.
  const [afterBoot, setAfterBoot] = useState(false)
  useEffect(() => afterLoad(() => setAfterBoot(true)), [])
  const stripSpec = afterBoot && user?.isCustodyAvailable ? tabStripOf(kernel) : undefined
  const [strip, setStrip] = useState<TabStripRender | undefined>(undefined)
  const onStrip = useCallback((render: TabStripRender | undefined) => setStrip(() => render), [])
  const activeTab = tabs.find((tab) => pathname === tab.to)
  const namespaceOf = (pluginId: string) => kernel.composition.plugins.find((p) => p.id === pluginId)?.i18n?.namespace ?? pluginId
  // Tab labels belong to their plugins: load their strings wherever the app opens (a load re-renders via useT).
  const tabNamespaces = [...new Set(tabs.map((tab) => namespaceOf(tab.pluginId)))].join(",")
  useEffect(() => {
    for (const namespace of tabNamespaces.split(",")) if (namespace) void kernel.runtime.runPromise(kernel.i18n.loadNamespace(namespace)).catch(() => undefined)
  }, [kernel, tabNamespaces])
  const labelsReady = tabLabelsReady(kernel, tabNamespaces.split(","))
  const hidden = keyboardOpen || hiddenByScreens || !labelsReady || (user?.isNew === true && pathname === "/main")
  const [tooltipShown, setTooltipShown] = useState(() => sessionStorage.getItem(TOOLTIP_SHOWN_KEY) === "1")
  const tooltipTab = hidden ? undefined : tabTooltipToShow({ tabs, pathname, language: kernel.i18n.language(), shownThisSession: tooltipShown })
  if (!activeTab || !user?.isCustodyAvailable) return null
  return (
    <>
      {stripSpec ? (
        <Suspense fallback={null}>
          <StripHost load={stripSpec.source} onChange={onStrip} />
        </Suspense>
      ) : null}
      <TabBar
        aria-label={t("tabs")}
        items={tabs.map((tab) => ({ id: tab.id, label: kernel.i18n.t(`${namespaceOf(tab.pluginId)}:${tab.labelKey}`), icon: <Icon name={tab.icon} /> }))}
        activeId={activeTab.id}
        hidden={hidden}
        platformStyle={/ios|macos/.test(kernel.telegram.launchParams.platform) ? "apple" : "material"}
        onSelect={(id) => void goTo({ to: tabs.find((tab) => tab.id === id)!.to })}
        onActiveTabPress={() => window.scrollTo({ top: 0, behavior: "smooth" })}
        {...(tooltipTab?.tooltip
          ? {
              tooltip: {
                tabId: tooltipTab.id,
                content: kernel.i18n.t(`${namespaceOf(tooltipTab.pluginId)}:${tooltipTab.tooltip.textKey}`),
                onDismiss: () => {
                  sessionStorage.setItem(TOOLTIP_SHOWN_KEY, "1")
                  setTooltipShown(true)
                },
              },
            }
          : {})}
        {...(strip !== undefined ? { strip } : {})}
      />
    </>
  )
}

/**
 * Whether every tab's strings are loaded. Until then the bar stays hidden: it showed raw keys
 * (`tab.history`) for a moment on a cold start while custody's namespace was loading.
 */
export const tabLabelsReady = (kernel: Kernel, namespaces: ReadonlyArray<string>): boolean =>
  namespaces.every((namespace) => !namespace || kernel.i18n.instance.hasLoadedNamespace(namespace))

export function RootLayout() {
  const kernel = useKernel()
  return (
    <SnackbarProvider onDuplicate={() => kernel.telegram.haptic({ type: "notification", kind: "error" })}>
      <Outlet />
      <Chrome />
      <LanguageHints />
      <OverlayHost />
    </SnackbarProvider>
  )
}
