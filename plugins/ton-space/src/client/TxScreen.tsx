import { useParams } from "@tanstack/react-router"
import { useHideTabBar, useKernel, useT } from "@wallet/kernel-react"
import { Cell, List, Placeholder, Section, SkeletonList } from "@wallet/kernel-react/ui"
import { formatAmount, TON_DECIMALS } from "../core/amount.ts"
import { displayAddress, viewAction } from "./events.tsx"
import { chainFor, NS, useChainQuery, useWallet } from "./hooks.ts"
import { tonSpaceKeys } from "./queryKeys.ts"
import { useTon } from "./ton.ts"
import styles from "./ton.module.css"

/** /scw/tx/{eventId}: the event's actions, time, status and fee. */
export default function TxScreen() {
  const t = useT(NS)
  const kernel = useKernel()
  const { eventId } = useParams({ strict: false }) as { eventId: string }
  const [state] = useWallet()
  const ton = useTon()
  useHideTabBar()
  const raw = state.raw
  const chain = chainFor(kernel, state.walletNetwork)
  const event = useChainQuery(raw ? tonSpaceKeys.event(state.walletNetwork, raw, eventId) : null, () => chain.getAccountEvent(raw!, eventId))
  return (
    <main className={styles.screen}>
      <h1 className={styles.title}>{t("tx.title")}</h1>
      {!raw ? (
        <Placeholder title={t("tx.noWallet")} />
      ) : event.error ? (
        <Placeholder kind="error" title={t("errors.load")} />
      ) : !event.data ? (
        <SkeletonList rows={4} label={t("history.loading")} />
      ) : (
        <List>
          {event.data.actions.map((action, i) => {
            const view = viewAction(action, raw)
            return (
              <Section key={i} header={t(`history.${view.title}`)}>
                {view.amount && <Cell title={t("tx.amount")} after={`${view.kind === "in" ? "+" : view.kind === "out" ? "−" : ""}${view.amount}`} />}
                {view.counterparty && (
                  <Cell title={view.kind === "in" ? t("tx.from") : t("tx.to")} after={displayAddress(ton, view.counterparty, state.walletNetwork)} />
                )}
                {view.comment && <Cell title={t("send.comment")} after={view.comment} />}
                <Cell title={t("tx.status")} after={view.failed ? t("history.failed") : event.data!.in_progress ? t("history.pending") : t("tx.confirmed")} />
              </Section>
            )
          })}
          <Section>
            <Cell title={t("tx.date")} after={new Date(event.data.timestamp * 1000).toLocaleString()} />
            {event.data.extra < 0n && <Cell title={t("confirm.fee")} after={`${formatAmount(-event.data.extra, TON_DECIMALS, 6)} TON`} />}
            <Cell title={t("tx.id")} after={`${eventId.slice(0, 8)}…`} />
          </Section>
        </List>
      )}
    </main>
  )
}
