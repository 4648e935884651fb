import { useSearch } from "@tanstack/react-router"
import { useGo, useKernel, useT } from "@wallet/kernel-react"
import { Button, Cell, List, Section, SkeletonList } from "@wallet/kernel-react/ui"
import type { VerificationStatus } from "../api.ts"
import { LEVEL_LIMITS, levelRank, type HeldLevel } from "../domain.ts"
import { kycMainRoute, kycSumsubRoute, kycVerificationPendingRoute, PARTNER_LEVELS } from "../routes.ts"
import { LoadError } from "./LoadError.tsx"
import { useKycStatus } from "./useStatus.ts"

type PartnerLevel = (typeof PARTNER_LEVELS)[number]
const SHOWN_LEVELS: ReadonlyArray<HeldLevel> = ["LEVEL_0", "LEVEL_1", "LEVEL_2", "LEVEL_3"]

/** The next level the partner can verify for this user (the asked one first), or null. */
export const nextPartnerLevel = (status: VerificationStatus, asked?: PartnerLevel): PartnerLevel | null => {
  if (status.level === "BLOCKED") return null
  const open = PARTNER_LEVELS.filter((level) => levelRank(status.level) < levelRank(level))
  if (asked !== undefined && open.includes(asked)) return asked
  return open[0] ?? null
}

/**
 * /kyc/settings (spec 3 §2.2): the user's level, what each level allows over 30 days (withdrawals to
 * outside addresses, P2P volume), the partner's review when one runs or ended in a rejection, and
 * the way to the next level (`?level=` offers that one; the start param kyc_settings_{level}).
 */
export default function SettingsScreen() {
  const kernel = useKernel()
  const t = useT("kyc")
  const go = useGo()
  const search = useSearch({ strict: false }) as { readonly level?: PartnerLevel }
  const status = useKycStatus()
  const money = new Intl.NumberFormat(kernel.i18n.language(), { style: "currency", currency: "USD", maximumFractionDigits: 0 })
  const limit = (cents: number | null) => (cents === null ? t("settings.noLimit") : cents === 0 ? t("settings.notAvailable") : money.format(cents / 100))

  const data = status.data
  const review = data?.review ?? null
  const reviewing = review !== null && (review.reviewStatus === "pending" || review.reviewStatus === "onHold")
  const next = data ? nextPartnerLevel(data, search.level) : null
  const finalRejection = review?.answer === "RED" && review.rejectType === "FINAL"
  const stepsDone = data !== undefined && (data.level1Status === "PASSED" || data.level1Status === "SELF_DECLARED_NAME_REQUIRED")

  const start = (level: PartnerLevel) => void (stepsDone ? go(kycSumsubRoute, { search: { action: "KYC", level } }) : go(kycMainRoute, { search: { level } }))

  return (
    <main style={{ padding: "16px 0" }}>
      <h1 style={{ margin: "8px 16px 16px", fontSize: 28 }}>{t("settings.title")}</h1>
      <List>
        {status.status === "pending" ? (
          <SkeletonList rows={4} before={false} label={t("loading")} />
        ) : status.status === "error" || data === undefined ? (
          <LoadError retry={() => void status.refetch()} />
        ) : (
          <>
            <Section>
              <Cell
                data-testid="kyc-level"
                title={t("currentLevel", { level: t(`level.${data.level}`) })}
                subtitle={
                  reviewing ? t("settings.reviewing") : review?.answer === "RED" ? t(finalRejection ? "rejected.finalTitle" : "rejected.title") : undefined
                }
                onClick={reviewing || review?.answer === "RED" ? () => void go(kycVerificationPendingRoute, { search: {} }) : undefined}
              />
            </Section>
            <Section header={t("settings.limitsTitle")} footer={t("settings.limitsFooter")}>
              {SHOWN_LEVELS.map((level) => (
                <Cell
                  key={level}
                  data-kyc-limits={level}
                  aria-current={data.level === level ? "true" : undefined}
                  before={<span aria-hidden="true">{data.level !== "BLOCKED" && levelRank(data.level) >= levelRank(level) ? "✓" : "○"}</span>}
                  title={`${t(`level.${level}`)}${data.level === level ? ` · ${t("settings.yours")}` : ""}`}
                  subtitle={t("settings.limits", { withdraw: limit(LEVEL_LIMITS[level].withdrawOuterUsdCents), p2p: limit(LEVEL_LIMITS[level].p2pUsdCents) })}
                  multiline
                />
              ))}
            </Section>
            <div style={{ padding: 16 }}>
              {reviewing ? (
                <Button look="secondary" stretched onClick={() => void go(kycVerificationPendingRoute, { search: {} })}>
                  {t("settings.reviewing")}
                </Button>
              ) : next !== null && !finalRejection ? (
                <Button look="primary" stretched data-testid="kyc-upgrade" onClick={() => start(next)}>
                  {t("settings.upgrade", { level: t(`level.${next}`) })}
                </Button>
              ) : null}
            </div>
          </>
        )}
      </List>
    </main>
  )
}
