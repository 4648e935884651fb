import { useState } from "react"
import { useParams, useSearch } from "@tanstack/react-router"
import { useQueryClient } from "@tanstack/react-query"
import { useAnalytics, useGo, useKernel, useT } from "@wallet/kernel-react"
import { Button, Cell, List, Placeholder, Section, SkeletonList, TextField } from "@wallet/kernel-react/ui"
import { asksRefundFirst, ISSUE_TYPES, ISSUES_OF, MAX_STATEMENT, type IssueType } from "../domain.ts"
import { confirmReceivedRoute, orderChatRoute, orderRoute } from "../routes.ts"
import { chatKeys, errorCode, keys, openAppeal } from "./client.ts"
import { chatErrorKey } from "./chat.ts"
import { ReceiptPicker } from "./orderFiles.tsx"
import { idOf } from "./market.ts"
import { alertStyle, LoadError, NotFound, padStyle, pageStyle, titleStyle } from "./marketParts.tsx"
import { useOrder } from "./orderHooks.ts"

const issueOf = (value: unknown): IssueType | undefined => ((ISSUE_TYPES as ReadonlyArray<unknown>).includes(value) ? (value as IssueType) : undefined)

/**
 * /p2p/orders/$id/help and /help/$issueType (spec 3 §2.1; issue 21): the fixed issue list of the
 * requester's side and a statement; sending opens the appeal (the hold stays frozen until support
 * decides). The seller whose payment did arrive can still confirm it from here (source help_flow).
 */
export default function HelpScreen() {
  const kernel = useKernel()
  const t = useT("p2p")
  const go = useGo()
  const analytics = useAnalytics()
  const queryClient = useQueryClient()
  const params = useParams({ strict: false }) as { readonly id?: string; readonly issueType?: string }
  const search = useSearch({ strict: false }) as { readonly issueListSelect?: IssueType; readonly skipRefund?: boolean }
  const id = idOf(params.id)
  const query = useOrder(id)
  const order = query.data
  const [issue, setIssue] = useState<IssueType | undefined>(issueOf(params.issueType) ?? search.issueListSelect)
  const [statement, setStatement] = useState("")
  const [sending, setSending] = useState(false)
  const [failure, setFailure] = useState<string | null>(null)
  const [receiptIds, setReceiptIds] = useState<ReadonlyArray<number>>([])
  // The refund step (spec 3 §2.1 skipRefund): passed once the user chooses to go on to support.
  const [refundAsked, setRefundAsked] = useState(false)

  if (id === null) return <NotFound kind="order" />
  if (order === undefined) {
    return (
      <main style={pageStyle}>
        {query.status === "error" ? <LoadError retry={() => void query.refetch()} /> : <SkeletonList rows={4} label={t("market.loading")} />}
      </main>
    )
  }
  const toOrder = () => void go(orderRoute, { params: { id: String(order.id) }, replace: true })
  if (!order.moves.includes("appeal")) {
    return (
      <main style={pageStyle} data-testid="p2p-help-closed">
        <Placeholder
          title={t("help.title")}
          description={t("help.notNow")}
          action={
            <Button look="secondary" size="s" onClick={toOrder}>
              {t("help.toOrder")}
            </Button>
          }
        />
      </main>
    )
  }
  const issues = ISSUES_OF[order.side]
  const text = statement.trim()
  const submit = async () => {
    if (issue === undefined || text.length === 0 || sending) return
    setSending(true)
    setFailure(null)
    try {
      const next = await openAppeal(kernel, { orderId: order.id, issue, statement: text, status: order.status, receiptIds: [...receiptIds] })
      analytics.track("p2p.appeal_opened", { issue, side: order.side })
      queryClient.setQueryData(keys.order(next.id), next)
      void queryClient.invalidateQueries({ queryKey: keys.active })
      void queryClient.invalidateQueries({ queryKey: chatKeys.receipts(next.id) })
      toOrder()
    } catch (error) {
      setFailure(t(chatErrorKey(errorCode(error)), { defaultValue: t("help.error") }))
      void queryClient.invalidateQueries({ queryKey: keys.order(order.id) })
    } finally {
      setSending(false)
    }
  }
  return (
    <main style={pageStyle} data-testid="p2p-help">
      <h1 style={titleStyle}>{t("help.title")}</h1>
      <p style={{ margin: "0 16px 12px", color: "var(--wk-color-hint)" }}>{t("help.intro")}</p>
      <List>
        <Section header={t("help.issueLabel")}>
          <div role="radiogroup" aria-label={t("help.issueLabel")}>
            {issues.map((value) => (
              <Cell
                key={value}
                data-testid={`p2p-help-issue-${value}`}
                title={t(`help.issues.${value}`)}
                before={<input type="radio" name="issue" checked={issue === value} onChange={() => setIssue(value)} aria-label={t(`help.issues.${value}`)} />}
                onClick={() => setIssue(value)}
              />
            ))}
          </div>
        </Section>
        {asksRefundFirst(issue, search.skipRefund === true || refundAsked) ? (
          <Section header={t("help.refund.title")}>
            <Cell multiline data-testid="p2p-help-refund" description={t(`help.refund.${order.side}`)} />
            <div style={{ padding: "12px 16px", display: "flex", flexDirection: "column", gap: 8 }}>
              <Button
                look="secondary"
                stretched
                data-testid="p2p-help-refund-chat"
                onClick={() => void go(orderChatRoute, { params: { id: String(order.id) } })}
              >
                {t("help.refund.chat")}
              </Button>
              <Button look="plain" stretched data-testid="p2p-help-refund-skip" onClick={() => setRefundAsked(true)}>
                {t("help.refund.skip")}
              </Button>
            </div>
          </Section>
        ) : (
          <Section>
            <div style={{ padding: "12px 16px" }}>
              <TextField
                multiline
                rows={5}
                label={t("help.statement")}
                hint={t("help.statementHint")}
                value={statement}
                maxLength={MAX_STATEMENT}
                onChange={setStatement}
                data-testid="p2p-help-statement"
              />
            </div>
            <div style={{ padding: "0 16px 12px" }}>
              <ReceiptPicker orderId={order.id} onIds={setReceiptIds} />
            </div>
          </Section>
        )}
      </List>
      {failure !== null && (
        <p role="alert" style={alertStyle} data-testid="p2p-help-error">
          {failure}
        </p>
      )}
      <div style={padStyle}>
        <Button
          look="primary"
          stretched
          data-testid="p2p-help-submit"
          disabled={issue === undefined || text.length === 0 || asksRefundFirst(issue, search.skipRefund === true || refundAsked)}
          loading={sending}
          onClick={() => void submit()}
        >
          {t("help.submit")}
        </Button>
        {order.moves.includes("received") && (
          <Button
            look="secondary"
            stretched
            data-testid="p2p-help-received"
            onClick={() => void go(confirmReceivedRoute, { params: { id: String(order.id) }, search: { source: "help_flow" } })}
          >
            {t("help.received")}
          </Button>
        )}
      </div>
    </main>
  )
}
