/** The create flow (spec 3 §4.3). */
import { useState } from "react"
import { Button, useSnackbar } from "@wallet/kernel-react/ui"
import type { PasscodeType, Product } from "../../api.ts"
import type { PasscodeSession } from "../runtime.ts"
import { EmailAddressStep, EmailCodeStep, Icons } from "../ui.tsx"
import styles from "../passcode.module.css"
import { BiometryOffer, biometrySnackbar, Done, NewPasscodeSteps } from "./steps.tsx"

/**
 * Creation: intro, set, confirm, biometry offer (only if available and not enabled), done.
 * source_email_missing opens the create-recovery-email flow and creates with the confirmed address;
 * email_code_required (a recovery email is on file, decision 0540) asks the code sent to it.
 */
export function CreateFlow({
  session,
  product,
  email,
  skipIntro,
  onDone,
}: {
  session: PasscodeSession
  product: Product
  email?: string
  skipIntro?: boolean
  onDone: (passcode: string) => void
}) {
  const { t } = session
  const snackbar = useSnackbar()
  const [step, setStep] = useState<"intro" | "set" | "email" | "code" | "existingCode" | "biometry" | "done">(skipIntro ? "set" : "intro")
  // The recovery email on file that must confirm the passcode (from email_code_required).
  const [guard, setGuard] = useState<{ readonly product: Product }>({ product })
  const [type, setType] = useState<PasscodeType>("4-digit")
  const [passcode, setPasscode] = useState("")
  const [address, setAddress] = useState(email ?? "")

  const create = async (value: string, extra: { email?: string; emailCode?: string; product?: Product } = {}) => {
    const created = await session.call((c, deviceSerial) =>
      c.passcode.create({
        payload: {
          newPasscode: value,
          newPasscodeType: type,
          deviceSerial,
          product: extra.product ?? product,
          ...(extra.email && extra.emailCode
            ? { email: extra.email, emailCode: extra.emailCode, emailSource: "new" as const }
            : extra.emailCode
              ? { emailCode: extra.emailCode, emailSource: "existing" as const }
              : {}),
        },
      }),
    )
    if (created.ok) {
      session.markVerified(value, created.value.unlockDuration)
      const biometry = await session.biometry.available()
      setStep(biometry.available && !created.value.deviceBiometrySet ? "biometry" : "done")
      return { ok: true as const }
    }
    return { ok: false as const, code: created.code, error: created.error }
  }

  switch (step) {
    case "intro":
      return (
        <section className={styles.screen}>
          <div className={styles.icon} aria-hidden="true">
            <Icons.shield />
          </div>
          <h2 className={styles.title}>{t("create.introTitle")}</h2>
          <p className={styles.text}>{t("create.introText")}</p>
          <div className={styles.actions}>
            <Button stretched onClick={() => setStep("set")} autoFocus>
              {t("create.start")}
            </Button>
          </div>
        </section>
      )
    case "set":
      return (
        <NewPasscodeSteps
          session={session}
          type={type}
          onTypeChange={setType}
          titles={{ set: t("create.setTitle"), confirm: t("create.confirmTitle") }}
          onConfirmed={async (value) => {
            setPasscode(value)
            const result = await create(value)
            if (result.ok) return true
            if (result.code === "source_email_missing") {
              setStep("email")
              return true
            }
            if (result.code === "email_code_required") {
              const named = (result.error as { product?: Product } | undefined)?.product
              setGuard({ product: named ?? product })
              setStep("existingCode")
              return true
            }
            snackbar.show({ id: "passcode-create", text: t(`errors.${result.code === "passcode_already_set" ? "passcode_already_set" : "technical_issue"}`) })
            return false
          }}
        />
      )
    case "email":
      return (
        <EmailAddressStep
          session={session}
          initial={address}
          onSubmit={async (value) => {
            setAddress(value)
            setStep("code")
          }}
        />
      )
    case "code":
      return (
        <EmailCodeStep
          session={session}
          title={t("code.title")}
          request={() =>
            session.call((c) =>
              c.recoveryEmail.requestEmailCode({ payload: { product, reason: "confirm-email", language: session.language(), email: address } }),
            )
          }
          submit={async (emailCode) => {
            const result = await create(passcode, { email: address, emailCode })
            return result.ok ? undefined : result.code
          }}
          onDone={() => undefined}
        />
      )
    case "existingCode":
      return (
        <EmailCodeStep
          session={session}
          title={t("code.title")}
          request={() =>
            session.call((c) =>
              c.recoveryEmail.requestEmailCode({ payload: { product: guard.product, reason: "change-passcode", language: session.language() } }),
            )
          }
          submit={async (emailCode) => {
            const result = await create(passcode, { emailCode, product: guard.product })
            return result.ok ? undefined : result.code
          }}
          onDone={() => undefined}
        />
      )
    case "biometry":
      return (
        <BiometryOffer
          session={session}
          passcode={passcode}
          onNext={(outcome) => {
            const text = biometrySnackbar(session, outcome)
            if (text) snackbar.show({ id: "passcode-biometry", text })
            setStep("done")
          }}
        />
      )
    case "done":
      return <Done session={session} title={t("create.doneTitle")} text={t("create.doneText")} onDone={() => onDone(passcode)} />
  }
}
