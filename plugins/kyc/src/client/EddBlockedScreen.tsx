import { useGo, useT } from "@wallet/kernel-react"
import { Button, Placeholder } from "@wallet/kernel-react/ui"
import { kycEddRoute, walletMainRoute } from "../routes.ts"
import { useKycStatus } from "./useStatus.ts"

/**
 * /kyc/edd-blocked (decision 0940): staff hold the account until the evidence they asked for is
 * accepted. Money can still arrive; nothing can leave. The way out is the evidence screen.
 */
export default function EddBlockedScreen() {
  const t = useT("kyc")
  const go = useGo()
  const status = useKycStatus()
  const edd = status.data?.edd ?? null
  const waiting = edd?.status === "submitted"
  return (
    <main style={{ padding: "32px 16px" }}>
      <Placeholder
        kind="error"
        title={t("edd.blockedTitle")}
        description={t(waiting ? "edd.blockedWaiting" : "edd.blockedText")}
        action={
          <div style={{ display: "grid", gap: 8 }}>
            {waiting ? null : (
              <Button look="primary" onClick={() => void go(kycEddRoute)}>
                {t("edd.toEvidence")}
              </Button>
            )}
            <Button look="secondary" onClick={() => void go(walletMainRoute, { replace: true })}>
              {t("success.done")}
            </Button>
          </div>
        }
      />
    </main>
  )
}
