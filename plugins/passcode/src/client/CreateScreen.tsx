/** /scw/passcode/create (self-custody area): the creation flow with the route's search params. */
import { useEffect, useState } from "react"
import { useSearch } from "@tanstack/react-router"
import { analyticsOf, TrackEvent, useGo, useKernel } from "@wallet/kernel-react"
import { Button, Placeholder } from "@wallet/kernel-react/ui"
import { CreateFlow, Loading } from "./flows.tsx"
import { passcodeSession, type PasscodeInfo } from "./runtime.ts"
import styles from "./passcode.module.css"
import { scwRoute } from "../routes.ts"

export default function CreateScreen() {
  const kernel = useKernel()
  const session = passcodeSession(kernel)
  const { t } = session
  const go = useGo()
  const search = useSearch({ strict: false }) as { email?: string; type: "manual" | "recover" | "mnemonic"; source?: string }
  const [info, setInfo] = useState<PasscodeInfo | null>()
  const [attempt, setAttempt] = useState(0)
  useEffect(() => {
    void session.info().then((i) => setInfo(i ?? null))
    // `attempt` re-runs the load when the user retries.
    // oxlint-disable-next-line react/exhaustive-effect-dependencies
  }, [session, attempt])
  const load = () => {
    setInfo(undefined)
    setAttempt((n) => n + 1)
  }
  const finish = () => void go(scwRoute, { replace: true })
  const created = () => {
    analyticsOf(kernel).track("passcode.created", { source: search.type })
    finish()
  }
  if (info === undefined)
    return (
      <main className={styles.page}>
        <Loading label={t("loading")} />
      </main>
    )
  if (info === null) {
    return (
      <main className={styles.screen}>
        <TrackEvent name="error_shown" properties={{ where: "passcode/create", code: "info_failed" }} />
        <Placeholder
          kind="error"
          title={t("errors.somethingWentWrong")}
          description={t("errors.technical_issue")}
          action={<Button onClick={load}>{t("retry")}</Button>}
        />
      </main>
    )
  }
  if (info.passcodeType !== null) {
    return (
      <main className={styles.screen}>
        <Placeholder title={t("create.alreadyTitle")} description={t("create.alreadyText")} action={<Button onClick={finish}>{t("done")}</Button>} />
      </main>
    )
  }
  return (
    <main className={styles.page}>
      <CreateFlow
        session={session}
        product="ton-space"
        skipIntro={search.type === "recover"}
        {...(search.email ? { email: search.email } : {})}
        onDone={created}
      />
    </main>
  )
}
