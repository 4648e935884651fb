import { useState } from "react"
import { useMutation } from "@tanstack/react-query"
import { useKernel, useT } from "@wallet/kernel-react"
import { Banner, Button, List, Section, SegmentedControl } from "@wallet/kernel-react/ui"
import type { ExportLink } from "../api.ts"
import { EXPORT_PERIODS, type ExportDelivery, type ExportPeriod } from "../orderCsv.ts"
import { errorCode, exportOrders } from "./client.ts"
import { deliveryFor, merchantErrorKey } from "./merchantView.ts"
import { alertStyle, leadStyle, padStyle, pageStyle, titleStyle } from "./marketParts.tsx"

type Outcome = "downloading" | "cancelled" | "noAnswer" | "sent" | "empty"

interface Result {
  readonly link: ExportLink
  readonly outcome: Outcome
}

const TONE: Record<Outcome, "info" | "accent" | "warning"> = { downloading: "accent", sent: "accent", cancelled: "warning", noAnswer: "warning", empty: "info" }

/**
 * /p2p/export-order-history (spec 3 §2.1; issue 21): the period, then the server builds the CSV behind
 * a single-use link (10 minutes) and the Telegram client downloads it (Bot API 8.0). A client without
 * the download method, or a user who would rather have it in the chat, gets the link in a bot message.
 */
export default function ExportScreen() {
  const kernel = useKernel()
  const t = useT("p2p")
  const canDownload = kernel.telegram.supports("web_app_request_file_download")
  const [period, setPeriod] = useState<ExportPeriod>("30d")
  const [result, setResult] = useState<Result | null>(null)

  const run = useMutation({
    mutationFn: async (delivery: ExportDelivery): Promise<Result> => {
      const link = await exportOrders(kernel, { period, delivery })
      if (delivery === "message") return { link, outcome: "sent" }
      if (link.orders === 0) return { link, outcome: "empty" }
      const answer = await kernel.telegram.downloadFile({ url: link.url, fileName: link.fileName })
      return { link, outcome: answer === null ? "noAnswer" : answer }
    },
    onMutate: () => setResult(null),
    onSuccess: (next) => {
      setResult(next)
      if (next.outcome === "downloading" || next.outcome === "sent") kernel.telegram.haptic({ type: "notification", kind: "success" })
    },
    onError: () => kernel.telegram.haptic({ type: "notification", kind: "error" }),
  })

  const choose = (next: ExportPeriod) => {
    setPeriod(next)
    setResult(null)
    run.reset()
  }
  const outcome = result?.outcome
  const offerChat = canDownload && (outcome === "cancelled" || outcome === "noAnswer")

  return (
    <main style={pageStyle} data-testid="p2p-export">
      <h1 style={titleStyle}>{t("merchant.export.title")}</h1>
      <p style={leadStyle}>{t("merchant.export.lead")}</p>
      <List>
        <Section header={t("merchant.export.period")}>
          <div style={{ padding: "8px 16px" }}>
            <SegmentedControl
              aria-label={t("merchant.export.period")}
              stretched
              items={EXPORT_PERIODS.map((value) => ({ value, label: t(`merchant.export.periods.${value}`) }))}
              value={period}
              onChange={choose}
            />
          </div>
        </Section>
      </List>
      {!canDownload && (
        <div style={{ margin: "0 16px 8px" }}>
          <Banner tone="info" data-testid="p2p-export-unsupported" description={t("merchant.export.unsupported")} />
        </div>
      )}
      <div role="status" aria-live="polite" style={{ margin: result === null ? "0 16px" : "0 16px 8px" }}>
        {result !== null && (
          <Banner
            tone={TONE[result.outcome]}
            data-testid="p2p-export-result"
            data-outcome={result.outcome}
            title={t(`merchant.export.${result.outcome}`, { fileName: result.link.fileName })}
            description={t(`merchant.export.${result.outcome}Text`, { count: result.link.orders })}
          />
        )}
      </div>
      {run.error !== null && (
        <p role="alert" style={alertStyle} data-testid="p2p-export-error">
          {t(merchantErrorKey(errorCode(run.error)))}
        </p>
      )}
      <div style={padStyle}>
        <Button
          look="primary"
          size="l"
          stretched
          data-testid="p2p-export-submit"
          loading={run.isPending}
          loadingLabel={t("merchant.export.preparing")}
          onClick={() => run.mutate(deliveryFor(canDownload))}
        >
          {t(result === null ? (canDownload ? "merchant.export.submit" : "merchant.export.submitChat") : "merchant.export.again")}
        </Button>
        {offerChat && (
          <Button look="secondary" size="l" stretched data-testid="p2p-export-to-chat" disabled={run.isPending} onClick={() => run.mutate("message")}>
            {t("merchant.export.toChat")}
          </Button>
        )}
        <p style={{ margin: 0, color: "var(--wk-color-hint)", fontSize: 14, textAlign: "center" }}>{t("merchant.export.linkNote")}</p>
      </div>
    </main>
  )
}
