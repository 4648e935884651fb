/** /passcode/settings (custodial area): create, change, reset, biometry, recovery email, lock now. */
import { useEffect, useRef, useState } from "react"
import { Effect } from "effect"
import { useSearch } from "@tanstack/react-router"
import { useGo, useKernel, usePasscode } from "@wallet/kernel-react"
import { Button, Cell, List, Placeholder, Section, SkeletonList, Switch, useSnackbar } from "@wallet/kernel-react/ui"
import type { RecoveryEmail } from "../api.ts"
import { disableBiometry } from "./biometry.ts"
import { ChangeFlow, CheckPasscode, CreateFlow, RecoveryEmailFlow, ResetFlow } from "./flows.tsx"
import { passcodeSession, type PasscodeInfo } from "./runtime.ts"
import styles from "./passcode.module.css"
import { passcodeSettingsRoute, walletSettingsRoute } from "../routes.ts"

type View = "list" | "create" | "change" | "reset" | "email" | "enableBiometry"

export default function SettingsScreen() {
  const kernel = useKernel()
  const session = passcodeSession(kernel)
  const { t } = session
  const go = useGo()
  const snackbar = useSnackbar()
  const search = useSearch({ strict: false }) as { action?: View }
  const [view, setView] = useState<View>(search.action && search.action !== "list" ? search.action : "list")
  const [info, setInfo] = useState<PasscodeInfo | null>()
  const [email, setEmail] = useState<RecoveryEmail | null>()
  const [biometry, setBiometry] = useState<{ available: boolean; type: string }>({ available: false, type: "unknown" })
  const [biometryFlag, setBiometryFlag] = useState(false)
  const [, rerender] = useState(0)
  useEffect(() => kernel.i18n.subscribe(() => rerender((n) => n + 1)), [kernel])

  const [attempt, setAttempt] = useState(0)
  useEffect(() => {
    void session.info().then((i) => {
      setInfo(i ?? null)
      setBiometryFlag(i?.deviceBiometrySet === true)
    })
    void session.call((c) => c.recoveryEmail.get({ query: { product: "wallet" } })).then((r) => setEmail(r.ok ? r.value : null))
    void session.biometry.available().then(setBiometry)
    // `attempt` re-runs the load when the user retries.
    // oxlint-disable-next-line react/exhaustive-effect-dependencies
  }, [session, attempt])
  const load = () => {
    setInfo(undefined)
    setEmail(undefined)
    setAttempt((n) => n + 1)
  }

  // Security settings open after the passcode (the kernel service: remembered unlock, biometry or the screen).
  const passcodeService = usePasscode()
  const [gateOpen, setGateOpen] = useState(false)
  const gating = useRef(false)
  const needsGate = view === "list" && info !== undefined && info !== null && info.passcodeType !== null && !gateOpen
  useEffect(() => {
    if (!needsGate || gating.current) return
    gating.current = true
    void kernel.runtime.runPromise(Effect.result(passcodeService.verify({ operation: "passcode_settings" }))).then((result) => {
      gating.current = false
      if (result._tag === "Success" || result.failure._tag === "PasscodeUnavailable") setGateOpen(true)
      // Closed: leave for the settings list, unless Telegram's back already left this page.
      else if (window.location.pathname === "/passcode/settings") void go(walletSettingsRoute)
    })
  }, [needsGate, kernel, passcodeService, go])

  const back = () => {
    setGateOpen(true)
    setView("list")
    void go(passcodeSettingsRoute, { search: {}, replace: true })
    load()
  }

  const enableWith = async (passcode: string) => {
    const outcome = await session.biometry.enable(passcode)
    const key = {
      success: "biometry.enabled",
      "opened-bot-settings": "biometry.openedSettings",
      rejected: "errors.biometry_not_granted",
      failure: "errors.biometry_not_available",
    }[outcome]
    snackbar.show({ id: "passcode-biometry", text: t(key) })
    back()
  }

  const toggleBiometry = async (on: boolean) => {
    if (on) {
      // Within the unlock window the remembered passcode sets biometry up without asking again.
      const remembered = session.rememberedPasscode()
      return remembered !== undefined ? enableWith(remembered) : setView("enableBiometry")
    }
    // Spec 3 §4.3: flag off first, then the server, then the device token; restore the flag on error.
    const off = await disableBiometry({
      setFlag: setBiometryFlag,
      deactivate: async () => {
        const remembered = session.rememberedPasscode()
        const token = remembered === undefined ? await session.biometry.token() : undefined
        const credential = remembered !== undefined ? { passcode: remembered } : token !== undefined ? { biometryToken: token } : undefined
        return credential !== undefined && (await session.biometry.disable(credential))
      },
      clearToken: () => kernel.telegram.biometry.updateToken(""),
    })
    snackbar.show({ id: "passcode-biometry", text: t(off ? "biometry.disabled" : "errors.biometry_not_updated") })
  }

  if (info === undefined || needsGate) {
    return (
      <main className={styles.list} aria-busy="true">
        <h1 className={styles.title} style={{ margin: "16px" }}>
          {t("settings.title")}
        </h1>
        <SkeletonList rows={4} label={t("loading")} />
      </main>
    )
  }
  if (info === null) {
    return (
      <main className={styles.screen}>
        <Placeholder
          kind="error"
          title={t("errors.somethingWentWrong")}
          description={t("errors.technical_issue")}
          action={<Button onClick={load}>{t("retry")}</Button>}
        />
      </main>
    )
  }
  const hasPasscode = info.passcodeType !== null
  const biometryLabel = t(`biometry.type.${biometry.type}`)
  switch (view) {
    case "create":
      return (
        <main className={styles.page}>
          <CreateFlow session={session} product="wallet" onDone={back} />
        </main>
      )
    case "change":
      return hasPasscode ? (
        <main className={styles.page}>
          <ChangeFlow session={session} info={info} onDone={back} onForgot={() => setView("reset")} />
        </main>
      ) : null
    case "reset":
      return (
        <main className={styles.page}>
          <ResetFlow session={session} product="wallet" type={info.passcodeType ?? "4-digit"} onDone={back} />
        </main>
      )
    case "email":
      return (
        <main className={styles.page}>
          <RecoveryEmailFlow session={session} product="wallet" current={email?.email ?? null} onDone={back} />
        </main>
      )
    case "enableBiometry":
      return (
        <main className={styles.page}>
          <CheckPasscode
            session={session}
            info={info}
            onVerified={(proof) => proof.kind === "passcode" && void enableWith(proof.passcode)}
            onForgot={() => setView("reset")}
            onCancel={back}
          />
        </main>
      )
    default:
      return (
        <main className={styles.list}>
          <h1 className={styles.title} style={{ margin: "16px" }}>
            {t("settings.title")}
          </h1>
          <List>
            <Section
              header={t("settings.passcode")}
              footer={
                !hasPasscode
                  ? t("settings.noPasscodeFooter")
                  : info.unlockDuration > 0
                    ? t("settings.unlockFooter", { count: Math.max(1, Math.round(info.unlockDuration / 60)) })
                    : t("settings.askEveryTime")
              }
            >
              {hasPasscode ? (
                <>
                  <Cell title={t("settings.change")} chevron onClick={() => setView("change")} />
                  {biometry.available && (
                    <Cell
                      title={t("settings.biometry", { type: biometryLabel })}
                      after={
                        <Switch
                          checked={biometryFlag}
                          onChange={(on) => void toggleBiometry(on)}
                          aria-label={t("settings.biometry", { type: biometryLabel })}
                        />
                      }
                    />
                  )}
                  {info.unlockDuration > 0 && (
                    <Cell
                      title={t("settings.lockNow")}
                      disabled={!session.unlocked()}
                      onClick={() => {
                        session.forget()
                        snackbar.show({ id: "passcode-locked", text: t("settings.locked") })
                        rerender((n) => n + 1)
                      }}
                    />
                  )}
                  <Cell title={t("verify.forgot")} tone="accent" onClick={() => setView("reset")} />
                </>
              ) : (
                <Cell title={t("settings.create")} tone="accent" chevron onClick={() => setView("create")} />
              )}
            </Section>
            <Section header={t("settings.recovery")}>
              {email === undefined ? (
                <SkeletonList rows={1} />
              ) : (
                <Cell
                  title={email?.maskedEmail ? t("settings.email") : t("settings.addEmail")}
                  after={email?.maskedEmail ?? undefined}
                  chevron
                  onClick={() => setView("email")}
                />
              )}
            </Section>
          </List>
        </main>
      )
  }
}
