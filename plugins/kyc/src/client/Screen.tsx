import { useQuery } from "@tanstack/react-query"
import { useKernel, useT } from "@wallet/kernel-react"
import { Button, Cell, List, Placeholder, Section, SkeletonList } from "@wallet/kernel-react/ui"
import { configOf } from "../config.ts"
import { stepStatuses } from "../domain.ts"
import { loadStatus, statusKey, STATUS_STALE_ON_STEPS_MS } from "./client.ts"

/**
 * /kyc: the user's verification level and the verification steps (spec 3 §2.2, §4.2), each with its
 * status (done, next, later). The steps' own screens come with the rest of issue 19.
 */
export default function Screen() {
  const kernel = useKernel()
  const t = useT("kyc")
  const status = useQuery({ queryKey: statusKey, queryFn: () => loadStatus(kernel), staleTime: STATUS_STALE_ON_STEPS_MS, refetchOnWindowFocus: false })
  const title = configOf(kernel).title ?? t("title")
  return (
    <main style={{ padding: "16px 0" }}>
      <h1 style={{ margin: "8px 16px 16px", fontSize: 28 }}>{title}</h1>
      <List>
        {status.status === "pending" ? (
          <Section>
            <SkeletonList rows={3} before={false} label={t("loading")} />
          </Section>
        ) : status.status === "error" ? (
          <Placeholder
            kind="error"
            title={t("loadError")}
            action={
              <Button look="secondary" size="s" onClick={() => void status.refetch()}>
                {t("retry")}
              </Button>
            }
          />
        ) : (
          <>
            <Section>
              <Cell data-testid="kyc-level" title={t("currentLevel", { level: t(`level.${status.data.level}`) })} />
            </Section>
            <Section header={t("stepsTitle")}>
              {stepStatuses({
                level: status.data.level,
                level1Status: status.data.level1Status,
                requiredLevel: status.data.requiredLevelAfterKyc1,
                shouldShowCountryStep: status.data.shouldShowCountryStep,
              }).map(({ step, status: stepStatus }) => (
                <Cell
                  key={step}
                  data-kyc-step={step}
                  data-status={stepStatus}
                  title={t(`main.steps.${step}.title`)}
                  subtitle={t(stepStatus === "completed" ? `main.steps.${step}.description_completed` : `main.steps.${step}.description`)}
                  after={t(`status.${stepStatus}`)}
                />
              ))}
            </Section>
          </>
        )}
      </List>
    </main>
  )
}
