import { lazy, Suspense, useEffect, useMemo, useState } from "react"
import { Effect } from "effect"
import { PreferencesStore } from "@wallet/kernel"
import {
  analyticsOf,
  Icon,
  namespaceOfPlugin,
  registerPrefetch,
  registerStartQuery,
  runEffect,
  saveViewSettings,
  useDegraded,
  useGo,
  useGoTo,
  useKernel,
  useMainSlots,
  useT,
  prefetchViewSettings,
  useTrackEvent,
  useViewSettingsRead,
  writeBootPaint,
  type Kernel,
  type MainSlotHost,
} from "@wallet/kernel-react"
import { Banner, Button, List, Placeholder, Section, SkeletonList, Spinner, useSnackbar, VisuallyHidden } from "@wallet/kernel-react/ui"
import { scwRoute } from "../routes.ts"
import { mainDataQuery, mainView, prefetchNextScreens, useMainData } from "./wallet/accounts.ts"
import { formatFiatAmount } from "./wallet/format.ts"
import { loadAvailability, sectionComponent } from "./wallet/slotModules.ts"
import { TopBarButtons } from "./TopBar.tsx"
import styles from "./main.module.css"

/**
 * Actions and the asset list render only with data: their code (rows, formatting, the list rules)
 * is a chunk of its own, requested when main mounts (and preloaded by the HTML), in parallel with the
 * accounts. The balance and the rows show together once both the data and this code are there:
 * no lazy component, so no Suspense fallback whose reveal React would hold back (#17).
 */
type MainContentComponent = (typeof import("./wallet/MainContent.tsx"))["default"]
let loadedContent: MainContentComponent | undefined
const loadContent = () =>
  import("./wallet/MainContent.tsx").then((module) => {
    loadedContent = module.default
    return module
  })

/** The fiat main shows, read synchronously so the first render already asks for the accounts. */
const fiatOf = (kernel: Kernel): string | null => {
  try {
    return Effect.runSync(kernel.storage.load(PreferencesStore)).fiatCurrency
  } catch {
    return null
  }
}

registerPrefetch(prefetchNextScreens)
// The accounts and the view settings are requested as soon as the session exists, side by side,
// before main renders (decision 0007).
registerStartQuery("/main", (kernel, client) => {
  const fiat = fiatOf(kernel)
  return Promise.all([fiat === null ? undefined : client.prefetchQuery(mainDataQuery(kernel, fiat)), prefetchViewSettings(kernel, client)])
})

/** Session key of the toggle's expanded state (spec 1 §2: "lives in the session"). */
const HIDDEN_ASSETS_EXPANDED_KEY = "wallet:main:hidden-assets-expanded"

/** Spec 1 §2: the tab switch records the selected space 1000 ms after it changes the route. */
const SPACE_RECORD_DELAY_MS = 1000
const SELECTED_SPACE_KEY = "wallet:selected-space"

/** The session's toggle state, used until the view settings (`expand_cryptocurrency`) are there. */
const readExpanded = () => {
  try {
    return sessionStorage.getItem(HIDDEN_ASSETS_EXPANDED_KEY) === "1"
  } catch {
    return false
  }
}

/**
 * Wallet main: the crypto/TON switch (custody users only), the top-bar buttons, the total balance
 * in the user's fiat, the action buttons, the pinned assets with their frozen rows plus the
 * low-balance toggle, and the sections under the list (spec 1 §2 "Main screen", §5 "Main list").
 * Top-bar buttons, actions and sections are what the enabled plugins contribute (`main` in their
 * manifests, decision 0140): custody's QR scan and receive/send/exchange/buy, settings' gear.
 */
export default function MainScreen() {
  const t = useT("home")
  const kernel = useKernel()
  const snackbar = useSnackbar()
  const user = kernel.user()
  const [fiat, setFiat] = useState<string | null>(() => fiatOf(kernel))
  const [sessionExpanded, setExpanded] = useState(readExpanded)
  // View settings (decision 0360): `expand_cryptocurrency` opens the low-balance assets, `display_scw`
  // false hides the TON entry of the crypto/TON switch (settings' switch saves it).
  // The rows wait for their first read, so a late `expand_cryptocurrency` never rearranges them.
  const { data: viewSettings, settled: viewSettingsSettled } = useViewSettingsRead()
  const expanded = viewSettings?.userFlags.expand_cryptocurrency ?? sessionExpanded
  const showScw = viewSettings?.userFlags.display_scw !== false
  const { entry, refetch, refreshing } = useMainData(kernel, fiat)
  const slots = useMainSlots()
  const go = useGo()
  const goTo = useGoTo()
  const host = useMemo<MainSlotHost>(() => ({ kernel, navigate: goTo, go, snackbar }), [kernel, goTo, go, snackbar])

  // In parallel with the accounts: the content chunk, the actions' availability modules and the
  // contributing plugins' strings (they label the buttons; custody's also the screens main opens).
  const contributors = [...new Set([...slots.topBar, ...slots.actions].map((slot) => namespaceOfPlugin(kernel, slot.pluginId)))].join(",")
  const [MainContent, setMainContent] = useState<MainContentComponent | undefined>(() => loadedContent)
  useEffect(() => {
    let live = true
    const availability = slots.actions.flatMap((action) => (action.availability ? [loadAvailability(action.availability)] : []))
    void Promise.all([loadContent(), ...availability]).then(
      ([content]) => live && setMainContent(() => content.default),
      // The chunk did not load: a lazy component retries it and the route's error screen shows a failure.
      () => live && setMainContent(() => lazy(loadContent) as unknown as MainContentComponent),
    )
    return () => void (live = false)
  }, [slots])
  useEffect(() => {
    for (const namespace of contributors.split(",")) if (namespace) void runEffect(kernel, kernel.i18n.loadNamespace(namespace)).catch(() => undefined)
  }, [kernel, contributors])

  useEffect(() => {
    if (fiat !== null) return
    void runEffect(kernel, kernel.storage.load(PreferencesStore)).then(
      (p) => setFiat(p.fiatCurrency),
      () => setFiat("USD"),
    )
  }, [kernel, fiat])

  const switchToTon = () => {
    analyticsOf(kernel).track("home.switch_space", { to: "scw" })
    kernel.telegram.haptic({ type: "selection_change" })
    void go(scwRoute)
    setTimeout(() => {
      try {
        localStorage.setItem(SELECTED_SPACE_KEY, "scw")
      } catch {
        // Private mode: the space is simply not remembered.
      }
    }, SPACE_RECORD_DELAY_MS)
  }

  const toggle = () => {
    const next = !expanded
    setExpanded(next)
    try {
      sessionStorage.setItem(HIDDEN_ASSETS_EXPANDED_KEY, next ? "1" : "0")
    } catch {
      // Session storage unavailable: the state lasts for this screen only.
    }
    void saveViewSettings(kernel, { changedUserFlags: { expand_cryptocurrency: next } })
  }

  // The balance waits for the rows' code and the view settings, so the total and the asset rows
  // appear in one render, laid out as they stay.
  const contentReady = MainContent !== undefined && viewSettingsSettled
  const data = contentReady ? entry.data : undefined
  const view = !contentReady && entry.data !== undefined ? "loading" : mainView(entry)
  const totalText = data
    ? formatFiatAmount(data.accounts.availableBalanceTotalFiatAmount, data.accounts.availableBalanceTotalFiatCurrency, kernel.i18n.language())
    : undefined
  // What the next open paints from the HTML before its JavaScript runs (decision 0007): a fresh answer only.
  const userId = user?.id
  useEffect(() => {
    if (userId !== undefined && totalText !== undefined && view === "ready") writeBootPaint(userId, totalText)
  }, [userId, totalText, view])
  useTrackEvent("error_shown", { where: "home/main", code: "main_load_failed" }, { when: view === "error" })
  useTrackEvent("error_shown", { where: "home/main", code: "online_user_limit_exceeded" }, { when: view === "high-demand" || view === "technical-issue" })
  return (
    <main className={styles.screen}>
      <header className={styles.topBar}>
        {user?.isCustodyAvailable && showScw ? (
          <div role="tablist" aria-label={t("space.label")} className={styles.switch}>
            <button role="tab" type="button" aria-selected="true" className={styles.switchActive}>
              {t("space.crypto")}
            </button>
            <button role="tab" type="button" aria-selected="false" className={styles.switchItem} onClick={switchToTon}>
              {t("space.ton")}
            </button>
          </div>
        ) : (
          <span />
        )}
        <TopBarButtons host={host} />
      </header>
      <section className={styles.balance} aria-live="polite" aria-busy={data === undefined}>
        <p className={styles.balanceLabel}>
          {t("totalBalance")}
          {/* Balances from an earlier visit's cache, their refresh under way (decision 0008). */}
          {refreshing && data !== undefined && (
            <span className={styles.refreshing} data-testid="balance-refreshing">
              <Spinner size={14} />
              <VisuallyHidden>{t("updating")}</VisuallyHidden>
            </span>
          )}
        </p>
        <p className={styles.balanceValue} data-testid="total-balance">
          {totalText !== undefined ? totalText : view === "high-demand" ? "—" : <span className={styles.balanceSkeleton} />}
        </p>
        {view === "technical-issue" && (
          <p className={styles.balanceLabel} data-testid="balance-as-of">
            {t("error.asOfLastLogin")}
          </p>
        )}
      </section>
      {/* Spec 1 §2 "Error screen": online_user_limit_exceeded under the wallet balance (decision 0380). */}
      {view === "high-demand" && (
        <Placeholder
          kind="error"
          data-testid="high-demand"
          icon={<Icon name="alert" size={48} />}
          title={t("error.high_demand_title")}
          description={t("error.high_demand_desc")}
          action={
            <Button look="secondary" onClick={refetch}>
              {t("error.retry")}
            </Button>
          }
        />
      )}
      {view === "technical-issue" && (
        <Banner
          tone="warning"
          data-testid="technical-issue"
          title={t("error.technicalIssueTitle")}
          description={t("error.technicalIssueText")}
          action={
            <Button size="s" look="plain" onClick={refetch}>
              {t("error.retry")}
            </Button>
          }
        />
      )}
      <P2pDegradedBanner />
      {view === "high-demand" ? null : view === "error" ? (
        <Placeholder
          kind="error"
          icon={<Icon name="alert" size={48} />}
          title={t("error.title")}
          description={t("error.text")}
          action={
            <Button look="secondary" onClick={refetch}>
              {t("error.retry")}
            </Button>
          }
        />
      ) : data === undefined || MainContent === undefined ? (
        <AssetsSkeleton label={t("loading")} header={t("assets")} />
      ) : (
        <Suspense fallback={<AssetsSkeleton label={t("loading")} header={t("assets")} />}>
          <MainContent data={data} stale={view === "stale"} onRetry={refetch} expanded={expanded} onToggle={toggle} host={host} />
        </Suspense>
      )}
      {slots.sections.map((slot) => {
        const Contributed = sectionComponent(slot.component)
        return (
          <Suspense key={slot.globalId} fallback={null}>
            <Contributed />
          </Suspense>
        )
      })}
    </main>
  )
}

/**
 * The `is_p2p_enabled` degradation banner (spec 3 §3): while the flag is off and a plugin serves P2P
 * (routes under /p2p), wallet main says P2P is temporarily unavailable.
 */
function P2pDegradedBanner() {
  const t = useT("home")
  const kernel = useKernel()
  const degraded = useDegraded("is_p2p_enabled")
  if (!degraded || !kernel.composition.routes.some((route) => route.fullPath.startsWith("/p2p"))) return null
  return <Banner tone="warning" data-testid="p2p-degraded" title={t("degraded.p2pTitle")} description={t("degraded.p2pText")} />
}

/** Spec 1 §9: three skeleton rows while the assets load. */
function AssetsSkeleton({ label, header }: { readonly label: string; readonly header: string }) {
  return (
    <List>
      <Section header={header}>
        <SkeletonList label={label} />
      </Section>
    </List>
  )
}
