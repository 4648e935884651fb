import { useEffect, useMemo, useState, useSyncExternalStore } from "react"
import { Icon, TrackEvent, useDegraded, useGo, useKernel, useT } from "@wallet/kernel-react"
import { Banner, Button, Cell, IconButton, List, Placeholder, Section, SkeletonList, useSnackbar } from "@wallet/kernel-react/ui"
import { formatDisplay } from "../core/amount.ts"
import { buildAssetList, type Asset, type ExtraCurrencyAsset } from "../core/assets.ts"
import { visibleEvents } from "../core/history.ts"
import { POST_FINALIZATION_REFETCH_MS } from "../core/pending.ts"
import { NftCell, useNfts } from "./CollectibleScreens.tsx"
import { AddressPill, TonBalance, TonSpaceDegradedBanner, TonTabBar } from "./common.tsx"
import { scannedAddress } from "./scan.ts"
import { useExtraCurrencies, usePendingWatcher, useWalletData } from "./data.ts"
import { EventRow, PendingRow } from "./events.tsx"
import { NS, useWallet } from "./hooks.ts"
import OnboardingScreen from "./OnboardingScreen.tsx"
import { secrets } from "./secrets.ts"
import { isBackupComplete } from "./store.ts"
import { useTon } from "./ton.ts"
import styles from "./ton.module.css"
import {
  assetRoute,
  backupManualRoute,
  collectiblesRoute,
  extraCurrencyRoute,
  importMnemonicRoute,
  qrRoute,
  sendRoute,
  walletSettingsRoute,
} from "../routes.ts"

function AssetRow({ asset, onOpen }: { readonly asset: Asset; readonly onOpen: () => void }) {
  const t = useT(NS)
  return (
    <Cell
      before={<Icon name={asset.kind === "ton" ? "ton" : "currency"} />}
      title={asset.name}
      subtitle={asset.isScam ? t("assets.scam") : asset.risky ? t("assets.unverified") : asset.currency}
      after={`${formatDisplay(asset.balance, asset.decimals)} ${asset.currency}`}
      chevron
      onClick={onOpen}
    />
  )
}

/** An extra currency of the chain (ADR 0630): listed with the main assets, no price. */
function ExtraRow({ asset, onOpen }: { readonly asset: ExtraCurrencyAsset; readonly onOpen: () => void }) {
  const t = useT(NS)
  return (
    <Cell
      before={<Icon name="currency" />}
      title={asset.currency}
      subtitle={t("extra.subtitle", { id: asset.extraCurrencyId })}
      after={`${formatDisplay(asset.balance, asset.decimals)} ${asset.currency}`}
      chevron
      onClick={onOpen}
    />
  )
}

/** /scw: the self-custody wallet main (or its onboarding when this device has no wallet). */
/**
 * The TON side's QR scan (spec 1 §2 top bar): an address or `ton://transfer` link opens the send
 * screen to it. Hidden while the degradation banner disables the TON space (spec 2 §6).
 */
function ScanButton() {
  const t = useT(NS)
  const kernel = useKernel()
  const go = useGo()
  const snackbar = useSnackbar()
  const degraded = useDegraded("is_ton_space_enabled")
  if (degraded) return null
  const scan = async () => {
    let found: string | undefined
    const scanning = kernel.telegram.scanQr({
      text: t("main.scanHint"),
      onText: (text) => {
        found = scannedAddress(text)
        return found !== undefined
      },
    })
    if (scanning === null) return
    await scanning
    if (found) void go(sendRoute, { search: { to: found } })
    else snackbar.show({ text: t("main.scanUnknown") })
  }
  return (
    <IconButton aria-label={t("main.scanQr")} onClick={() => void scan()}>
      <Icon name="qr" />
    </IconButton>
  )
}

export default function MainScreen() {
  const [state] = useWallet()
  if (!state.address || !state.raw) return <OnboardingScreen />
  return <WalletMain address={state.address} raw={state.raw} />
}

function WalletMain({ address, raw }: { readonly address: string; readonly raw: string }) {
  const t = useT(NS)
  const kernel = useKernel()
  const go = useGo()
  const [state, update] = useWallet()
  const ton = useTon()
  const { account, jettons, events } = useWalletData(raw)
  const extras = useExtraCurrencies(raw)
  const nfts = useNfts(raw, state.walletNetwork)
  const inMemory = useSyncExternalStore(secrets.subscribe, () => secrets.current()?.address === address)
  const [sealed, setSealed] = useState(false)
  useEffect(() => {
    let alive = true
    void import("./vault.ts")
      .then((m) => m.vaultAddress(kernel))
      .then(
        (vaulted) => alive && setSealed(vaulted === address),
        () => undefined,
      )
    return () => {
      alive = false
    }
  }, [kernel, address])
  const held = inMemory || sealed
  // The server's backup flags (a backup made on another device clears the banner here too).
  useEffect(() => {
    void import("./server-sync.ts").then((m) => m.syncAddresses(kernel)).catch(() => undefined)
  }, [kernel, address])
  const refresh = () => {
    account.reload()
    jettons.reload()
    extras.reload()
    events.reload()
    // Spec 2 §4: collectibles are refetched 5 s after a finalization.
    setTimeout(nfts.reload, POST_FINALIZATION_REFETCH_MS)
  }
  usePendingWatcher(refresh)
  // Incoming transfers show up without a pull: refresh while the screen is open.
  useEffect(() => {
    const timer = setInterval(() => {
      account.reload()
      extras.reload()
      events.reload()
    }, 15_000)
    return () => clearInterval(timer)
    // oxlint-disable-next-line react-hooks/exhaustive-deps
  }, [raw])

  const assets = useMemo(
    () =>
      account.data
        ? buildAssetList({
            network: state.walletNetwork,
            tonBalance: account.data.balance,
            jettons: jettons.data ?? [],
            riskChecked: new Set(state.riskChecked),
          })
        : undefined,
    [account.data, jettons.data, state.walletNetwork, state.riskChecked],
  )
  const major = assets?.filter((a) => a.major) ?? []
  const minor = assets?.filter((a) => !a.major) ?? []
  const pendingItems = state.pending.pending
  const history = events.data ? visibleEvents(events.data) : undefined
  const openSend = () => void go(sendRoute, { search: {} })
  const openAsset = (asset: Asset) => void go(assetRoute, { params: { address: asset.address }, search: { source: "main" } })
  const openExtra = (asset: ExtraCurrencyAsset) => void go(extraCurrencyRoute, { params: { id: String(asset.extraCurrencyId) } })

  return (
    <main className={styles.screen}>
      <header className={styles.header}>
        <AddressPill address={address} />
        <ScanButton />
        <IconButton aria-label={t("main.settings")} onClick={() => void go(walletSettingsRoute, { search: { tab: "scw" } })}>
          <Icon name="settings" />
        </IconButton>
      </header>
      <TonSpaceDegradedBanner />
      <TonBalance balance={account.data?.balance} failed={account.error !== undefined} />
      <div className={styles.actions}>
        <Button look="primary" onClick={() => openSend()}>
          {t("main.send")}
        </Button>
        <Button look="secondary" onClick={() => void go(qrRoute)}>
          {t("main.receive")}
        </Button>
      </div>
      <List>
        {!held && (
          <Banner
            tone="warning"
            title={t("main.keysMissingTitle")}
            description={t("main.keysMissingText")}
            action={
              <Button size="s" look="secondary" onClick={() => void go(importMnemonicRoute)}>
                {t("main.keysMissingAction")}
              </Button>
            }
          />
        )}
        {held && !isBackupComplete(state) && (
          <Banner
            tone="warning"
            title={t("main.backupTitle")}
            description={t("main.backupText")}
            action={
              <Button size="s" look="secondary" onClick={() => void go(backupManualRoute)}>
                {t("main.backupAction")}
              </Button>
            }
          />
        )}
        <Section header={t("assets.title")}>
          {!assets ? (
            account.error ? (
              <>
                <TrackEvent name="error_shown" properties={{ where: "ton-space/main", code: "assets_load_failed" }} />
                <Placeholder
                  kind="error"
                  title={t("errors.load")}
                  action={
                    <Button size="s" onClick={refresh}>
                      {t("errors.retry")}
                    </Button>
                  }
                />
              </>
            ) : (
              <SkeletonList label={t("assets.loading")} />
            )
          ) : (
            <>
              {major.map((asset) => (
                <AssetRow key={asset.address} asset={asset} onOpen={() => openAsset(asset)} />
              ))}
              {extras.data?.map((asset) => (
                <ExtraRow key={asset.address} asset={asset} onOpen={() => openExtra(asset)} />
              ))}
              {minor.length > 0 && (
                <Cell
                  title={state.minorAssetsVisible ? t("assets.hideMinor") : t("assets.showMinor", { count: minor.length })}
                  aria-expanded={state.minorAssetsVisible}
                  onClick={() => update((s) => ({ ...s, minorAssetsVisible: !s.minorAssetsVisible }))}
                />
              )}
              {state.minorAssetsVisible && minor.map((asset) => <AssetRow key={asset.address} asset={asset} onOpen={() => openAsset(asset)} />)}
            </>
          )}
        </Section>
        {nfts.data && nfts.data.length > 0 && (
          <Section header={t("nft.title")}>
            {nfts.data.slice(0, 3).map((item) => (
              <NftCell key={item.address} item={item} />
            ))}
            {nfts.data.length > 3 && <Cell title={t("nft.seeAll", { count: nfts.data.length })} chevron onClick={() => void go(collectiblesRoute)} />}
          </Section>
        )}
        <Section header={t("history.title")}>
          {pendingItems.map((tx) => (
            <PendingRow key={tx.key} tx={tx} network={state.walletNetwork} ton={ton} />
          ))}
          {!history ? (
            events.error ? (
              <Placeholder kind="error" title={t("errors.load")} />
            ) : (
              <SkeletonList label={t("history.loading")} />
            )
          ) : history.length === 0 && pendingItems.length === 0 ? (
            <Placeholder title={t("history.empty")} description={t("history.emptyText")} />
          ) : (
            history.map((event) => <EventRow key={event.event_id} event={event} raw={raw} network={state.walletNetwork} ton={ton} />)
          )}
        </Section>
      </List>
      <TonTabBar />
    </main>
  )
}
