/**
 * Reputation on the screens (issue 21): the short line beside a trader (orders, completion %, positive
 * feedback), the trader cell that opens their full record in a sheet, the record itself (30 days and all
 * time, average release and payment times, feedback) for the user page and the sheet, and the rating block
 * of a completed order.
 */
import { useState, type CSSProperties } from "react"
import { TrustedBadge, TrustedRow } from "./TrustedBadge.tsx"
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { useKernel, useT } from "@wallet/kernel-react"
import { Avatar, BottomSheet, Button, Cell, List, Section, SkeletonList, TextField, VisuallyHidden } from "@wallet/kernel-react/ui"
import type { Order, OrderFeedback, Trader } from "../api.ts"
import { avatarColorIndex } from "../domain.ts"
import { approxDuration, FEEDBACK_COMMENT_MAX, PAIR_CAP_ALL_TIME, PAIR_CAP_WINDOW } from "../reputation.ts"
import { errorCode, keys, loadFeedback, loadReputation, rateOrder } from "./client.ts"
import { counterpartyOf, errorKey } from "./market.ts"
import { Chip, formatTime, LoadError } from "./marketParts.tsx"

const noteStyle: CSSProperties = {
  margin: "4px 16px 12px",
  color: "var(--wk-color-hint)",
  fontSize: "var(--wk-font-size-footnote, 13px)",
  lineHeight: 1.4,
}
const hintStyle: CSSProperties = { color: "var(--wk-color-hint)" }

type Translate = ReturnType<typeof useT>

/** "~ 5 min" for an average in seconds; "No data yet" without one. */
const durationText = (t: Translate, seconds: number | null | undefined): string => {
  if (seconds === null || seconds === undefined) return t("reputation.noData")
  const d = approxDuration(seconds)
  return d.unit === "underMinute" ? t("reputation.duration.underMinute") : t(`reputation.duration.${d.unit}`, { count: d.count })
}

const rateText = (t: Translate, rate: number | null | undefined): string =>
  rate === null || rate === undefined ? t("reputation.noOrders") : t("reputation.percent", { value: rate })

/** A thumb up (or down), drawn here: emoji fonts are not everywhere (a desktop client may show a box). */
function Thumb({ up, size = 16 }: { readonly up: boolean; readonly size?: number }) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 24 24"
      aria-hidden="true"
      focusable="false"
      style={{ display: "inline-block", verticalAlign: "-0.15em", flex: "none", transform: up ? undefined : "rotate(180deg)" }}
    >
      <path fill="currentColor" d="M2 10h4v11H2zM8 21V10l4.2-7.4c1.6.1 2.8 1.4 2.8 3V9h5a2 2 0 0 1 2 2.3l-1.4 7.9A2.2 2.2 0 0 1 18.4 21z" />
    </svg>
  )
}

/** A trader's record in one line: "128 orders · 97% · [thumb] 95%" (the offer list, the offer and order pages). */
export function TraderLine({ trader }: { readonly trader: Trader }) {
  const t = useT("p2p")
  const orders =
    trader.completionRate === null
      ? t("reputation.line.orders", { count: trader.completedOrders })
      : t("reputation.line.ordersRate", { count: trader.completedOrders, rate: trader.completionRate })
  const feedback = trader.positiveFeedbackRate ?? null
  return (
    <span data-testid={`p2p-trader-line-${trader.userId}`}>
      {orders}
      {feedback !== null && (
        <>
          {" · "}
          <span aria-hidden="true" style={{ whiteSpace: "nowrap" }}>
            <Thumb up size={13} />
            {` ${feedback}%`}
          </span>
          <VisuallyHidden>{`, ${t("reputation.line.positive", { rate: feedback })}`}</VisuallyHidden>
        </>
      )}
    </span>
  )
}

/**
 * The trader's row (avatar, name, their line) that opens their full reputation in a sheet: the other-user
 * view of the offer and order pages. `role` ("Seller") takes the second line and moves the record to the right.
 */
export function TraderCell({ trader, role, size = 40 }: { readonly trader: Trader; readonly role?: string; readonly size?: number }) {
  const t = useT("p2p")
  const [open, setOpen] = useState(false)
  return (
    <>
      <Cell
        chevron
        data-testid="p2p-trader"
        aria-haspopup="dialog"
        before={<Avatar name={trader.name} colorSeed={avatarColorIndex(trader.userId)} size={size} />}
        title={
          <>
            {trader.name} <TrustedBadge trusted={trader.trustedMerchant} />
            <VisuallyHidden>{` (${t("reputation.open")})`}</VisuallyHidden>
          </>
        }
        subtitle={role ?? <TraderLine trader={trader} />}
        after={role === undefined ? undefined : <TraderLine trader={trader} />}
        onClick={() => setOpen(true)}
      />
      <BottomSheet open={open} onClose={() => setOpen(false)} title={trader.name} closeLabel={t("reputation.close")}>
        <div data-testid="p2p-trader-sheet">
          <List>
            {trader.trustedMerchant === true && (
              <Section>
                <TrustedRow trusted />
              </Section>
            )}
            <ReputationDetails userId={trader.userId} />
          </List>
        </div>
      </BottomSheet>
    </>
  )
}

/**
 * A user's reputation as sections of a list: the last 30 days (completed, completion rate, average release
 * and payment times), all time (completed, completion rate, positive feedback), recent ratings, and how it is
 * counted. Loading, error with retry.
 */
export function ReputationDetails({ userId }: { readonly userId: number }) {
  const kernel = useKernel()
  const t = useT("p2p")
  const locale = kernel.i18n.language()
  const query = useQuery({ queryKey: keys.reputation(userId), queryFn: () => loadReputation(kernel, userId), staleTime: 60_000 })
  if (query.status === "pending") {
    return (
      <Section header={t("reputation.title")}>
        <SkeletonList rows={4} label={t("reputation.loading")} />
      </Section>
    )
  }
  if (query.status === "error") {
    return (
      <Section header={t("reputation.title")}>
        <LoadError title={t("reputation.loadError")} retry={() => void query.refetch()} />
      </Section>
    )
  }
  const rep = query.data
  return (
    <>
      <Section header={t("reputation.last30d")}>
        <Cell multiline title={t("reputation.completed")} after={<span data-testid="p2p-rep-30d-completed">{rep.last30d.completedOrders}</span>} />
        <Cell multiline title={t("reputation.rate")} after={<span data-testid="p2p-rep-30d-rate">{rateText(t, rep.last30d.completionRate)}</span>} />
        <Cell multiline title={t("reputation.avgRelease")} after={<span data-testid="p2p-rep-release">{durationText(t, rep.avgReleaseSeconds)}</span>} />
        <Cell multiline title={t("reputation.avgPayment")} after={<span data-testid="p2p-rep-payment">{durationText(t, rep.avgPaymentSeconds)}</span>} />
      </Section>
      <Section header={t("reputation.allTime")}>
        <Cell multiline title={t("reputation.completed")} after={<span data-testid="p2p-rep-all-completed">{rep.allTime.completedOrders}</span>} />
        <Cell multiline title={t("reputation.rate")} after={<span data-testid="p2p-rep-all-rate">{rateText(t, rep.allTime.completionRate)}</span>} />
        <Cell
          multiline
          title={t("reputation.positive")}
          after={
            <span data-testid="p2p-rep-feedback">
              {rep.positiveFeedbackRate === null
                ? t("reputation.noFeedback")
                : t("reputation.feedbackValue", { rate: rep.positiveFeedbackRate, count: rep.feedbackCount })}
            </span>
          }
        />
      </Section>
      {rep.recentFeedback.length > 0 && (
        <Section header={t("reputation.recent")}>
          {rep.recentFeedback.map((entry, index) => (
            <Cell
              key={index}
              multiline
              data-testid="p2p-rep-recent"
              before={<RatingMark positive={entry.positive} />}
              title={entry.comment ?? t(entry.positive ? "reputation.rating.positive" : "reputation.rating.negative")}
              subtitle={formatTime(entry.at, locale)}
            />
          ))}
        </Section>
      )}
      <p style={noteStyle}>{t("reputation.rules", { all: PAIR_CAP_ALL_TIME, window: PAIR_CAP_WINDOW })}</p>
    </>
  )
}

/** A thumb up or down with its meaning for screen readers. */
function RatingMark({ positive }: { readonly positive: boolean }) {
  const t = useT("p2p")
  return (
    <span
      role="img"
      aria-label={t(positive ? "reputation.rating.positive" : "reputation.rating.negative")}
      style={{ display: "inline-flex", color: positive ? "var(--wk-color-success)" : "var(--wk-color-destructive)" }}
    >
      <Thumb up={positive} size={20} />
    </span>
  )
}

const ratingText = (t: Translate, entry: OrderFeedback["mine"]) =>
  entry === null ? t("reputation.feedback.notYet") : t(entry.positive ? "reputation.rating.positive" : "reputation.rating.negative")

/** The refusal's text: the rating's own codes here, the market's otherwise. */
const feedbackErrorKey = (code: string | undefined) => (code === "already_rated" ? "reputation.errors.already_rated" : errorKey(code))

/**
 * A completed order's ratings (the order page and its success page): the form while the requester has not
 * rated (positive or negative, an optional comment), then both sides' ratings. The server decides who may rate.
 */
export function FeedbackBlock({ order }: { readonly order: Order }) {
  const kernel = useKernel()
  const t = useT("p2p")
  const queryClient = useQueryClient()
  const [choice, setChoice] = useState<boolean | null>(null)
  const [comment, setComment] = useState("")
  const other = counterpartyOf(order)
  const query = useQuery({ queryKey: keys.feedback(order.id), queryFn: () => loadFeedback(kernel, order.id), enabled: order.status === "COMPLETED" })
  const send = useMutation({
    mutationFn: (positive: boolean) => rateOrder(kernel, { orderId: order.id, positive, comment: comment.trim() === "" ? null : comment.trim() }),
    onSuccess: (feedback) => {
      queryClient.setQueryData(keys.feedback(order.id), feedback)
      // The other side's record (the sheet) and the order's counterparty line change with the rating.
      void queryClient.invalidateQueries({ queryKey: keys.reputation(other.userId) })
      void queryClient.invalidateQueries({ queryKey: keys.order(order.id) })
    },
    onError: (error) => {
      // Rated meanwhile (another device): show the ratings as they are.
      if (errorCode(error) === "already_rated") void query.refetch()
    },
  })
  if (order.status !== "COMPLETED") return null
  if (query.status === "pending") {
    return (
      <List>
        <Section header={t("reputation.feedback.title")}>
          <SkeletonList rows={2} label={t("reputation.feedback.loading")} />
        </Section>
      </List>
    )
  }
  if (query.status === "error") {
    return (
      <List>
        <Section header={t("reputation.feedback.title")}>
          <LoadError title={t("reputation.loadError")} retry={() => void query.refetch()} />
        </Section>
      </List>
    )
  }
  const feedback = query.data
  return (
    <List>
      <Section
        header={t("reputation.feedback.title")}
        footer={feedback.counts ? undefined : t("reputation.feedback.notCounted", { all: PAIR_CAP_ALL_TIME })}
        data-testid="p2p-feedback"
      >
        {feedback.canRate ? (
          <form
            data-testid="p2p-feedback-form"
            style={{ padding: "12px 16px", display: "flex", flexDirection: "column", gap: 12 }}
            onSubmit={(event) => {
              event.preventDefault()
              if (choice !== null && !send.isPending) send.mutate(choice)
            }}
          >
            <span id={`p2p-feedback-q-${order.id}`}>{t("reputation.feedback.question", { name: other.name })}</span>
            <div role="group" aria-labelledby={`p2p-feedback-q-${order.id}`} style={{ display: "flex", gap: 8 }}>
              <Chip pressed={choice === true} onClick={() => setChoice(true)} testId="p2p-feedback-positive">
                <Thumb up /> {t("reputation.rating.positive")}
              </Chip>
              <Chip pressed={choice === false} onClick={() => setChoice(false)} testId="p2p-feedback-negative">
                <Thumb up={false} /> {t("reputation.rating.negative")}
              </Chip>
            </div>
            <TextField
              multiline
              rows={2}
              label={t("reputation.feedback.comment")}
              value={comment}
              maxLength={FEEDBACK_COMMENT_MAX}
              onChange={setComment}
              data-testid="p2p-feedback-comment"
            />
            {send.error !== null && (
              <p role="alert" style={{ margin: 0, color: "var(--wk-color-destructive)" }} data-testid="p2p-feedback-error">
                {t(feedbackErrorKey(errorCode(send.error)))}
              </p>
            )}
            <Button
              type="submit"
              look="primary"
              stretched
              data-testid="p2p-feedback-send"
              disabled={choice === null}
              aria-describedby={choice === null ? `p2p-feedback-hint-${order.id}` : undefined}
              loading={send.isPending}
              loadingLabel={t("reputation.loading")}
            >
              {t("reputation.feedback.send")}
            </Button>
            {choice === null && (
              <span id={`p2p-feedback-hint-${order.id}`} style={{ ...hintStyle, fontSize: 13 }}>
                {t("reputation.feedback.choose")}
              </span>
            )}
          </form>
        ) : (
          <Cell
            multiline
            data-testid="p2p-feedback-mine"
            data-positive={feedback.mine === null ? undefined : String(feedback.mine.positive)}
            title={t("reputation.feedback.mine")}
            after={ratingText(t, feedback.mine)}
            description={feedback.mine?.comment ?? undefined}
          />
        )}
        <Cell
          multiline
          data-testid="p2p-feedback-theirs"
          title={t("reputation.feedback.theirs", { name: other.name })}
          after={ratingText(t, feedback.theirs)}
          description={feedback.theirs?.comment ?? undefined}
        />
      </Section>
      {send.isSuccess && (
        <p role="status" style={noteStyle} data-testid="p2p-feedback-sent">
          {t("reputation.feedback.sent")}
        </p>
      )}
    </List>
  )
}
