import { lazy, Suspense, useEffect, useState } from "react"
import { useNavigate } from "@tanstack/react-router"
import { PreferencesStore } from "@wallet/kernel"
import { Icon, registerPrefetch, runEffect, useKernel, useT } from "@wallet/kernel-react"
import { Button, IconButton, List, Placeholder, Section, SkeletonList, useSnackbar } from "@wallet/kernel-react/ui"
import { prefetchNextScreens, useMainData } from "./wallet/accounts.ts"
import { formatFiatAmount } from "./wallet/format.ts"
import styles from "./main.module.css"

/**
 * Actions and the asset list render only with data: their code (rows, formatting, the list rules)
 * is a chunk of its own, requested when main mounts, in parallel with the accounts.
 */
const loadContent = () => import("./wallet/MainContent.tsx")
const MainContent = lazy(loadContent)

registerPrefetch(prefetchNextScreens)

/** Session key of the toggle's expanded state (spec 1 §2: "lives in the session"). */
const HIDDEN_ASSETS_EXPANDED_KEY = "wallet:main:hidden-assets-expanded"

/** Spec 1 §2: the tab switch records the selected space 1000 ms after it changes the route. */
const SPACE_RECORD_DELAY_MS = 1000
const SELECTED_SPACE_KEY = "wallet:selected-space"

const readExpanded = () => {
  try {
    return sessionStorage.getItem(HIDDEN_ASSETS_EXPANDED_KEY) === "1"
  } catch {
    return false
  }
}

/**
 * Wallet main: the crypto/TON switch (custody users only), QR scan and settings, the total balance
 * in the user's fiat, the action buttons, and the pinned assets with their frozen rows plus the
 * low-balance toggle (spec 1 §2 "Main screen", §5 "Main list").
 */
export default function MainScreen() {
  const t = useT("home")
  const kernel = useKernel()
  const navigate = useNavigate()
  const snackbar = useSnackbar()
  const user = kernel.user()
  const [fiat, setFiat] = useState<string | null>(null)
  const [expanded, setExpanded] = useState(readExpanded)
  const { entry, refetch } = useMainData(kernel, fiat)

  // The custody namespace labels the History tab shown here and the screens main opens.
  useEffect(() => {
    void loadContent()
    void runEffect(kernel, kernel.i18n.loadNamespace("custody"))
  }, [kernel])

  useEffect(() => {
    void runEffect(kernel, kernel.storage.load(PreferencesStore)).then(
      (p) => setFiat(p.fiatCurrency),
      () => setFiat("USD"),
    )
  }, [kernel])

  const go = (to: string, search?: Record<string, string>) => void navigate({ to, ...(search ? { search } : {}) } as never)

  const switchToTon = () => {
    kernel.telegram.haptic({ type: "selection_change" })
    go("/scw")
    setTimeout(() => {
      try {
        localStorage.setItem(SELECTED_SPACE_KEY, "scw")
      } catch {
        // Private mode: the space is simply not remembered.
      }
    }, SPACE_RECORD_DELAY_MS)
  }

  // The scanner and the QR rules (spec 1 §5) belong to custody's send flow; loaded on the first tap.
  const scanQr = async () => {
    kernel.telegram.haptic({ type: "impact", style: "light" })
    const { scanAndRoute } = await import("@wallet/plugin-custody/scan")
    await scanAndRoute(kernel, navigate as never, snackbar)
  }

  const toggle = () => {
    const next = !expanded
    setExpanded(next)
    try {
      sessionStorage.setItem(HIDDEN_ASSETS_EXPANDED_KEY, next ? "1" : "0")
    } catch {
      // Session storage unavailable: the state lasts for this screen only.
    }
  }

  const data = entry.data
  return (
    <main className={styles.screen}>
      <header className={styles.topBar}>
        {user?.isCustodyAvailable ? (
          <div role="tablist" aria-label={t("space.label")} className={styles.switch}>
            <button role="tab" type="button" aria-selected="true" className={styles.switchActive}>{t("space.crypto")}</button>
            <button role="tab" type="button" aria-selected="false" className={styles.switchItem} onClick={switchToTon}>{t("space.ton")}</button>
          </div>
        ) : (
          <span />
        )}
        <div className={styles.topActions}>
          {user?.isCustodyAvailable && (
            <IconButton aria-label={t("scanQr")} onClick={() => void scanQr()}>
              <Icon name="qr" />
            </IconButton>
          )}
          <IconButton aria-label={t("settings")} onClick={() => go("/settings")}>
            <Icon name="settings" />
          </IconButton>
        </div>
      </header>
      <section className={styles.balance} aria-live="polite" aria-busy={data === undefined}>
        <p className={styles.balanceLabel}>{t("totalBalance")}</p>
        <p className={styles.balanceValue} data-testid="total-balance">
          {data ? formatFiatAmount(data.accounts.availableBalanceTotalFiatAmount, data.accounts.availableBalanceTotalFiatCurrency, kernel.i18n.language()) : <span className={styles.balanceSkeleton} />}
        </p>
      </section>
      {entry.status === "error" && data === undefined ? (
        <Placeholder
          kind="error"
          icon={<Icon name="alert" size={48} />}
          title={t("error.title")}
          description={t("error.text")}
          action={<Button look="secondary" onClick={refetch}>{t("error.retry")}</Button>}
        />
      ) : data === undefined ? (
        <AssetsSkeleton label={t("loading")} header={t("assets")} />
      ) : (
        <Suspense fallback={<AssetsSkeleton label={t("loading")} header={t("assets")} />}>
          <MainContent data={data} stale={entry.status === "error"} onRetry={refetch} expanded={expanded} onToggle={toggle} go={go} />
        </Suspense>
      )}
    </main>
  )
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
