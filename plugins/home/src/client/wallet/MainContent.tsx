import { use, useMemo, useState } from "react"
import type { ComposedSlot, MainActionEntry, SlotAvailability } from "@wallet/kernel"
import { analyticsOf, namespaceOfPlugin, runSlot, useKernel, useMainSlots, useT, type Go, type MainSlotHost } from "@wallet/kernel-react"
import { Banner, Button, Cell, List, Section } from "@wallet/kernel-react/ui"
import type { AccountsData, Asset, FrozenBalance } from "@wallet/plugin-custody/api"
import { assetRoute, publicAssetRoute } from "@wallet/plugin-custody/routes"
import type { MainData } from "./accounts.ts"
import { ActionBar, type MainAction } from "./ActionBar.tsx"
import { AssetRow, minorOf } from "./AssetRows.tsx"
import { splitMainList } from "./mainList.ts"
import { loadAvailability } from "./slotModules.ts"
import styles from "./content.module.css"

/**
 * Wallet main below the balance, once the accounts are there: the contributed action buttons and
 * the asset list (pinned, frozen rows, the low-balance toggle). Its own chunk, fetched while the
 * accounts load.
 */
export default function MainContent(props: {
  readonly data: MainData
  /** The last refetch failed: the balances shown may be old. */
  readonly stale: boolean
  readonly onRetry: () => void
  readonly expanded: boolean
  readonly onToggle: () => void
  /** What contributed buttons get when pressed. */
  readonly host: MainSlotHost
}) {
  const t = useT("home")
  return (
    <>
      {props.stale && (
        <Banner
          tone="warning"
          title={t("error.stale")}
          action={
            <Button size="s" look="plain" onClick={props.onRetry}>
              {t("error.retry")}
            </Button>
          }
        />
      )}
      <MainActions data={props.data} host={props.host} />
      <AssetList assets={props.data.accounts.assets} frozen={props.data.frozen} expanded={props.expanded} onToggle={props.onToggle} go={props.host.go} />
    </>
  )
}

/** The access flag of an entry, read from the accounts answer: `false` makes the action restricted. */
const flagOf = (accounts: AccountsData, flag: string | undefined): boolean | undefined =>
  flag === undefined ? undefined : (accounts.accessFlags as Readonly<Record<string, boolean | undefined>>)[flag]

function MainActions({ data, host }: { readonly data: MainData; readonly host: MainSlotHost }) {
  const kernel = useKernel()
  const { actions: entries } = useMainSlots()
  // Availability is judged when the accounts arrive (a scheduled action opens with the next poll).
  const [now] = useState(() => new Date())
  const actions: ReadonlyArray<MainAction> = entries.map((entry: ComposedSlot<MainActionEntry>) => {
    // `use` waits for the module only if it is not there yet (its load started with the screen).
    const module = entry.availability ? use(loadAvailability(entry.availability)) : undefined
    const availability: SlotAvailability =
      flagOf(data.accounts, entry.accessFlag) === false
        ? { kind: "restricted" }
        : (module?.default({ id: entry.id }, { main: data, now }) ?? { kind: "available" })
    const label = kernel.i18n.t(`${namespaceOfPlugin(kernel, entry.pluginId)}:${entry.labelKey}`)
    return {
      id: entry.globalId,
      label,
      icon: entry.icon,
      availability,
      onRun: () => {
        kernel.telegram.haptic({ type: "impact", style: "light" })
        analyticsOf(kernel).track("home.slot_press", { slot: entry.globalId, kind: "action" })
        void runSlot(entry, host)
      },
      explain: () => void module?.explain?.({ id: entry.id, label }, availability, host),
    }
  })
  return actions.length > 0 ? <ActionBar actions={actions} /> : null
}

function AssetList(props: {
  readonly assets: ReadonlyArray<Asset>
  readonly frozen: ReadonlyArray<FrozenBalance>
  readonly expanded: boolean
  readonly onToggle: () => void
  readonly go: Go
}) {
  const t = useT("home")
  const { assets, frozen } = props
  const list = useMemo(() => {
    const rows = assets.map((asset) => ({
      asset,
      currency: asset.currency,
      category: asset.category,
      balance: minorOf(asset.balance, asset.decimals),
      usdBalance: minorOf(asset.usdBalance, 2),
      isAlwaysOnMain: asset.isAlwaysOnMain,
    }))
    const rules = {
      pinned: assets.filter((a) => a.isAlwaysOnMain).map((a) => a.currency),
      pinnedWithoutBalance: assets.filter((a) => a.isPinnedWithoutBalance).map((a) => a.currency),
    }
    return splitMainList(rows, rules)
  }, [assets])
  // Spec 1 §5: an asset with a balance opens its screen, one without its public page.
  const open = (asset: Asset) => {
    const params = { assetCurrency: asset.currency }
    void (minorOf(asset.balance, asset.decimals) > 0n ? props.go(assetRoute, { params }) : props.go(publicAssetRoute, { params }))
  }
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
