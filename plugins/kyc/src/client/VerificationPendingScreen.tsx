import { useEffect } from "react"
import { useSearch } from "@tanstack/react-router"
import { useGo, useT } from "@wallet/kernel-react"
import { Button, Cell, List, Placeholder, Section, SkeletonList, Spinner } from "@wallet/kernel-react/ui"
import type { VerificationStatus } from "../api.ts"
import { kycMainRoute, kycSettingsRoute, kycSuccessRoute, kycSumsubRoute, walletMainRoute } from "../routes.ts"
import { LoadError } from "./LoadError.tsx"
import { useKycStatus } from "./useStatus.ts"

/** Whether the wallet is still waiting: a review running, or just submitted and the partner's word not in yet. */
export const waitingOn = (status: VerificationStatus | undefined, submitted: boolean): boolean => {
  if (status === undefined) return true
  if (status.level1Status === "AWAIT_COMPLETION") return true
  const review = status.review
  if (review === null || review.reviewStatus === "init") return submitted
  return review.reviewStatus !== "completed"
}

/**
 * /kyc/verification-pending and /kyc/pending (spec 3 §2.2, §4.2): the documents are with the
 * partner. The status is polled every 2 s while the review runs; an approval leads to the success
 * screen, a rejection shows the reviewer's reasons with a way to send the documents again (or, when
 * final, that it cannot be repeated). The bot also messages the user when the review ends.
 */
export default function VerificationPendingScreen() {
  const t = useT("kyc")
  const go = useGo()
  const search = useSearch({ strict: false }) as { readonly submitted?: "1" }
  const submitted = search.submitted === "1"
  const status = useKycStatus({ pollWhile: (data) => waitingOn(data, submitted) })
  const data = status.data
  const review = data?.review ?? null
  const waiting = waitingOn(data, submitted)
  const approved = review?.reviewStatus === "completed" && review.answer === "GREEN"

  useEffect(() => {
    if (approved) void go(kycSuccessRoute, { replace: true })
  }, [approved, go])

  if (status.status === "error" && data === undefined) {
    return (
      <main style={{ padding: "32px 16px" }}>
        <LoadError retry={() => void status.refetch()} />
      </main>
    )
  }
  if (data === undefined || approved) {
    return (
      <main style={{ padding: "32px 0" }}>
        <SkeletonList rows={2} before={false} label={t("loading")} />
      </main>
    )
  }
  if (waiting) {
    return (
      <main style={{ padding: "32px 16px" }}>
        <Placeholder
          icon={<Spinner size="l" label={t("pending.busy")} />}
          title={t("pending.title")}
          description={t("pending.text")}
          action={
            <Button look="secondary" onClick={() => void go(walletMainRoute, { replace: true })}>
              {t("success.done")}
            </Button>
          }
        >
          <p role="status" data-testid="kyc-review-status" style={{ margin: 0 }}>
            {t(`pending.state.${review?.reviewStatus === "onHold" ? "onHold" : "pending"}`)}
          </p>
        </Placeholder>
      </main>
    )
  }
  if (review === null || review.reviewStatus !== "completed") {
    // Nothing is being reviewed: the levels screen says what can be done.
    return (
      <main style={{ padding: "32px 16px" }}>
        <Placeholder
          title={t("pending.none")}
          action={
            <Button look="primary" onClick={() => void go(kycSettingsRoute, { replace: true, search: {} })}>
              {t("settings.title")}
            </Button>
          }
        />
      </main>
    )
  }
  const final = review.rejectType === "FINAL"
  return (
    <main style={{ padding: "16px 0" }}>
      <List>
        <Placeholder kind="error" title={t(final ? "rejected.finalTitle" : "rejected.title")} description={t(final ? "rejected.finalText" : "rejected.text")} />
        {review.moderationComment || review.rejectLabels.length > 0 ? (
          <Section header={t("rejected.reasons")}>
            {review.moderationComment ? <Cell data-testid="kyc-review-comment" title={review.moderationComment} multiline /> : null}
            {review.rejectLabels.map((label) => (
              <Cell key={label} data-reject-label={label} title={t(`rejected.labels.${label}`, { defaultValue: t("rejected.labels.OTHER") })} multiline />
            ))}
          </Section>
        ) : null}
        <div style={{ padding: 16, display: "grid", gap: 8 }}>
          {final ? null : (
            <Button
              look="primary"
              stretched
              data-testid="kyc-resubmit"
              onClick={() =>
                void go(data.level1Status === "PASSED" || data.level1Status === "SELF_DECLARED_NAME_REQUIRED" ? kycSumsubRoute : kycMainRoute, {
                  search: {
                    level: review.level,
                    ...(data.level1Status === "PASSED" || data.level1Status === "SELF_DECLARED_NAME_REQUIRED" ? { action: "KYC" as const } : {}),
                  },
                })
              }
            >
              {t("rejected.again")}
            </Button>
          )}
          <Button look="secondary" stretched onClick={() => void go(walletMainRoute, { replace: true })}>
            {t("success.done")}
          </Button>
        </div>
      </List>
    </main>
  )
}
