/** The recovery email flow, the email challenge and the loading screen. */
import { useState } from "react"
import { Spinner } from "@wallet/kernel-react/ui"
import { type Product } from "../../api.ts"
import type { PasscodeSession } from "../runtime.ts"
import { EmailAddressStep, EmailCodeStep } from "../ui.tsx"
import styles from "../passcode.module.css"
import { Done } from "./steps.tsx"

/** Recovery email: create (address, code) or change (code to the current address, new address, code). */
export function RecoveryEmailFlow({
  session,
  product,
  current,
  onDone,
}: {
  session: PasscodeSession
  product: Product
  current: string | null
  onDone: () => void
}) {
  const { t } = session
  const [currentCode, setCurrentCode] = useState<string>()
  const [address, setAddress] = useState<string>()
  const [done, setDone] = useState(false)
  if (done) return <Done session={session} title={t("email.doneTitle")} text={t("email.doneText", { email: address ?? "" })} onDone={onDone} />
  if (current !== null && currentCode === undefined) {
    return (
      <EmailCodeStep
        session={session}
        title={t("email.currentCodeTitle")}
        request={() => session.call((c) => c.recoveryEmail.requestEmailCode({ payload: { product, reason: "change-email", language: session.language() } }))}
        submit={async (code) => {
          const checked = await session.call((c) => c.recoveryEmail.checkEmailCode({ payload: { emailCode: code, reason: "change-email", product } }))
          return checked.ok ? undefined : checked.code
        }}
        onDone={setCurrentCode}
      />
    )
  }
  if (address === undefined) return <EmailAddressStep session={session} onSubmit={async (value) => setAddress(value)} />
  return (
    <EmailCodeStep
      session={session}
      title={t("code.title")}
      request={() =>
        session.call((c) => c.recoveryEmail.requestEmailCode({ payload: { product, reason: "confirm-email", language: session.language(), email: address } }))
      }
      submit={async (emailCode) => {
        const saved = await session.call((c, deviceSerial) =>
          currentCode === undefined
            ? c.recoveryEmail.create({ payload: { email: address, emailCode, product, deviceSerial } })
            : c.recoveryEmail.change({ payload: { currentEmailCode: currentCode, email: address, emailCode, product } }),
        )
        return saved.ok ? undefined : saved.code
      }}
      onDone={() => setDone(true)}
    />
  )
}

/** The email-code step of a security challenge; resolves the operation token. */
export function EmailChallengeFlow({
  session,
  challengeId,
  maskedEmail,
  onToken,
}: {
  session: PasscodeSession
  challengeId: string
  maskedEmail: string
  onToken: (grant: { operationToken: string; expiresAt: string }) => void
}) {
  const { t } = session
  return (
    <EmailCodeStep
      session={session}
      title={t("challenge.title", { email: maskedEmail })}
      request={() => session.call((c) => c.security.requestChallengeEmailCode({ payload: { challengeId, language: session.language() } }))}
      submit={async (emailCode) => {
        const done = await session.call((c) => c.security.completeChallenge({ payload: { challengeId, emailCode } }))
        if (done.ok) onToken(done.value)
        return done.ok ? undefined : done.code
      }}
      onDone={() => undefined}
    />
  )
}

export function Loading({ label }: { label: string }) {
  return (
    <section className={styles.screen}>
      <Spinner size="l" label={label} />
    </section>
  )
}
