import { useSearch } from "@tanstack/react-router"
import { useQuery } from "@tanstack/react-query"
import { useGo, useKernel, useT } from "@wallet/kernel-react"
import { Button, Placeholder } from "@wallet/kernel-react/ui"
import { mainRoute } from "../routes.ts"
import { loadTransaction, rampKeys } from "./api.ts"
import { Loading, NS, padStyle, Page } from "./parts.tsx"
import { decodePayload } from "./view.ts"

/** /assets/ramp/offramp/offramp-success (spec 1 §2): the sale's outcome (paid out, or failed and returned). */
export default function OfframpSuccessScreen() {
  const kernel = useKernel()
  const t = useT(NS)
  const go = useGo()
  const payload = decodePayload((useSearch({ strict: false }) as { readonly payload?: string }).payload)
  const id = payload?.rampId
  const tx = useQuery({ queryKey: rampKeys.transaction(id ?? ""), queryFn: () => loadTransaction(kernel, id!), enabled: id !== undefined })
  const title = t("offramp.successTitle")
  if (payload === undefined || id === undefined)
    return (
      <Page title={title}>
        <Placeholder kind="error" title={t("invalidLink")} />
      </Page>
    )
  if (tx.isPending)
    return (
      <Page title={title}>
        <Loading label={t("loading")} />
      </Page>
    )
  const failed = tx.data?.status === "FAILED"
  return (
    <Page title={failed ? t("offramp.failedTitle") : title}>
      <Placeholder
        kind={failed ? "error" : "empty"}
        data-testid="ramp-sell-result"
        title={
          failed
            ? t("offramp.failedText", { amount: payload.amount, currency: payload.currency })
            : t("offramp.successText", { amount: payload.amount, currency: payload.currency, fiat: payload.fiatCurrency })
        }
      />
      <div style={padStyle}>
        <Button look="primary" size="l" stretched onClick={() => void go(mainRoute)}>
          {t("done")}
        </Button>
      </div>
    </Page>
  )
}
