import { useState } from "react"
import { analyticsOf, useGo, useKernel, useT } from "@wallet/kernel-react"
import { Button, List, Placeholder, Section, SkeletonList, useSnackbar } from "@wallet/kernel-react/ui"
import { configOf, DEFAULT_AGREEMENT_URL, DEFAULT_LEARN_MORE_URL } from "../config.ts"
import { kycMainRoute, kycSumsubRoute, walletMainRoute } from "../routes.ts"
import { giveConsent, refusalCode } from "./client.ts"
import { LoadError } from "./LoadError.tsx"
import { useKycStatus, useStatusAnswer } from "./useStatus.ts"

/**
 * /kyc/blocked (spec 3 §2.2, §4.2): why the account is blocked and what lifts it. BR_001 asking for
 * CS_001: the user accepts it here; BR_015 (or any block passed by verification): the way to the
 * steps; BR_021: its own text. An FAQ with the user agreement and a learn-more link. A user who is no
 * longer blocked is sent back to the steps.
 */
export default function BlockedScreen() {
  const kernel = useKernel()
  const t = useT("kyc")
  const go = useGo()
  const snackbar = useSnackbar()
  const status = useKycStatus()
  const answer = useStatusAnswer()
  const [accepting, setAccepting] = useState(false)
  const config = configOf(kernel)

  if (status.status === "pending") return <SkeletonList rows={3} before={false} label={t("loading")} />
  if (status.status === "error") return <LoadError retry={() => void status.refetch()} />
  const block = status.data.block
  if (block === null) {
    return (
      <main style={{ padding: "32px 16px" }}>
        <Placeholder
          title={t("blocked.lifted")}
          action={
            <Button look="primary" onClick={() => void go(kycMainRoute, { search: {}, replace: true })}>
              {t("blocked.toSteps")}
            </Button>
          }
        />
      </main>
    )
  }

  const accept = async () => {
    setAccepting(true)
    try {
      answer(await giveConsent(kernel, "CS_001"))
      analyticsOf(kernel).track("kyc.consent_given", { consent: "CS_001" })
      // BR_017: back where the user came from once unblocked; otherwise the steps.
      if (block.code === "BR_017" && window.history.length > 1) window.history.back()
      else await go(kycMainRoute, { search: {}, replace: true })
    } catch (error) {
      snackbar.show({ id: "kyc-consent", text: t(`errors.${refusalCode(error) ?? "generic"}`, { defaultValue: t("errors.generic") }) })
    } finally {
      setAccepting(false)
    }
  }
  const faq = [
    { q: t("blocked.faq.why.q"), a: t("blocked.faq.why.a") },
    {
      q: t("blocked.faq.how.q"),
      a: t(block.requiredAction === "CS_001" ? "blocked.faq.how.consent" : block.unblockingCondition ? "blocked.faq.how.verify" : "blocked.faq.how.support"),
    },
  ]
  const text =
    block.code === "BR_021"
      ? t("blocked.text.BR_021")
      : block.unblockingCondition
        ? t("blocked.text.verify", { level: t(`level.${block.unblockingCondition.requiredLevel}`) })
        : t("blocked.text.default")

  return (
    <main style={{ padding: "16px 0" }} data-block-code={block.code}>
      <h1 style={{ margin: "8px 16px 8px", fontSize: 28 }}>{t("blocked.title")}</h1>
      <p style={{ margin: "0 16px 16px" }}>{text}</p>
      <List>
        <Section header={t("blocked.faq.title")}>
          {faq.map((item) => (
            <details key={item.q} style={{ padding: "12px 16px" }}>
              <summary>{item.q}</summary>
              <p style={{ margin: "8px 0 0" }}>{item.a}</p>
            </details>
          ))}
          <div style={{ display: "flex", gap: 16, padding: "12px 16px" }}>
            <a
              href={config.agreementUrl ?? DEFAULT_AGREEMENT_URL}
              onClick={(event) => (event.preventDefault(), kernel.telegram.openLink(config.agreementUrl ?? DEFAULT_AGREEMENT_URL))}
            >
              {t("blocked.agreement")}
            </a>
            <a
              href={config.learnMoreUrl ?? DEFAULT_LEARN_MORE_URL}
              onClick={(event) => (event.preventDefault(), kernel.telegram.openLink(config.learnMoreUrl ?? DEFAULT_LEARN_MORE_URL))}
            >
              {t("blocked.learnMore")}
            </a>
          </div>
        </Section>
      </List>
      <div style={{ padding: 16 }}>
        {block.requiredAction === "CS_001" ? (
          <Button look="primary" stretched loading={accepting} loadingLabel={t("status.pending")} onClick={() => void accept()}>
            {t("blocked.accept")}
          </Button>
        ) : block.unblockingCondition ? (
          <Button
            look="primary"
            stretched
            onClick={() => {
              const level = block.unblockingCondition?.requiredLevel
              // Levels 2 and 3 are the partner's document check (the way out of a PASS_KYC block).
              void (level === "LEVEL_2" || level === "LEVEL_3" ? go(kycSumsubRoute, { search: { action: "KYC", level } }) : go(kycMainRoute, { search: {} }))
            }}
          >
            {t("blocked.verify")}
          </Button>
        ) : null}
        <Button look="secondary" stretched style={{ marginTop: 8 }} onClick={() => void go(walletMainRoute)}>
          {t("blocked.close")}
        </Button>
      </div>
    </main>
  )
}
