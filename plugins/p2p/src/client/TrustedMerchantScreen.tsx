import { useState } from "react"
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { Icon, useKernel, useT } from "@wallet/kernel-react"
import { Banner, Button, Cell, List, Section, SkeletonList } from "@wallet/kernel-react/ui"
import type { MerchantApplication, MerchantStatus } from "../api.ts"
import type { CriterionResult } from "../merchantRules.ts"
import { applyMerchant, errorCode, keys, loadMerchantStatus } from "./client.ts"
import { cooldownOver, criterionText, merchantErrorKey } from "./merchantView.ts"
import { alertStyle, leadStyle, LoadError, padStyle, pageStyle, titleStyle } from "./marketParts.tsx"
import { TrustedBadge } from "./TrustedBadge.tsx"

const day = (iso: string, locale: string) => new Intl.DateTimeFormat(locale, { dateStyle: "medium" }).format(new Date(iso))

/** One criterion: what is required, the user's value, and met / not met in words (not only colour). */
function CriterionRow({ criterion }: { readonly criterion: CriterionResult }) {
  const t = useT("p2p")
  const text = criterionText(criterion)
  return (
    <Cell
      data-testid={`p2p-merchant-criterion-${criterion.id}`}
      data-met={criterion.met}
      multiline
      title={t(text.title, { required: criterion.required })}
      subtitle={t(text.value, { value: criterion.value ?? 0, count: criterion.value ?? 0 })}
      after={
        <span
          style={{
            display: "inline-flex",
            alignItems: "center",
            gap: 4,
            color: criterion.met ? "var(--wk-color-success, #31b545)" : "var(--wk-color-hint)",
            fontWeight: 600,
          }}
        >
          {criterion.met ? <Icon name="check" size={18} /> : <span aria-hidden="true">—</span>}
          {t(criterion.met ? "merchant.met" : "merchant.notMet")}
        </span>
      }
    />
  )
}

const TONE: Record<MerchantApplication["status"], "info" | "accent" | "warning" | "error"> = {
  PENDING: "info",
  APPROVED: "accent",
  REJECTED: "warning",
  REVOKED: "warning",
}

/** The latest application: under review, approved, or declined / revoked with support's reason and when to apply again. */
function ApplicationBanner({ application }: { readonly application: MerchantApplication }) {
  const t = useT("p2p")
  const locale = useKernel().i18n.language()
  // The screen is read again on each open, so the moment it opened decides "from <date>" or "now".
  const [openedAt] = useState(() => Date.now())
  const again =
    application.reapplyAt === null
      ? null
      : cooldownOver(application, openedAt)
        ? t("merchant.status.reapplyNow")
        : t("merchant.status.reapply", { date: day(application.reapplyAt, locale) })
  return (
    <Banner
      tone={TONE[application.status]}
      data-testid="p2p-merchant-application"
      data-status={application.status}
      title={t(`merchant.status.${application.status}`)}
      description={
        <>
          <span style={{ display: "block" }}>{t(`merchant.status.${application.status}Text`)}</span>
          {application.reason !== null && (
            <span style={{ display: "block", marginTop: 4 }} data-testid="p2p-merchant-reason">
              {t("merchant.status.reason", { reason: application.reason })}
            </span>
          )}
          {again !== null && <span style={{ display: "block", marginTop: 4 }}>{again}</span>}
          <span style={{ display: "block", marginTop: 4, color: "var(--wk-color-hint)" }}>
            {t("merchant.status.sent", { date: day(application.createdAt, locale) })}
          </span>
        </>
      }
    />
  )
}

/**
 * /p2p/trusted-merchant-application (spec 3 §2.1; issue 21): each criterion with the user's value
 * and met or not met, Apply only when all are met (the server checks again), and the application's
 * status with support's reason. Start param `p2pTrustedMerchantApplication`.
 */
export default function TrustedMerchantScreen() {
  const kernel = useKernel()
  const t = useT("p2p")
  const queryClient = useQueryClient()
  // Always read again on open: support may have decided since.
  const status = useQuery({ queryKey: keys.merchant, queryFn: () => loadMerchantStatus(kernel), refetchOnMount: "always" })
  const apply = useMutation({
    mutationFn: () => applyMerchant(kernel),
    onSuccess: (next: MerchantStatus) => {
      queryClient.setQueryData(keys.merchant, next)
      kernel.telegram.haptic({ type: "notification", kind: "success" })
    },
    onError: () => {
      kernel.telegram.haptic({ type: "notification", kind: "error" })
      // The criteria may have changed since the screen read them.
      void queryClient.invalidateQueries({ queryKey: keys.merchant })
    },
  })

  if (status.status === "pending") {
    return (
      <main style={pageStyle} aria-busy="true">
        <h1 style={titleStyle}>{t("merchant.title")}</h1>
        <SkeletonList rows={4} before={false} label={t("merchant.loading")} />
      </main>
    )
  }
  if (status.status === "error") {
    return (
      <main style={pageStyle}>
        <h1 style={titleStyle}>{t("merchant.title")}</h1>
        <LoadError retry={() => void status.refetch()} />
      </main>
    )
  }
  const data = status.data
  const met = data.criteria.filter((c) => c.met).length
  return (
    <main style={pageStyle} data-testid="p2p-merchant" data-trusted={data.trustedMerchant}>
      <h1 style={{ ...titleStyle, display: "flex", alignItems: "center", gap: 8, flexWrap: "wrap" }}>
        {t("merchant.title")}
        <TrustedBadge trusted={data.trustedMerchant} testId="p2p-merchant-badge" />
      </h1>
      <p style={leadStyle}>{t("merchant.lead")}</p>
      {data.application !== null && (
        <div style={{ margin: "0 16px 12px" }}>
          <ApplicationBanner application={data.application} />
        </div>
      )}
      <List>
        <Section
          header={t("merchant.criteriaTitle")}
          footer={t("merchant.criteriaFooter", { met, total: data.criteria.length })}
          data-testid="p2p-merchant-criteria"
        >
          {data.criteria.map((criterion) => (
            <CriterionRow key={criterion.id} criterion={criterion} />
          ))}
        </Section>
      </List>
      {apply.error !== null && (
        <p role="alert" style={alertStyle} data-testid="p2p-merchant-error">
          {t(merchantErrorKey(errorCode(apply.error)))}
        </p>
      )}
      <div style={padStyle}>
        {data.canApply ? (
          <Button
            look="primary"
            size="l"
            stretched
            data-testid="p2p-merchant-apply"
            loading={apply.isPending}
            loadingLabel={t("merchant.loading")}
            onClick={() => apply.mutate()}
          >
            {t("merchant.apply")}
          </Button>
        ) : (
          data.application === null && (
            <p style={{ margin: 0, color: "var(--wk-color-hint)", textAlign: "center" }} data-testid="p2p-merchant-not-yet">
              {t("merchant.applyHint")}
            </p>
          )
        )}
        {data.application?.status === "APPROVED" && <p style={{ margin: 0, color: "var(--wk-color-hint)", textAlign: "center" }}>{t("merchant.keepIt")}</p>}
      </div>
    </main>
  )
}
