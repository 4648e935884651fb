/**
 * /scw/tc/request?id=…: a dApp request the bridge listener received. sendTransaction shows every
 * decoded message, the emulated outcome (what leaves the wallet, fee, risk) and the valid_until
 * countdown; Confirm asks the passcode (through the signer), signs, sends and answers with the BoC.
 * signData shows the text (or a binary / cell summary); Sign asks the passcode. Decline answers 300.
 * A request refused before the user saw it (expired, wrong network, too many messages) shows why.
 */
import { useEffect, useState, useSyncExternalStore } from "react"
import { useSearch } from "@tanstack/react-router"
import { Effect } from "effect"
import type { MessageConsequences } from "@wallet/kernel/chain"
import { Icon, MainButton, SecondaryButton, useGo, useHideTabBar, useKernel, useT } from "@wallet/kernel-react"
import { Avatar, Banner, Cell, List, Placeholder, Section, SkeletonList } from "@wallet/kernel-react/ui"
import type { PendingRequest } from "../engine/index.ts"
import {
  formatCountdown,
  formatTon,
  formatUnits,
  requestErrorKey,
  secondsLeft,
  shortAddress,
  signDataView,
  transactionView,
  type MessageRow,
  type RequestErrorKey,
} from "./logic.ts"
import { forgetEntry, SEND_TRANSACTION_ERROR_CODES, friendlyAddress, requestEntry, subscribe, tonConnect } from "./runtime.ts"
import styles from "./tc.module.css"
import { mainRoute } from "@wallet/plugin-ton-space/routes"

const NS = "tonconnect"

type Outcome =
  | { readonly kind: "open" }
  | { readonly kind: "busy"; readonly action: "approve" | "decline" }
  | { readonly kind: "sent" }
  | { readonly kind: "signed" }
  | { readonly kind: "declined" }
  | { readonly kind: "error"; readonly key: RequestErrorKey; readonly retry: boolean }

export default function RequestScreen() {
  const t = useT(NS)
  const go = useGo()
  const { id = "" } = useSearch({ strict: false }) as { id?: string }
  const entry = useSyncExternalStore(subscribe, () => requestEntry(id))
  useHideTabBar()
  const done = () => {
    forgetEntry(id)
    void go(mainRoute, { replace: true })
  }

  if (!entry) {
    return (
      <main className={styles.screen}>
        <Placeholder headingLevel={1} icon={<Icon name="alert" size={48} />} title={t("request.gone")} description={t("request.goneText")} />
        <MainButton text={t("request.done")} onClick={done} />
      </main>
    )
  }
  if (entry.kind === "refused") {
    const { refused } = entry
    const key = requestErrorKey({ _tag: "RequestError", code: refused.code, message: refused.message })
    return (
      <main className={styles.screen}>
        <Placeholder
          kind="error"
          headingLevel={1}
          icon={<Icon name="alert" size={48} />}
          title={t("request.refusedTitle", { name: refused.session.app.name })}
          description={t(`request.error.${key}`)}
        />
        <MainButton text={t("request.done")} onClick={done} />
      </main>
    )
  }
  return <PendingView key={entry.key} pending={entry.pending} onDone={done} />
}

function AppHeader({ pending, title }: { readonly pending: PendingRequest; readonly title: string }) {
  const t = useT(NS)
  const { app } = pending.session
  return (
    <header className={styles.header}>
      <Avatar src={app.iconUrl} name={app.name} size={56} shape="rounded" alt={t("connect.iconAlt", { name: app.name })} />
      <h1 className={styles.title}>{title}</h1>
      <p className={styles.lead}>{t("request.from", { name: app.name })}</p>
      <span className={styles.host}>{app.shortHost}</span>
    </header>
  )
}

function useNowSeconds(active: boolean): number {
  const [now, setNow] = useState(() => Math.floor(Date.now() / 1000))
  useEffect(() => {
    if (!active) return
    const timer = window.setInterval(() => setNow(Math.floor(Date.now() / 1000)), 1000)
    return () => window.clearInterval(timer)
  }, [active])
  return now
}

function PendingView({ pending, onDone }: { readonly pending: PendingRequest; readonly onDone: () => void }) {
  const t = useT(NS)
  const kernel = useKernel()
  const [state, setOutcome] = useState<Outcome>({ kind: "open" })
  const [emulation, setEmulation] = useState<{ readonly data?: MessageConsequences; readonly failed?: string } | undefined>(undefined)
  const [walletNetwork, setWalletNetwork] = useState<"-239" | "-3">("-239")
  const isTx = pending.kind === "sendTransaction"
  const validUntil = isTx ? pending.request.validUntil : undefined
  const now = useNowSeconds(state.kind === "open" && validUntil !== undefined)
  const left = secondsLeft(validUntil, now)
  const expired = left === 0
  // valid_until passed while the user looked: shown as expired (and the dApp told, below).
  const outcome: Outcome = expired && state.kind === "open" ? { kind: "error", key: "expired", retry: false } : state

  useEffect(() => {
    let alive = true
    void (async () => {
      const runtime = await tonConnect(kernel)
      if (!runtime || !alive) return
      setWalletNetwork(runtime.wallet.network)
      if (pending.kind !== "sendTransaction") return
      const result = await Effect.runPromise(Effect.result(runtime.engine.emulate(pending)))
      if (!alive) return
      setEmulation(result._tag === "Success" ? { data: result.success } : { failed: result.failure.message })
    })()
    return () => {
      alive = false
    }
  }, [kernel, pending])

  // The dApp is told (code 1) once the deadline passed unanswered.
  const expiredOpen = expired && state.kind === "open"
  useEffect(() => {
    if (!expiredOpen) return
    void tonConnect(kernel).then(
      (runtime) =>
        runtime &&
        Effect.runPromise(
          Effect.result(runtime.engine.reject(pending, SEND_TRANSACTION_ERROR_CODES.BAD_REQUEST_ERROR, "the request expired (valid_until has passed)")),
        ),
    )
  }, [expiredOpen, kernel, pending])

  const approve = async () => {
    if (outcome.kind !== "open" && !(outcome.kind === "error" && outcome.retry)) return
    setOutcome({ kind: "busy", action: "approve" })
    const runtime = await tonConnect(kernel)
    if (!runtime) return setOutcome({ kind: "error", key: "unavailable", retry: false })
    const result =
      pending.kind === "sendTransaction"
        ? await Effect.runPromise(Effect.result(runtime.engine.approveTransaction(pending)))
        : await Effect.runPromise(Effect.result(runtime.engine.approveSignData(pending)))
    if (result._tag === "Success") {
      kernel.telegram.haptic({ type: "notification", kind: "success" })
      return setOutcome({ kind: pending.kind === "sendTransaction" ? "sent" : "signed" })
    }
    const failure = result.failure as { _tag?: string; cancelled?: boolean }
    // Passcode closed: the engine told the dApp "user declined".
    if (failure._tag === "SignerError" && failure.cancelled) return setOutcome({ kind: "declined" })
    const key = requestErrorKey(failure)
    // A transport failure or a key problem leaves the request open: the user may try again.
    const retry =
      failure._tag === "BridgeError" || (failure._tag === "ChainError" && key !== "refused") || (failure._tag === "SignerError" && !failure.cancelled)
    setOutcome({ kind: "error", key, retry })
  }

  const decline = async () => {
    if (outcome.kind === "busy") return
    setOutcome({ kind: "busy", action: "decline" })
    const runtime = await tonConnect(kernel)
    if (runtime) await Effect.runPromise(Effect.result(runtime.engine.reject(pending)))
    setOutcome({ kind: "declined" })
  }

  const name = pending.session.app.name
  if (outcome.kind === "sent" || outcome.kind === "signed" || outcome.kind === "declined") {
    const title = outcome.kind === "sent" ? t("request.sent") : outcome.kind === "signed" ? t("request.signed") : t("request.declined")
    const text =
      outcome.kind === "sent"
        ? t("request.sentText", { name })
        : outcome.kind === "signed"
          ? t("request.signedText", { name })
          : t("request.declinedText", { name })
    return (
      <main className={styles.screen}>
        <Placeholder headingLevel={1} icon={<Icon name={outcome.kind === "declined" ? "alert" : "check"} size={48} />} title={title} description={text} />
        <MainButton text={t("request.done")} onClick={onDone} />
      </main>
    )
  }

  const busy = outcome.kind === "busy"
  const errorBanner = outcome.kind === "error" ? <Banner tone="error" title={t("request.error.title")} description={t(`request.error.${outcome.key}`)} /> : null
  const buttons =
    outcome.kind === "error" && !outcome.retry ? (
      <MainButton text={t("request.done")} onClick={onDone} />
    ) : (
      <>
        <MainButton
          text={isTx ? t("request.confirm") : t("request.sign")}
          progress={busy && outcome.action === "approve"}
          disabled={busy || expired}
          onClick={() => void approve()}
        />
        <SecondaryButton text={t("request.decline")} progress={busy && outcome.action === "decline"} disabled={busy} onClick={() => void decline()} />
      </>
    )

  if (pending.kind === "signData") {
    const view = signDataView(pending.payload)
    return (
      <main className={styles.screen}>
        <AppHeader pending={pending} title={t("request.signTitle")} />
        {errorBanner && <div className={styles.actions}>{errorBanner}</div>}
        <List>
          <Section
            header={
              view.kind === "text"
                ? t("request.signText")
                : view.kind === "binary"
                  ? t("request.signBinary", { count: view.bytes })
                  : t("request.signCell", { schema: view.schema, count: view.bytes })
            }
          >
            {view.kind === "text" && <p className={styles.text}>{view.text}</p>}
            {view.kind === "binary" && <p className={`${styles.text} ${styles.mono}`}>{view.preview}</p>}
            {view.kind === "cell" && <p className={`${styles.text} ${styles.mono}`}>{view.schema}</p>}
          </Section>
        </List>
        <p className={styles.note}>{t("request.signNote", { host: pending.session.app.shortHost })}</p>
        {buttons}
      </main>
    )
  }

  const format = (raw: string, bounceable: boolean) => friendlyAddress(raw, walletNetwork, bounceable)
  const view = transactionView(pending.request, emulation?.data, format)
  return (
    <main className={styles.screen}>
      <AppHeader pending={pending} title={t("request.transactionTitle")} />
      {errorBanner && <div className={styles.actions}>{errorBanner}</div>}
      {view.risk !== "none" && (
        <div className={styles.actions}>
          <Banner tone="warning" title={t(`request.risk.${view.risk}`)} />
        </div>
      )}
      <List>
        <Section header={t("request.leaves")}>
          {emulation === undefined ? (
            <SkeletonList rows={1} label={t("request.loading")} />
          ) : emulation.failed !== undefined || !view.outflow ? (
            <Cell
              before={<Icon name="alert" />}
              multiline
              title={t("request.emulationFailed", { reason: emulation.failed ?? "" })}
              after={<span className={styles.amountOut}>−{formatTon(view.attachedTon)}</span>}
            />
          ) : (
            <>
              {view.outflow.ton > 0n && (
                <Cell before={<Icon name="ton" />} title="TON" after={<span className={styles.amountOut}>−{formatTon(view.outflow.ton)}</span>} />
              )}
              {view.outflow.jettons.map((j, i) => (
                <Cell
                  key={`j${i}`}
                  before={<Icon name="currency" />}
                  title={j.symbol}
                  after={
                    <span className={styles.amountOut}>
                      −{j.amount} {j.symbol}
                    </span>
                  }
                />
              ))}
              {view.outflow.nfts.map((n) => (
                <Cell key={n.address} before={<Icon name="wallet" />} title={n.name} after={<span className={styles.amountOut}>NFT</span>} />
              ))}
              {view.outflow.ton === 0n && view.outflow.jettons.length === 0 && view.outflow.nfts.length === 0 && <Cell title={t("request.nothingLeaves")} />}
              {view.outflow.fee !== undefined && <Cell title={t("request.fee")} after={t("request.feeValue", { amount: formatTon(view.outflow.fee, 4) })} />}
            </>
          )}
        </Section>
        <Section header={t("request.messages")}>
          {view.rows.map((row, i) => (
            <MessageCell key={i} row={row} />
          ))}
        </Section>
      </List>
      {left !== undefined && (
        <p className={styles.note} role="timer" aria-live="off">
          {expired ? t("request.expiredNow") : t("request.validFor", { time: formatCountdown(left) })}
        </p>
      )}
      {buttons}
    </main>
  )
}

function MessageCell({ row }: { readonly row: MessageRow }) {
  const t = useT(NS)
  switch (row.kind) {
    case "ton":
      return (
        <Cell
          multiline
          before={<Icon name="ton" />}
          title={t("request.sendTon", { amount: row.amount })}
          subtitle={<span aria-label={row.to}>{t("request.to", { address: shortAddress(row.to, 4, 4) })}</span>}
          {...(row.comment !== undefined
            ? { description: t("request.comment", { comment: row.comment }) }
            : row.encrypted
              ? { description: t("request.encrypted") }
              : {})}
        />
      )
    case "jetton":
      return (
        <Cell
          multiline
          before={<Icon name="currency" />}
          title={row.amount !== undefined ? t("request.sendTon", { amount: row.amount }) : t("request.sendJetton", { amount: formatUnits(row.units, 0) })}
          subtitle={<span aria-label={row.to}>{t("request.to", { address: shortAddress(row.to, 4, 4) })}</span>}
          description={[
            t("request.attached", { amount: row.attached }),
            ...(row.comment !== undefined ? [t("request.comment", { comment: row.comment })] : []),
          ].join(" · ")}
        />
      )
    case "nft":
      return (
        <Cell
          multiline
          before={<Icon name="wallet" />}
          title={t("request.sendNft")}
          subtitle={t("request.to", { address: shortAddress(row.to, 4, 4) })}
          description={`${t("request.item", { address: shortAddress(row.item, 4, 4) })} · ${t("request.attached", { amount: row.attached })}`}
        />
      )
    case "call":
      return (
        <Cell
          multiline
          before={<Icon name="settings" />}
          title={t("request.call", { op: row.op })}
          subtitle={t("request.to", { address: shortAddress(row.to, 4, 4) })}
          description={t("request.attached", { amount: row.amount })}
        />
      )
  }
}
