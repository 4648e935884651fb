import { useState } from "react"
import { useQueryClient } from "@tanstack/react-query"
import { analyticsOf, useGo, useKernel, useT } from "@wallet/kernel-react"
import { Button, List, Section, Switch, useSnackbar } from "@wallet/kernel-react/ui"
import { configOf, DEFAULT_AGREEMENT_URL } from "../config.ts"
import { kycMainRoute } from "../routes.ts"
import { acceptTerms, refusalCode, statusKey } from "./client.ts"
import { useKycStatus } from "./useStatus.ts"

/**
 * /kyc/confirmation (spec 3 §2.2, §4.2, §7.4): the terms of service, read and accepted. Acceptance
 * records the CS_003 consent, marks the user as no longer new and answers the level and permissions;
 * then the verification steps follow. A user who accepted already sees that and goes on.
 */
export default function ConfirmationScreen() {
  const kernel = useKernel()
  const t = useT("kyc")
  const go = useGo()
  const snackbar = useSnackbar()
  const queries = useQueryClient()
  const status = useKycStatus()
  const [read, setRead] = useState(false)
  const [accepting, setAccepting] = useState(false)
  const accepted = status.data?.entityInfo.consents.includes("CS_003") === true
  const termsUrl = configOf(kernel).agreementUrl ?? DEFAULT_AGREEMENT_URL

  const accept = async () => {
    setAccepting(true)
    try {
      await acceptTerms(kernel)
      analyticsOf(kernel).track("kyc.consent_given", { consent: "CS_003" })
      await queries.invalidateQueries({ queryKey: statusKey })
      await go(kycMainRoute, { search: {}, replace: true })
    } catch (error) {
      snackbar.show({ id: "kyc-terms", text: t(`errors.${refusalCode(error) ?? "generic"}`, { defaultValue: t("errors.generic") }) })
    } finally {
      setAccepting(false)
    }
  }

  return (
    <main style={{ padding: "16px 0" }}>
      <h1 style={{ margin: "8px 16px 16px", fontSize: 28 }}>{t("terms.title")}</h1>
      <List>
        <Section footer={t("terms.footer")}>
          <p style={{ margin: 16 }}>{t("terms.text")}</p>
          <p style={{ margin: "0 16px 16px" }}>
            <a href={termsUrl} target="_blank" rel="noreferrer noopener" onClick={(event) => (event.preventDefault(), kernel.telegram.openLink(termsUrl))}>
              {t("terms.read")}
            </a>
          </p>
        </Section>
        <div style={{ padding: 16, display: "grid", gap: 12 }}>
          {accepted ? (
            <>
              <p role="status" style={{ margin: 0 }}>
                {t("terms.accepted")}
              </p>
              <Button look="primary" stretched onClick={() => void go(kycMainRoute, { search: {}, replace: true })}>
                {t("toSteps")}
              </Button>
            </>
          ) : (
            <>
              <label style={{ display: "flex", gap: 12, alignItems: "center" }}>
                <Switch checked={read} onChange={setRead} />
                <span>{t("terms.agree")}</span>
              </label>
              <Button look="primary" stretched disabled={!read} loading={accepting} loadingLabel={t("status.pending")} onClick={() => void accept()}>
                {t("terms.accept")}
              </Button>
            </>
          )}
        </div>
      </List>
    </main>
  )
}
