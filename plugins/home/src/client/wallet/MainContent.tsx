import { useMemo, useState } from "react"
import { useKernel, useT } from "@wallet/kernel-react"
import { Banner, Button, Cell, List, Section } from "@wallet/kernel-react/ui"
import type { AccountsData, Asset, FrozenBalance } from "@wallet/plugin-custody/api"
import type { MainData } from "./accounts.ts"
import { ActionBar, type MainAction } from "./ActionBar.tsx"
import { AssetRow, minorOf } from "./AssetRows.tsx"
import { splitMainList } from "./mainList.ts"
import { ACTION_ACCESS_FLAG, mainActionAvailability, type MainActionName } from "./mainActions.ts"
import styles from "./content.module.css"

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

/**
 * Wallet main below the balance, once the accounts are there: the action buttons and the asset list
 * (pinned, frozen rows, the low-balance toggle). Its own chunk, fetched while the accounts load.
 */
export default function MainContent(props: {
  readonly data: MainData
  /** The last refetch failed: the balances shown may be old. */
  readonly stale: boolean
  readonly onRetry: () => void
  readonly expanded: boolean
  readonly onToggle: () => void
  readonly go: (to: string) => void
}) {
  const t = useT("home")
  return (
    <>
      {props.stale && <Banner tone="warning" title={t("error.stale")} action={<Button size="s" look="plain" onClick={props.onRetry}>{t("error.retry")}</Button>} />}
      <MainActions accounts={props.data.accounts} go={props.go} />
      <AssetList assets={props.data.accounts.assets} frozen={props.data.frozen} expanded={props.expanded} onToggle={props.onToggle} go={props.go} />
    </>
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
