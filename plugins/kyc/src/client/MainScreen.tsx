import { useEffect, useState } from "react"
import { useSearch } from "@tanstack/react-router"
import { analyticsOf, useGo, useKernel, useT } from "@wallet/kernel-react"
import { Button, Cell, List, Section, SkeletonList, useSnackbar } from "@wallet/kernel-react/ui"
import { configOf } from "../config.ts"
import { activeStep, stepStatuses, type KycStep } from "../domain.ts"
import { kycBlockedRoute, kycCountryRoute, kycNameRoute, kycPartialBlockRoute, kycSuccessRoute, kycSumsubRoute } from "../routes.ts"
import { refusalCode, setPhone } from "./client.ts"
import { LoadError } from "./LoadError.tsx"
import { useKycStatus, useStatusAnswer } from "./useStatus.ts"

/**
 * /kyc/main (spec 3 §2.2, §4.2): the user's level and the verification steps, each with its
 * number (a tick once done), title, description and status; under them the active step's button,
 * which Enter presses too. The phone step asks Telegram for the account's phone; the country and name steps
 * open their screens. `forcedStep` in the search makes a step the active one.
 */
export default function MainScreen() {
  const kernel = useKernel()
  const t = useT("kyc")
  const go = useGo()
  const snackbar = useSnackbar()
  const search = useSearch({ strict: false }) as { readonly forcedStep?: KycStep; readonly level?: "LEVEL_2" | "LEVEL_3" }
  const status = useKycStatus()
  const answer = useStatusAnswer()
  const [savingPhone, setSavingPhone] = useState(false)
  const title = configOf(kernel).title ?? t("title")

  const facts = status.data && {
    level: status.data.level,
    level1Status: status.data.level1Status,
    // The level this visit goes for (a start param's), else the one the server has on record.
    requiredLevel: search.level ?? status.data.requiredLevelAfterKyc1,
    shouldShowCountryStep: status.data.shouldShowCountryStep,
    ...(search.forcedStep ? { forcedStep: search.forcedStep } : {}),
  }
  const active = facts ? activeStep(facts) : null

  const sharePhone = async () => {
    setSavingPhone(true)
    try {
      const raw = await kernel.telegram.requestContact()
      if (raw === null) {
        snackbar.show({ id: "kyc-phone", text: t("phone.declined") })
        return
      }
      const saved = await setPhone(kernel, raw)
      answer(saved)
      analyticsOf(kernel).track("kyc.step_completed", { step: "phoneNumber", level: saved.data.level })
    } catch (error) {
      snackbar.show({ id: "kyc-phone", text: t(`errors.${refusalCode(error) ?? "generic"}`, { defaultValue: t("errors.generic") }) })
    } finally {
      setSavingPhone(false)
    }
  }

  const press = (step: KycStep) => {
    if (step === "phoneNumber") return void sharePhone()
    if (step === "country") return void go(kycCountryRoute)
    if (step === "basicInfo") return void go(kycNameRoute)
    void go(kycSumsubRoute, { search: { action: "KYC", level: facts?.requiredLevel === "LEVEL_3" ? "LEVEL_3" : "LEVEL_2" } })
  }

  // Spec 3 §4.2: a blocked user goes to the blocked screen.
  const blocked = status.data?.level === "BLOCKED"
  useEffect(() => {
    if (blocked) void go(kycBlockedRoute, { replace: true })
  }, [blocked, go])

  // Spec 3 §2.2: Enter presses the active step.
  useEffect(() => {
    if (active === null || savingPhone) return
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "Enter" || event.defaultPrevented) return
      const target = event.target as HTMLElement | null
      if (target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.tagName === "BUTTON")) return
      press(active)
    }
    window.addEventListener("keydown", onKey)
    return () => window.removeEventListener("keydown", onKey)
  })

  const steps = facts ? stepStatuses(facts, { savingPhone }) : []
  const current = steps.find((item) => item.status === "active" || item.status === "pending")
  const done = status.data !== undefined && active === null && status.data.level1Status === "PASSED"

  return (
    <main style={{ padding: "16px 0" }}>
      <h1 style={{ margin: "8px 16px 16px", fontSize: 28 }}>{title}</h1>
      <List>
        {status.status === "pending" ? (
          <Section>
            <SkeletonList rows={3} before={false} label={t("loading")} />
          </Section>
        ) : status.status === "error" ? (
          <LoadError retry={() => void status.refetch()} />
        ) : (
          <>
            <Section>
              <Cell
                data-testid="kyc-level"
                title={t("currentLevel", { level: t(`level.${status.data.level}`) })}
                subtitle={status.data.phoneMasked ?? undefined}
              />
            </Section>
            {status.data.partialBlocks.length > 0 ? (
              <Section header={t("partial.listTitle")}>
                {status.data.partialBlocks.map((block) => (
                  <Cell
                    key={block.permission}
                    data-partial-block={block.permission}
                    title={t("partial.title", { feature: t(`permissions.${block.permission}`) })}
                    onClick={() => void go(kycPartialBlockRoute, { search: { restrictedPermission: block.permission } })}
                  />
                ))}
              </Section>
            ) : null}
            <Section header={t("stepsTitle")}>
              {steps.map(({ step, status: stepStatus }, index) => (
                <Cell
                  key={step}
                  data-kyc-step={step}
                  data-status={stepStatus}
                  aria-current={stepStatus === "active" || stepStatus === "pending" ? "step" : undefined}
                  before={<span aria-hidden="true">{stepStatus === "completed" ? "✓" : index + 1}</span>}
                  title={t(`main.steps.${step}.title`)}
                  subtitle={t(stepStatus === "completed" ? `main.steps.${step}.description_completed` : `main.steps.${step}.description`)}
                  after={t(`status.${stepStatus}`)}
                  multiline
                />
              ))}
            </Section>
            <div style={{ padding: 16 }}>
              {current !== undefined ? (
                <Button
                  data-kyc-action={current.step}
                  look="primary"
                  stretched
                  loading={current.status === "pending"}
                  loadingLabel={t("status.pending")}
                  onClick={() => press(current.step)}
                >
                  {t(`main.steps.${current.step}.button`)}
                </Button>
              ) : done ? (
                <Button look="primary" stretched onClick={() => void go(kycSuccessRoute)}>
                  {t("allDone")}
                </Button>
              ) : null}
            </div>
          </>
        )}
      </List>
    </main>
  )
}
