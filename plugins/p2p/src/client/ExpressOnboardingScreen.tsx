import { useEffect, useState } from "react"
import { useSearch } from "@tanstack/react-router"
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { useGo, useKernel, useT } from "@wallet/kernel-react"
import { Button, SkeletonList } from "@wallet/kernel-react/ui"
import { unavailableWhyOf } from "../domain.ts"
import { EXPRESS_OPERATIONS, type ExpressOperation } from "../express.ts"
import { expressOperationRoute, p2pUnavailableRoute } from "../routes.ts"
import { errorCode, errorField, initUser, keys, loadSettings, loadUser, STALE, updateSettings } from "./client.ts"
import { expressErrorKey, markOnboardingSeen } from "./expressView.ts"
import { alertStyle, CheckRow, leadStyle, LoadError, padStyle, pageStyle, titleStyle } from "./marketParts.tsx"

const STEPS = ["pick", "amount", "confirm"] as const

/** A step's picture: its number in a round badge (no image assets to load). */
function StepMark({ n }: { readonly n: number }) {
  return (
    <div
      aria-hidden="true"
      style={{
        width: 72,
        height: 72,
        margin: "8px auto 16px",
        borderRadius: "50%",
        display: "grid",
        placeItems: "center",
        fontSize: 32,
        fontWeight: 700,
        background: "var(--wk-color-button)",
        color: "var(--wk-color-button-text)",
      }}
    >
      {n}
    </div>
  )
}

/**
 * /p2p/express/onboarding (spec 3 §2.1; issue 21): three short steps, one at a time, then Start. "Don't
 * show again" is kept in the P2P settings (`expressOnboardingHidden`). Starting opens the market for a
 * user who has not used it yet (the market's own init), then the express screen.
 */
export default function ExpressOnboardingScreen() {
  const kernel = useKernel()
  const t = useT("p2p")
  const go = useGo()
  const queryClient = useQueryClient()
  const search = useSearch({ strict: false }) as { readonly crypto?: string; readonly fiatCurrency?: string; readonly operation?: string }
  const operation: ExpressOperation = EXPRESS_OPERATIONS.includes(search.operation as ExpressOperation) ? (search.operation as ExpressOperation) : "buy"
  const [step, setStep] = useState(0)
  const [hide, setHide] = useState(false)

  const user = useQuery({ queryKey: keys.user, queryFn: () => loadUser(kernel), staleTime: STALE.user })
  const settings = useQuery({ queryKey: keys.settings, queryFn: () => loadSettings(kernel) })
  const why = user.data?.unavailable ?? null
  useEffect(() => {
    if (why !== null) void go(p2pUnavailableRoute, { search: { why }, replace: true })
  }, [why, go])

  const start = useMutation({
    mutationFn: async () => {
      if (user.data?.p2pInitialized !== true) queryClient.setQueryData(keys.user, await initUser(kernel))
      if (hide) queryClient.setQueryData(keys.settings, await updateSettings(kernel, { expressOnboardingHidden: true }))
    },
    onSuccess: () => {
      markOnboardingSeen()
      void go(expressOperationRoute, { params: { operation }, search: { crypto: search.crypto, fiatCurrency: search.fiatCurrency }, replace: true })
    },
    onError: (error) => {
      if (errorCode(error) === "p2p_unavailable") void go(p2pUnavailableRoute, { search: { why: unavailableWhyOf(errorField(error, "why")) }, replace: true })
    },
  })

  if (user.status === "pending" || settings.status === "pending" || why !== null) {
    return (
      <main style={pageStyle}>
        <SkeletonList rows={3} label={t("express.loading")} />
      </main>
    )
  }
  if (user.status === "error" || settings.status === "error") {
    return (
      <main style={pageStyle}>
        <LoadError
          retry={() => {
            void user.refetch()
            void settings.refetch()
          }}
        />
      </main>
    )
  }

  const key = STEPS[step]!
  const last = step === STEPS.length - 1
  return (
    <main style={pageStyle} data-testid="p2p-express-onboarding" data-step={step + 1}>
      <p style={{ ...leadStyle, margin: "8px 16px 0" }} data-testid="p2p-express-onboarding-progress">
        {t("express.onboarding.progress", { step: step + 1, total: STEPS.length })}
      </p>
      <section aria-labelledby="p2p-express-onboarding-title" aria-live="polite" style={{ textAlign: "center", padding: "16px 0" }}>
        <StepMark n={step + 1} />
        <h1 id="p2p-express-onboarding-title" style={{ ...titleStyle, textAlign: "center" }}>
          {t(`express.onboarding.${key}.title`)}
        </h1>
        <p style={{ ...leadStyle, textAlign: "center" }}>{t(`express.onboarding.${key}.text`)}</p>
      </section>
      {last && <CheckRow checked={hide} onChange={setHide} label={t("express.onboarding.hide")} testId="p2p-express-onboarding-hide" />}
      {start.isError && errorCode(start.error) !== "p2p_unavailable" && (
        <p role="alert" style={alertStyle}>
          {t(expressErrorKey(errorCode(start.error)))}
        </p>
      )}
      <div style={padStyle}>
        {last ? (
          <Button
            look="primary"
            size="l"
            stretched
            data-testid="p2p-express-onboarding-start"
            loading={start.isPending}
            loadingLabel={t("express.loading")}
            onClick={() => start.mutate()}
          >
            {t("express.onboarding.start")}
          </Button>
        ) : (
          <Button look="primary" size="l" stretched data-testid="p2p-express-onboarding-next" onClick={() => setStep(step + 1)}>
            {t("express.onboarding.next")}
          </Button>
        )}
        {step > 0 && (
          <Button look="secondary" size="l" stretched data-testid="p2p-express-onboarding-back" onClick={() => setStep(step - 1)}>
            {t("express.onboarding.back")}
          </Button>
        )}
      </div>
    </main>
  )
}
