/**
 * /scw/settings/connected-apps: the dApps connected to the current wallet on its network (icon, name,
 * host); disconnect one, or all after a confirmation; an empty state. Disconnecting tells the dApp.
 */
import { useEffect, useState, useSyncExternalStore } from "react"
import { Effect } from "effect"
import { Icon, useGo, useHideTabBar, useKernel, useT } from "@wallet/kernel-react"
import { Avatar, Button, Cell, List, Placeholder, Section, SkeletonList, useSnackbar } from "@wallet/kernel-react/ui"
import { shortAddress } from "./logic.ts"
import { dropEntriesOf, knownSessions, subscribe, tonConnect, type TonConnectRuntime } from "./runtime.ts"
import styles from "./tc.module.css"

const NS = "tonconnect"

export default function ConnectedAppsScreen() {
  const t = useT(NS)
  const kernel = useKernel()
  const go = useGo()
  const snackbar = useSnackbar()
  const [runtime, setRuntime] = useState<TonConnectRuntime | null | undefined>(undefined)
  const [busy, setBusy] = useState<string | undefined>(undefined)
  const sessions = useSyncExternalStore(subscribe, knownSessions)
  useHideTabBar()

  useEffect(() => {
    let alive = true
    void tonConnect(kernel, go).then(
      (r) => alive && setRuntime(r),
      () => alive && setRuntime(null),
    )
    return () => {
      alive = false
    }
  }, [kernel, go])

  const disconnect = async (id: string, name: string) => {
    if (!runtime || busy) return
    setBusy(id)
    await Effect.runPromise(runtime.engine.disconnect(id))
    dropEntriesOf(id)
    setBusy(undefined)
    kernel.telegram.haptic({ type: "notification", kind: "success" })
    snackbar.show({ id: "tc-disconnected", text: t("apps.disconnected", { name }) })
  }

  const disconnectAll = async () => {
    if (!runtime || busy) return
    const answer = await kernel.telegram.popup({
      title: t("apps.confirmAllTitle"),
      message: t("apps.confirmAllText"),
      buttons: [
        { id: "all", type: "destructive", text: t("apps.disconnectAll") },
        { id: "cancel", type: "cancel" },
      ],
    })
    if (answer !== "all") return
    setBusy("all")
    const ids = (sessions ?? []).map((s) => s.id)
    await Effect.runPromise(runtime.engine.disconnectAll())
    ids.forEach(dropEntriesOf)
    setBusy(undefined)
    snackbar.show({ id: "tc-disconnected", text: t("apps.allDisconnected") })
  }

  const title = <h1 className={styles.title}>{t("apps.title")}</h1>
  if (runtime === undefined || (runtime && sessions === undefined)) {
    return (
      <main className={styles.screen} aria-busy="true">
        <div className={styles.actions}>{title}</div>
        <List>
          <Section>
            <SkeletonList rows={3} label={t("apps.loading")} />
          </Section>
        </List>
      </main>
    )
  }
  if (runtime === null) {
    return (
      <main className={styles.screen}>
        <div className={styles.actions}>{title}</div>
        <Placeholder icon={<Icon name="wallet" size={48} />} title={t("apps.emptyTitle")} description={t("apps.noWallet")} />
      </main>
    )
  }
  const list = sessions ?? []
  const network = runtime.wallet.network === "-3" ? t("connect.networkTestnet") : t("connect.networkMainnet")
  return (
    <main className={styles.screen}>
      <div className={styles.actions}>
        {title}
        <p className={styles.lead}>{t("apps.lead", { address: shortAddress(runtime.wallet.friendly), network })}</p>
      </div>
      {list.length === 0 ? (
        <Placeholder icon={<Icon name="globe" size={48} />} title={t("apps.emptyTitle")} description={t("apps.emptyText")} />
      ) : (
        <>
          <List>
            <Section>
              {list.map((session) => (
                <Cell
                  key={session.id}
                  before={<Avatar src={session.app.iconUrl} name={session.app.name} size={40} shape="rounded" />}
                  title={session.app.name}
                  subtitle={session.app.shortHost}
                  after={
                    <Button
                      look="secondary"
                      size="s"
                      aria-label={t("apps.disconnectLabel", { name: session.app.name })}
                      loading={busy === session.id}
                      disabled={busy !== undefined}
                      onClick={() => void disconnect(session.id, session.app.name)}
                    >
                      {t("apps.disconnect")}
                    </Button>
                  }
                />
              ))}
            </Section>
          </List>
          <div className={styles.actions}>
            <Button look="destructive" stretched loading={busy === "all"} disabled={busy !== undefined} onClick={() => void disconnectAll()}>
              {t("apps.disconnectAll")}
            </Button>
          </div>
        </>
      )}
    </main>
  )
}
