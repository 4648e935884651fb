import { useState } from "react"
import { useSearch } from "@tanstack/react-router"
import { analyticsOf, useGo, useKernel, useT } from "@wallet/kernel-react"
import { Button, Placeholder, SkeletonList, useSnackbar } from "@wallet/kernel-react/ui"
import type { ClientPermission } from "../domain.ts"
import { walletMainRoute } from "../routes.ts"
import { giveConsent, refusalCode } from "./client.ts"
import { useKycStatus, useStatusAnswer } from "./useStatus.ts"

/**
 * /kyc/partially-blocked?restrictedPermission= (spec 3 §2.2, §4.2): one feature restricted by a
 * partial block (PBR_002). Accepting CS_002 lifts it; then the user goes back where they were.
 */
export default function PartialBlockScreen() {
  const kernel = useKernel()
  const t = useT("kyc")
  const go = useGo()
  const snackbar = useSnackbar()
  const search = useSearch({ strict: false }) as { readonly restrictedPermission?: ClientPermission }
  const status = useKycStatus()
  const answer = useStatusAnswer()
  const [accepting, setAccepting] = useState(false)

  if (status.status === "pending") return <SkeletonList rows={2} before={false} label={t("loading")} />
  const restricted = status.data?.partialBlocks.find((block) => search.restrictedPermission === undefined || block.permission === search.restrictedPermission)
  const permission = restricted?.permission ?? search.restrictedPermission
  const accept = async () => {
    setAccepting(true)
    try {
      answer(await giveConsent(kernel, "CS_002"))
      analyticsOf(kernel).track("kyc.consent_given", { consent: "CS_002" })
      if (window.history.length > 1) window.history.back()
      else await go(walletMainRoute)
    } catch (error) {
      snackbar.show({ id: "kyc-consent", text: t(`errors.${refusalCode(error) ?? "generic"}`, { defaultValue: t("errors.generic") }) })
    } finally {
      setAccepting(false)
    }
  }
  return (
    <main style={{ padding: "32px 16px" }} data-restricted={permission ?? ""}>
      <Placeholder
        title={t("partial.title", { feature: t(`permissions.${permission ?? "none"}`) })}
        description={restricted ? t("partial.text") : t("partial.lifted")}
        action={
          restricted ? (
            <Button look="primary" loading={accepting} loadingLabel={t("status.pending")} onClick={() => void accept()}>
              {t("partial.accept")}
            </Button>
          ) : (
            <Button look="primary" onClick={() => void go(walletMainRoute)}>
              {t("success.done")}
            </Button>
          )
        }
      />
    </main>
  )
}
