import { useEffect, useRef, useState } from "react"
import { useSearch } from "@tanstack/react-router"
import { useQuery, useQueryClient } from "@tanstack/react-query"
import SumsubWebSdk from "@sumsub/websdk-react"
import { colorSchemeOf } from "@wallet/kernel"
import { analyticsOf, useGo, useKernel, useT } from "@wallet/kernel-react"
import { Button, Placeholder, SkeletonList, Spinner } from "@wallet/kernel-react/ui"
import type { PartnerTokenResponse } from "../api.ts"
import { kycMainRoute, kycSettingsRoute, kycVerificationPendingRoute } from "../routes.ts"
import { partnerSubmitted, partnerToken, refusalCode, statusKey } from "./client.ts"

type Level = "LEVEL_2" | "LEVEL_3"
type Phase = { readonly kind: "loading" } | { readonly kind: "ready"; readonly token: PartnerTokenResponse } | { readonly kind: "error"; readonly code: string }

/**
 * /kyc/sumsub?action=KYC&level=LEVEL_2 (spec 3 §2.2): the partner's own verification frame, through
 * `@sumsub/websdk-react` pointed at the partner's origin the server names (the local sandbox in dev).
 * The wallet asks its server for a single-use access token and hands the frame a fresh one whenever
 * it says the token expired. When the frame reports the documents sent, the waiting screen takes over.
 */
export default function SumsubScreen() {
  const kernel = useKernel()
  const t = useT("kyc")
  const go = useGo()
  const queries = useQueryClient()
  const search = useSearch({ strict: false }) as { readonly level?: Level }
  const level: Level = search.level ?? "LEVEL_2"
  // The token: asked once per visit (never persisted: only queries that opt in are), renewed by the frame.
  const token = useQuery({
    queryKey: ["kyc", "partner-token", level],
    queryFn: async () => {
      const answer = await partnerToken(kernel, level)
      analyticsOf(kernel).track("kyc.partner_opened", { level })
      return answer
    },
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
    refetchOnWindowFocus: false,
  })
  const phase: Phase =
    token.status === "pending"
      ? { kind: "loading" }
      : token.status === "error"
        ? { kind: "error", code: refusalCode(token.error) ?? "generic" }
        : { kind: "ready", token: token.data }
  const [readyFor, setReadyFor] = useState<string>()
  const frameReady = phase.kind === "ready" && readyFor === phase.token.accessToken
  const left = useRef(false)

  // A review already running, or the level held: the screens for those instead of the frame.
  const code = phase.kind === "error" ? phase.code : undefined
  useEffect(() => {
    if (code === "review_pending") void go(kycVerificationPendingRoute, { replace: true, search: {} })
    else if (code === "level_held") void go(kycSettingsRoute, { replace: true, search: {} })
    else if (code === "steps_first") void go(kycMainRoute, { replace: true, search: { level } })
  }, [code, go, level])

  const submitted = () => {
    if (left.current) return
    left.current = true
    analyticsOf(kernel).track("kyc.partner_submitted", { level })
    // The server reads the partner's status at once; the waiting screen polls from there.
    void partnerSubmitted(kernel)
      .then((status) => queries.setQueryData(statusKey, status))
      .catch(() => queries.invalidateQueries({ queryKey: statusKey }))
      .finally(() => void go(kycVerificationPendingRoute, { replace: true, search: { submitted: "1" } }))
  }

  const onMessage = (type: string, payload: unknown) => {
    if (type === "idCheck.onInitialized" && phase.kind === "ready") setReadyFor(phase.token.accessToken)
    else if (type === "idCheck.onApplicantSubmitted" || type === "idCheck.onApplicantResubmitted") submitted()
    else if (type === "idCheck.onApplicantStatusChanged") {
      const status = (payload as { reviewStatus?: unknown } | null)?.reviewStatus
      if (status === "pending" || status === "onHold") submitted()
    }
  }

  // The frame asks for a new token when its own is spent or expired.
  const renewToken = () => partnerToken(kernel, level).then((answer) => answer.accessToken)

  const scheme = colorSchemeOf(kernel.telegram.theme.current())
  const lang = kernel.i18n.language().split("-")[0] ?? "en"

  return (
    <main style={{ padding: "16px 0", minHeight: "100%" }}>
      <h1 style={{ margin: "8px 16px 16px", fontSize: 28 }}>{t("partner.title", { level: t(`level.${level}`) })}</h1>
      {phase.kind === "loading" || (code !== undefined && code !== "partner_unavailable" && code !== "review_final" && code !== "generic") ? (
        <SkeletonList rows={3} before={false} label={t("partner.loading")} />
      ) : phase.kind === "error" ? (
        <Placeholder
          kind="error"
          title={t(code === "review_final" ? "partner.final" : code === "partner_unavailable" ? "partner.unavailable" : "errors.generic")}
          action={
            code === "review_final" ? (
              <Button look="secondary" size="s" onClick={() => void go(kycSettingsRoute, { replace: true, search: {} })}>
                {t("settings.title")}
              </Button>
            ) : (
              <Button look="secondary" size="s" onClick={() => void token.refetch()}>
                {t("retry")}
              </Button>
            )
          }
        />
      ) : (
        <>
          {frameReady ? null : (
            <div role="status" style={{ display: "flex", gap: 8, alignItems: "center", justifyContent: "center", padding: 16 }}>
              <Spinner size="s" />
              <span>{t("partner.opening")}</span>
            </div>
          )}
          <SumsubWebSdk
            key={phase.token.accessToken}
            accessToken={phase.token.accessToken}
            baseUrl={phase.token.baseUrl}
            expirationHandler={renewToken}
            config={{ lang, theme: scheme }}
            options={{ adaptIframeHeight: true, addViewportTag: false }}
            onMessage={onMessage}
            className="kyc-partner-frame"
          />
        </>
      )}
    </main>
  )
}
