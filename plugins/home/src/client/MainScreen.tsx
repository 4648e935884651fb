import { useEffect, useMemo, useState } from "react"
import { useNavigate } from "@tanstack/react-router"
import { PreferencesStore } from "@wallet/kernel"
import { Icon, runEffect, useKernel, useT } from "@wallet/kernel-react"
import { Banner, Button, Cell, IconButton, List, Placeholder, Section, SkeletonList } from "@wallet/kernel-react/ui"
import type { AccountsData, Asset, FrozenBalance } from "@wallet/plugin-custody/api"
import { useMainData } from "./wallet/accounts.ts"
import { ActionBar, type MainAction } from "./wallet/ActionBar.tsx"
import { AssetRow, minorOf } from "./wallet/AssetRows.tsx"
import { formatFiatAmount } from "./wallet/format.ts"
import { HIDDEN_ASSETS_EXPANDED_KEY, splitMainList } from "./wallet/mainList.ts"
import { ACTION_ACCESS_FLAG, mainActionAvailability, type MainActionName } from "./wallet/mainActions.ts"
import styles from "./main.module.css"

/** Spec 1 §2: the tab switch records the selected space 1000 ms after it changes the route. */
const SPACE_RECORD_DELAY_MS = 1000
const SELECTED_SPACE_KEY = "wallet:selected-space"

/** Where each action leads, when a plugin of this build serves it ("as present"). */
const ACTION_ROUTES: ReadonlyArray<{ readonly name: MainActionName; readonly paths: ReadonlyArray<string> }> = [
  { name: "receive", paths: ["/choose-asset/$type"] },
  { name: "send", paths: ["/send-options", "/assets/send"] },
  { name: "exchange", paths: ["/exchange"] },
  { name: "buy", paths: ["/purchase-options"] },
]
const ACTION_TARGET: Record<MainActionName, string> = {
  receive: "/choose-asset/receive",
  send: "/send-options",
  exchange: "/exchange",
  buy: "/purchase-options",
}

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
  const user = kernel.user()
  const [fiat, setFiat] = useState<string | null>(null)
  const [expanded, setExpanded] = useState(readExpanded)
  const { entry, refetch } = useMainData(kernel, fiat)

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

  const scanQr = async () => {
    kernel.telegram.haptic({ type: "impact", style: "light" })
    kernel.telegram.scanQr({ text: t("scanQrText"), onText: () => true })
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
      {data && <MainActions accounts={data.accounts} go={go} />}
      {entry.status === "error" && data === undefined ? (
        <Placeholder
          kind="error"
          icon={<Icon name="alert" size={48} />}
          title={t("error.title")}
          description={t("error.text")}
          action={<Button look="secondary" onClick={refetch}>{t("error.retry")}</Button>}
        />
      ) : data === undefined ? (
        <List>
          <Section header={t("assets")}>
            <SkeletonList label={t("loading")} />
          </Section>
        </List>
      ) : (
        <>
          {entry.status === "error" && (
            <Banner tone="warning" title={t("error.stale")} action={<Button size="s" look="plain" onClick={refetch}>{t("error.retry")}</Button>} />
          )}
          <AssetList assets={data.accounts.assets} frozen={data.frozen} expanded={expanded} onToggle={toggle} go={go} />
        </>
      )}
    </main>
  )
}

function MainActions({ accounts, go }: { readonly accounts: AccountsData; readonly go: (to: string) => void }) {
  const kernel = useKernel()
  const paths = new Set(kernel.composition.routes.map((route) => route.fullPath))
  // Availability is judged when the accounts arrive (a scheduled action opens with the next poll).
  const [now] = useState(() => new Date())
  const actions: ReadonlyArray<MainAction> = ACTION_ROUTES.filter(({ paths: candidates }) => candidates.some((p) => paths.has(p))).map(({ name, paths: candidates }) => {
    const flag = ACTION_ACCESS_FLAG[name]
    const target = name === "send" && !paths.has("/send-options") ? candidates.find((p) => paths.has(p))! : ACTION_TARGET[name]
    return {
      name,
      availability: mainActionAvailability(
        accounts.assets.filter((asset) => asset.category !== "stock" && asset.category !== "etf").map((asset) => asset.actions[name]),
        flag ? (accounts.accessFlags as Readonly<Record<string, boolean>>)[flag] : undefined,
        now,
      ),
      onRun: () => {
        kernel.telegram.haptic({ type: "impact", style: "light" })
        go(target)
      },
    }
  })
  return actions.length > 0 ? <ActionBar actions={actions} /> : null
}

function AssetList(props: {
  readonly assets: ReadonlyArray<Asset>
  readonly frozen: ReadonlyArray<FrozenBalance>
  readonly expanded: boolean
  readonly onToggle: () => void
  readonly go: (to: string) => void
}) {
  const t = useT("home")
  const { assets, frozen } = props
  const list = useMemo(() => {
    const rows = assets.map((asset) => ({ asset, currency: asset.currency, category: asset.category, balance: minorOf(asset.balance, asset.decimals), usdBalance: minorOf(asset.usdBalance, 2), isAlwaysOnMain: asset.isAlwaysOnMain }))
    const rules = { pinned: assets.filter((a) => a.isAlwaysOnMain).map((a) => a.currency), pinnedWithoutBalance: assets.filter((a) => a.isPinnedWithoutBalance).map((a) => a.currency) }
    return splitMainList(rows, rules)
  }, [assets])
  const open = (asset: Asset) => props.go(minorOf(asset.balance, asset.decimals) > 0n ? `/assets/${asset.currency}` : `/assets-public/${asset.currency}`)
  const row = ({ asset }: { readonly asset: Asset }) => (
    <AssetRow key={asset.currency} asset={asset} frozen={frozen.filter((item) => item.currency === asset.currency)} onOpen={open} />
  )
  return (
    <List>
      <Section header={t("assets")}>
        {list.pinned.map(row)}
        {props.expanded && list.hidden.map(row)}
        {list.hidden.length > 0 && (
          <Cell
            className={styles.toggle}
            tone="accent"
            aria-expanded={props.expanded}
            title={props.expanded ? t("hideLowBalance") : t("moreCrypto")}
            onClick={props.onToggle}
          />
        )}
      </Section>
    </List>
  )
}
