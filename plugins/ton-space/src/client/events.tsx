/** One history row per account event, from the wallet's point of view. */
import type { AccountEvent, Action } from "@wallet/kernel/chain"
import { useGo, useT } from "@wallet/kernel-react"
import { Cell } from "@wallet/kernel-react/ui"
import { shortAddress } from "../core/address.ts"
import { formatDisplay, TON_DECIMALS } from "../core/amount.ts"
import { DEFAULT_PRODUCT_USDT, isUsdt, type Network } from "../core/assets.ts"
import type { FinalizedTransaction, PendingTransaction } from "../core/pending.ts"
import { NS } from "./hooks.ts"
import type { TonModule } from "./ton.ts"
import styles from "./ton.module.css"
import { txRoute } from "../routes.ts"

export interface ActionView {
  readonly kind: "in" | "out" | "other"
  readonly title: "received" | "sent" | "deploy" | "other"
  readonly amount?: string
  readonly counterparty?: string
  readonly comment?: string
  readonly failed: boolean
}

/** USDT shows under the product's symbol in history too. */
const symbolOf = (jetton: { readonly address: string; readonly symbol: string; readonly verification: string }) =>
  isUsdt(jetton) ? DEFAULT_PRODUCT_USDT.symbol : jetton.symbol

const same = (a: string | undefined, raw: string) => a !== undefined && a.toLowerCase() === raw.toLowerCase()

export const viewAction = (action: Action, raw: string): ActionView => {
  const failed = action.status !== "ok"
  if (action.TonTransfer) {
    const incoming = same(action.TonTransfer.recipient.address, raw)
    return {
      kind: incoming ? "in" : "out",
      title: incoming ? "received" : "sent",
      amount: `${formatDisplay(action.TonTransfer.amount, TON_DECIMALS)} TON`,
      counterparty: incoming ? action.TonTransfer.sender.address : action.TonTransfer.recipient.address,
      ...(action.TonTransfer.comment ? { comment: action.TonTransfer.comment } : {}),
      failed,
    }
  }
  if (action.ExtraCurrencyTransfer) {
    const e = action.ExtraCurrencyTransfer
    const incoming = same(e.recipient.address, raw)
    return {
      kind: incoming ? "in" : "out",
      title: incoming ? "received" : "sent",
      amount: `${formatDisplay(e.amount, e.currency.decimals)} ${e.currency.symbol}`,
      counterparty: incoming ? e.sender.address : e.recipient.address,
      ...(e.comment ? { comment: e.comment } : {}),
      failed,
    }
  }
  if (action.JettonTransfer) {
    const j = action.JettonTransfer
    const incoming = same(j.recipient?.address, raw)
    return {
      kind: incoming ? "in" : "out",
      title: incoming ? "received" : "sent",
      amount: `${formatDisplay(j.amount, j.jetton.decimals)} ${symbolOf(j.jetton)}`,
      ...((incoming ? j.sender?.address : j.recipient?.address) ? { counterparty: (incoming ? j.sender?.address : j.recipient?.address)! } : {}),
      ...(j.comment ? { comment: j.comment } : {}),
      failed,
    }
  }
  if (action.JettonMint) {
    return {
      kind: "in",
      title: "received",
      amount: `${formatDisplay(action.JettonMint.amount, action.JettonMint.jetton.decimals)} ${symbolOf(action.JettonMint.jetton)}`,
      failed,
    }
  }
  if (action.NftItemTransfer) {
    const incoming = same(action.NftItemTransfer.recipient?.address, raw)
    return { kind: incoming ? "in" : "out", title: incoming ? "received" : "sent", amount: "NFT", failed }
  }
  if (action.type === "ContractDeploy") return { kind: "other", title: "deploy", failed }
  return { kind: "other", title: "other", failed }
}

/** The action a row shows: the first one that moves value (a deploy beside a transfer is not the story). */
export const mainAction = (event: Pick<AccountEvent, "actions">) => event.actions.find((a) => a.type !== "ContractDeploy") ?? event.actions[0]

export const displayAddress = (ton: TonModule | undefined, raw: string, network: Network) => {
  const parsed = ton?.parseAddress(raw)
  return shortAddress(parsed ? ton!.friendly(parsed.address, network, false) : raw)
}

/** One history row; `readOnly` (the viewer) leaves out the link to the transaction page. */
export function EventRow({
  event,
  raw,
  network,
  ton,
  readOnly = false,
}: {
  readonly event: AccountEvent
  readonly raw: string
  readonly network: Network
  readonly ton: TonModule | undefined
  readonly readOnly?: boolean
}) {
  const t = useT(NS)
  const go = useGo()
  const action = mainAction(event)
  if (!action) return null
  const view = viewAction(action, raw)
  const time = new Date(event.timestamp * 1000).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" })
  return (
    <Cell
      title={t(`history.${view.title}`)}
      subtitle={view.counterparty ? `${displayAddress(ton, view.counterparty, network)} · ${time}` : time}
      after={
        view.amount ? (
          <span className={view.kind === "in" ? styles.positive : undefined}>
            {view.kind === "in" ? "+" : view.kind === "out" ? "−" : ""}
            {view.amount}
          </span>
        ) : undefined
      }
      {...(view.failed ? { description: t("history.failed") } : view.comment ? { description: view.comment } : {})}
      {...(readOnly ? {} : { onClick: () => void go(txRoute, { params: { eventId: event.event_id } }) })}
    />
  )
}

export function PendingRow({
  tx,
  network,
  ton,
}: {
  readonly tx: PendingTransaction | FinalizedTransaction
  readonly network: Network
  readonly ton: TonModule | undefined
}) {
  const t = useT(NS)
  const action = tx.actions[0]
  if (!action) return null
  return (
    <Cell
      title={t("history.sending")}
      subtitle={displayAddress(ton, action.recipient, network)}
      after={
        <span>
          −{formatDisplay(BigInt(action.amount), action.decimals)} {action.currency}
        </span>
      }
      description={t("history.pending")}
      aria-busy="true"
    />
  )
}
