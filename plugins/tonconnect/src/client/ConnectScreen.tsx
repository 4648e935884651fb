/**
 * /scw/tc/connect and /scw/tc/connect/qr: a dApp asks to connect (spec 2 §2, §5 "Connect links").
 * The link is checked first (the spec's 'Ton Connect search params is not available'), then the
 * client (iOS / Android 6.4+), the wallet, and the dApp's manifest (errors 2 and 3). Connect answers
 * ton_addr (+ ton_proof signed after the passcode); Decline answers 300.
 */
import { useEffect, useMemo, useState } from "react"
import { useSearch } from "@tanstack/react-router"
import { Effect } from "effect"
import { analyticsOf, Icon, MainButton, SecondaryButton, useGo, useHideTabBar, useKernel, useT } from "@wallet/kernel-react"
import { Avatar, Button, Cell, List, Placeholder, Section, Skeleton } from "@wallet/kernel-react/ui"
import type { ConnectProposal, SessionInfo } from "../engine/index.ts"
import { connectErrorKey, connectStart, shortAddress, type ConnectErrorKey, type ConnectSearch } from "./logic.ts"
import { tonConnect, type TonConnectRuntime } from "./runtime.ts"
import styles from "./tc.module.css"
import { mainRoute } from "@wallet/plugin-ton-space/routes"

const NS = "tonconnect"

type State =
  | { readonly kind: "loading" }
  | { readonly kind: "error"; readonly key: ConnectErrorKey; readonly retry?: boolean }
  | { readonly kind: "unavailable"; readonly reason: "platform" | "version" }
  | { readonly kind: "noWallet" }
  | { readonly kind: "unsupportedVersion" }
  | { readonly kind: "ready"; readonly runtime: TonConnectRuntime; readonly proposal: ConnectProposal; readonly busy?: "connect" | "decline" }
  | { readonly kind: "connected"; readonly session: SessionInfo; readonly returnUrl?: string }
  | { readonly kind: "declined"; readonly name: string }

export const versionLabel = (version: string): string => (version === "v5r1" ? "W5" : version === "v4r2" ? "v4R2" : version)

export default function ConnectScreen() {
  const t = useT(NS)
  const kernel = useKernel()
  const go = useGo()
  const search = useSearch({ strict: false }) as ConnectSearch
  const [state, setState] = useState<State>({ kind: "loading" })
  const [attempt, setAttempt] = useState(0)
  useHideTabBar()
  const searchKey = JSON.stringify(search)
  const start = useMemo(() => connectStart(JSON.parse(searchKey) as ConnectSearch, kernel.telegram.launchParams), [searchKey, kernel])

  // A new link or a retry runs the checks again.
  const run = useMemo(() => ({ start, attempt }), [start, attempt])
  useEffect(() => {
    const begin = run.start
    let alive = true
    const set = (next: State) => alive && setState(next)
    void (async () => {
      if (begin.kind === "error") return set({ kind: "error", key: begin.key })
      if (begin.kind === "unavailable") return set({ kind: "unavailable", reason: begin.reason })
      const access = await import("@wallet/plugin-ton-space/wallet-access")
      const wallet = await access.currentWallet(kernel)
      if (!wallet) return set({ kind: "noWallet" })
      const runtime = await tonConnect(kernel, go)
      if (!runtime) return set({ kind: "unsupportedVersion" })
      const prepared = await Effect.runPromise(Effect.result(runtime.engine.prepareConnect(begin.link)))
      if (prepared._tag === "Failure") return set({ kind: "error", key: connectErrorKey(prepared.failure), retry: prepared.failure._tag === "BridgeError" })
      set({ kind: "ready", runtime, proposal: prepared.success })
    })().catch(() => set({ kind: "error", key: "unknown", retry: true }))
    return () => {
      alive = false
    }
  }, [run, kernel, go])

  const approve = async () => {
    if (state.kind !== "ready" || state.busy) return
    const { runtime, proposal } = state
    analyticsOf(kernel).track("tonconnect.connect_approve")
    setState({ ...state, busy: "connect" })
    const result = await Effect.runPromise(Effect.result(runtime.engine.approveConnect(proposal)))
    if (result._tag === "Success") {
      kernel.telegram.haptic({ type: "notification", kind: "success" })
      const ret = proposal.link.ret
      setState({ kind: "connected", session: result.success, ...(typeof ret === "object" ? { returnUrl: ret.url } : {}) })
      return
    }
    const failure = result.failure
    // The passcode prompt closed: the dApp was told 300; nothing else to show.
    if (failure._tag === "SignerError" && failure.cancelled) return setState({ kind: "declined", name: proposal.app.name })
    if (failure._tag === "SignerError") return setState({ kind: "error", key: "unknown", retry: false })
    if (failure._tag === "RequestError" && /already answered/.test(failure.message)) return
    setState(failure._tag === "BridgeError" ? { kind: "error", key: "bridge", retry: true } : { kind: "error", key: connectErrorKey(failure) })
  }

  const decline = async () => {
    if (state.kind !== "ready" || state.busy) return
    analyticsOf(kernel).track("tonconnect.connect_decline")
    setState({ ...state, busy: "decline" })
    await Effect.runPromise(Effect.result(state.runtime.engine.declineConnect(state.proposal)))
    setState({ kind: "declined", name: state.proposal.app.name })
  }

  const leave = () => void go(mainRoute, { replace: true })

  switch (state.kind) {
    case "loading":
      return (
        <main className={styles.screen} aria-busy="true">
          <div className={styles.header} role="status" aria-label={t("connect.loading")}>
            <Skeleton shape="circle" width={72} height={72} />
            <Skeleton shape="text" width="60%" height={26} />
            <Skeleton shape="text" width="40%" />
          </div>
          <List>
            <Section>
              <Skeleton shape="rect" height={56} />
            </Section>
          </List>
        </main>
      )
    case "error":
      return (
        <main className={styles.screen}>
          <Placeholder
            kind="error"
            headingLevel={1}
            icon={<Icon name="alert" size={48} />}
            title={t("connect.error.title")}
            description={t(`connect.error.${state.key}`)}
            {...(state.retry
              ? {
                  action: (
                    <Button
                      look="secondary"
                      onClick={() => {
                        setState({ kind: "loading" })
                        setAttempt((n) => n + 1)
                      }}
                    >
                      {t("connect.error.retry")}
                    </Button>
                  ),
                }
              : {})}
          />
          <MainButton text={t("connect.done")} onClick={leave} />
        </main>
      )
    case "unavailable":
      return (
        <main className={styles.screen}>
          <Placeholder
            kind="error"
            headingLevel={1}
            icon={<Icon name="alert" size={48} />}
            title={t("connect.unavailable.title")}
            description={t(`connect.unavailable.${state.reason}`)}
          />
          <MainButton text={t("connect.done")} onClick={leave} />
        </main>
      )
    case "noWallet":
      return (
        <main className={styles.screen}>
          <Placeholder headingLevel={1} icon={<Icon name="wallet" size={48} />} title={t("connect.noWallet.title")} description={t("connect.noWallet.text")} />
          <MainButton text={t("connect.noWallet.action")} onClick={() => void go(mainRoute)} />
        </main>
      )
    case "unsupportedVersion":
      return (
        <main className={styles.screen}>
          <Placeholder
            kind="error"
            headingLevel={1}
            icon={<Icon name="alert" size={48} />}
            title={t("connect.unsupportedVersion.title")}
            description={t("connect.unsupportedVersion.text")}
          />
          <MainButton text={t("connect.done")} onClick={leave} />
        </main>
      )
    case "declined":
      return (
        <main className={styles.screen}>
          <Placeholder
            headingLevel={1}
            icon={<Icon name="alert" size={48} />}
            title={t("connect.declined")}
            description={t("connect.declinedText", { name: state.name })}
          />
          <MainButton text={t("connect.done")} onClick={leave} />
        </main>
      )
    case "connected": {
      const { app } = state.session
      const returnUrl = state.returnUrl
      return (
        <main className={styles.screen}>
          <Placeholder
            headingLevel={1}
            icon={<Icon name="check" size={48} />}
            title={t("connect.connected", { name: app.name })}
            description={t("connect.connectedText", { host: app.shortHost })}
            {...(returnUrl
              ? {
                  action: (
                    <Button look="secondary" onClick={() => kernel.telegram.openLink(returnUrl)}>
                      {t("connect.backToApp")}
                    </Button>
                  ),
                }
              : {})}
          />
          <MainButton text={t("connect.done")} onClick={leave} />
        </main>
      )
    }
    case "ready": {
      const { proposal, runtime, busy } = state
      const { app } = proposal
      const wallet = runtime.wallet
      return (
        <main className={styles.screen}>
          <header className={styles.header}>
            <Avatar src={app.iconUrl} name={app.name} size={72} shape="rounded" alt={t("connect.iconAlt", { name: app.name })} />
            <h1 className={styles.title}>{t("connect.title", { name: app.name })}</h1>
            <span className={styles.host}>{app.shortHost}</span>
            <p className={styles.lead}>{t("connect.lead", { host: app.shortHost })}</p>
          </header>
          <List>
            <Section>
              <Cell
                before={<Icon name="wallet" />}
                title={t("connect.walletLabel")}
                subtitle={wallet.network === "-3" ? t("connect.networkTestnet") : t("connect.networkMainnet")}
                after={
                  <span aria-label={wallet.friendly}>
                    {t("connect.walletValue", { address: shortAddress(wallet.friendly), version: versionLabel(wallet.version) })}
                  </span>
                }
              />
            </Section>
          </List>
          <p className={styles.note}>{t("connect.permissions")}</p>
          {proposal.proofPayload !== undefined && <p className={styles.note}>{t("connect.proofNote")}</p>}
          {proposal.networkMismatch !== undefined && (
            <p className={styles.note} role="alert">
              {t("connect.networkMismatch")}
            </p>
          )}
          <MainButton text={t("connect.connect")} progress={busy === "connect"} disabled={busy !== undefined} onClick={() => void approve()} />
          <SecondaryButton text={t("connect.decline")} progress={busy === "decline"} disabled={busy !== undefined} onClick={() => void decline()} />
        </main>
      )
    }
  }
}
