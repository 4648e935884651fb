/** Pieces shared by the TON space screens: the TON tab bar, the address pill, the word grid. */
import { useState, type ReactNode } from "react"
import { useLocation } from "@tanstack/react-router"
import { slotsForUser } from "@wallet/kernel"
import { Icon, useDegraded, useGoTo, useKernel, useT, type Kernel } from "@wallet/kernel-react"
import { Banner, Skeleton, TabBar, useSnackbar } from "@wallet/kernel-react/ui"
import { shortAddress } from "../core/address.ts"
import { formatDisplay, TON_DECIMALS } from "../core/amount.ts"
import { NS, useWallet } from "./hooks.ts"
import styles from "./ton.module.css"

/** The TON tabs the signed-in user may see: a tab's `permissions` must all be held (decision 0140). */
export const visibleTonTabs = (kernel: Pick<Kernel, "composition" | "user">) => slotsForUser(kernel.composition.tabs.ton, kernel.user())

/** The self-custody tab bar (Main, Swap, Earn) with the swap tooltip shown once until saved as shown. */
export function TonTabBar() {
  const kernel = useKernel()
  const goTo = useGoTo()
  const { pathname } = useLocation()
  const [state, update] = useWallet()
  const tabs = visibleTonTabs(kernel)
  const active = tabs.find((tab) => tab.to === pathname)
  const namespaceOf = (pluginId: string) => kernel.composition.plugins.find((p) => p.id === pluginId)?.i18n?.namespace ?? pluginId
  const tooltipTab = !state.swapTooltipShown && pathname === "/scw" ? tabs.find((tab) => tab.tooltip) : undefined
  // Spec 2 §6: the degradation banner's flag off hides the TON side's tab bar.
  const degraded = useDegraded("is_ton_space_enabled")
  if (tabs.length === 0 || degraded) return null
  return (
    <TabBar
      aria-label={kernel.i18n.t(`${NS}:tabs.label`)}
      items={tabs.map((tab) => ({ id: tab.id, label: kernel.i18n.t(`${namespaceOf(tab.pluginId)}:${tab.labelKey}`), icon: <Icon name={tab.icon} /> }))}
      activeId={active?.id}
      platformStyle={/ios|macos/.test(kernel.telegram.launchParams.platform) ? "apple" : "material"}
      onSelect={(id) => {
        const tab = tabs.find((t) => t.id === id)!
        // A composed tab names a concrete full path (another plugin may contribute it).
        void goTo({ to: tab.to, ...(tab.id === "swap" ? { search: { source: "tabbar" } } : {}) })
      }}
      onActiveTabPress={() => window.scrollTo({ top: 0, behavior: "smooth" })}
      {...(tooltipTab?.tooltip
        ? {
            tooltip: {
              tabId: tooltipTab.id,
              content: kernel.i18n.t(`${namespaceOf(tooltipTab.pluginId)}:${tooltipTab.tooltip.textKey}`),
              onDismiss: () => update((s) => ({ ...s, swapTooltipShown: true })),
            },
          }
        : {})}
    />
  )
}

/** The degradation banner (spec 3 §3 `is_ton_space_enabled` off): the TON space is temporarily unavailable. */
export function TonSpaceDegradedBanner() {
  const t = useT(NS)
  const degraded = useDegraded("is_ton_space_enabled")
  if (!degraded) return null
  return <Banner tone="warning" data-testid="ton-space-degraded" title={t("degraded.title")} description={t("degraded.text")} />
}

/** The wallet's address, short, copying the full address on press. */
export function AddressPill({ address }: { readonly address: string }) {
  const t = useT(NS)
  const snackbar = useSnackbar()
  const kernel = useKernel()
  return (
    <button
      type="button"
      className={styles.addressButton}
      aria-label={t("main.copyAddress", { address })}
      onClick={() => {
        void navigator.clipboard?.writeText(address).catch(() => undefined)
        kernel.telegram.haptic({ type: "notification", kind: "success" })
        snackbar.show({ id: "ton-address-copied", text: t("main.addressCopied") })
      }}
    >
      {shortAddress(address)}
    </button>
  )
}

export function WordGrid({ words }: { readonly words: ReadonlyArray<string> }) {
  const t = useT(NS)
  return (
    <ol className={styles.words} aria-label={t("backup.wordsLabel")}>
      {words.map((word, i) => (
        <li key={i}>
          <span className={styles.wordIndex} aria-hidden="true">
            {i + 1}.
          </span>
          <span>{word}</span>
        </li>
      ))}
    </ol>
  )
}

export function Hero({
  title,
  text,
  icon = "ton",
  children,
}: {
  readonly title: string
  readonly text?: string
  readonly icon?: string
  readonly children?: ReactNode
}) {
  return (
    <section className={styles.hero}>
      <div className={styles.heroIcon} aria-hidden="true">
        <Icon name={icon} size={48} />
      </div>
      <h1 className={styles.heroTitle}>{title}</h1>
      {text && <p className={styles.heroText}>{text}</p>}
      {children}
    </section>
  )
}

/** Words typed or pasted as a phrase: lower case, numbers and punctuation dropped. */
export const splitWords = (text: string): Array<string> =>
  text
    .toLowerCase()
    .replace(/[^a-z\s]/g, " ")
    .split(/\s+/)
    .filter(Boolean)

export function useOnce<T>(make: () => T): T {
  const [value] = useState(make)
  return value
}

/** The TON balance block of main and the viewer: the amount, an error, or a skeleton while loading. */
export function TonBalance({ balance, failed }: { readonly balance: bigint | undefined; readonly failed: boolean }) {
  const t = useT(NS)
  return (
    <section className={styles.balance} aria-live="polite">
      <p className={styles.balanceLabel}>{t("main.balance")}</p>
      {balance !== undefined ? (
        <p className={styles.balanceValue}>{formatDisplay(balance, TON_DECIMALS)} TON</p>
      ) : failed ? (
        <p className={styles.error} role="alert">
          {t("errors.load")}
        </p>
      ) : (
        <Skeleton shape="text" width={160} height={44} />
      )}
    </section>
  )
}
