/**
 * The passcode plugin's implementation of the kernel Passcode service (`provides.passcode`), loaded
 * on first use. It runs the order of attempts and shows its screens in the kernel's overlay layer.
 */
import { useEffect, useState, type ReactNode } from "react"
import { Effect } from "effect"
import { PasscodeCancelled, type OperationTokenGrant, type PasscodeShape } from "@wallet/kernel"
import type { PasscodeHost, PasscodeProviderFactory } from "@wallet/kernel-react"
import { Placeholder, Button } from "@wallet/kernel-react/ui"
import { operationTokenInOrder, verifyInOrder, type AttemptSteps } from "./attempts.ts"
import { CheckPasscode, CreateFlow, EmailChallengeFlow, Loading, ResetFlow, type VerifiedProof } from "./flows.tsx"
import { NS, passcodeSession, type PasscodeInfo, type PasscodeSession } from "./runtime.ts"
import { OverlayFrame } from "./ui.tsx"

/** Shows `render(resolve, cancel)` in an overlay until it resolves or the user closes it. */
const overlay = <A,>(host: PasscodeHost, session: PasscodeSession, label: string, render: (resolve: (value: A) => void, cancel: () => void) => ReactNode) =>
  Effect.callback<A, PasscodeCancelled>((resume) => {
    let settled = false
    const settle = (effect: Effect.Effect<A, PasscodeCancelled>) => {
      if (settled) return
      settled = true
      close()
      resume(effect)
    }
    const cancel = () => settle(Effect.fail(new PasscodeCancelled()))
    const close = host.overlays.show(
      <OverlayFrame label={label} closeLabel={session.t("popup.cancel")} onClose={cancel}>
        {render((value) => settle(Effect.succeed(value)), cancel)}
      </OverlayFrame>,
    )
    return Effect.sync(() => settle(Effect.fail(new PasscodeCancelled())))
  })

/** The verify overlay: loads the status, then the passcode screen; forgot opens the reset flow. */
function VerifyOverlay({
  session,
  mode,
  passcodeOnly,
  onVerified,
  onCancel,
}: {
  session: PasscodeSession
  mode: "verify" | "create"
  /** needCredential "passcode": no biometry key (decision 0520). */
  passcodeOnly?: boolean
  onVerified: (proof: VerifiedProof) => void
  onCancel: () => void
}) {
  const { t } = session
  const [info, setInfo] = useState<PasscodeInfo | null>()
  const [resetting, setResetting] = useState(false)
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
  if (mode === "create") return <CreateFlow session={session} product="wallet" onDone={(passcode) => onVerified({ kind: "passcode", passcode })} />
  if (info === undefined) return <Loading label={t("loading")} />
  if (info === null) {
    return (
      <Placeholder
        kind="error"
        title={t("errors.somethingWentWrong")}
        description={t("errors.technical_issue")}
        action={<Button onClick={load}>{t("retry")}</Button>}
      />
    )
  }
  if (resetting)
    return (
      <ResetFlow session={session} product="wallet" type={info.passcodeType ?? "4-digit"} onDone={(passcode) => onVerified({ kind: "passcode", passcode })} />
    )
  return (
    <CheckPasscode
      session={session}
      info={info}
      passcodeOnly={passcodeOnly === true}
      onVerified={onVerified}
      onForgot={() => setResetting(true)}
      onCancel={onCancel}
    />
  )
}

const factory: PasscodeProviderFactory = async (host) => {
  const session = passcodeSession(host.kernel)
  // Another plugin's screen may be the first to ask: the overlays need this plugin's strings loaded.
  await host.kernel.runtime.runPromise(host.kernel.i18n.loadNamespace(NS)).catch(() => undefined)
  const { t } = session
  const promise = <A,>(f: () => Promise<A>) => Effect.promise(f)
  const steps: AttemptSteps = {
    check: (credential) =>
      promise(() => session.call((c, deviceSerial) => c.passcode.verify({ payload: { ...credential, deviceSerial } }))).pipe(
        Effect.map((r) => (r.ok ? { unlockDuration: r.value.unlockDuration } : undefined)),
      ),
    info: promise(() => session.info()),
    remembered: Effect.sync(() => session.unlocked()),
    rememberedPasscode: Effect.sync(() => session.rememberedPasscode()),
    biometry: promise(() => session.biometry.token()),
    screen: (mode, options) =>
      overlay<VerifiedProof>(host, session, t("verify.title"), (resolve, cancel) => (
        <VerifyOverlay session={session} mode={mode} passcodeOnly={options?.passcodeOnly === true} onVerified={resolve} onCancel={cancel} />
      )),
    verified: (proof, unlockDuration) => Effect.sync(() => session.markVerified(proof.kind === "passcode" ? proof.passcode : undefined, unlockDuration)),
  }
  const shape: PasscodeShape = {
    verify: ({ passcode, needCredential }) =>
      verifyInOrder(steps, { ...(passcode === undefined ? {} : { passcode }), ...(needCredential === undefined ? {} : { needCredential }) }),
    // The grant carries this device's serial: the token is bound to it (docs/decisions/0550).
    operationToken: ({ operation, params }) =>
      operationTokenInOrder({
        verify: (options) => verifyInOrder(steps, options),
        rememberedPasscode: Effect.sync(() => session.rememberedPasscode()),
        begin: (credential) =>
          promise(() =>
            session.call((c, deviceSerial) =>
              c.security.beginChallenge({
                payload: {
                  deviceSerial,
                  language: session.language(),
                  operation: { name: operation, ...(params === undefined ? {} : { params }) },
                  ...credential,
                },
              }),
            ),
          ).pipe(
            Effect.flatMap((r) => {
              if (r.ok) return Effect.succeed(r.value)
              if (r.code.startsWith("passcode_") || r.code === "biometry_token_invalid") return Effect.succeed(undefined)
              return promise(() =>
                host.kernel.telegram.popup({
                  title: t("errors.somethingWentWrong"),
                  message: t("errors.technical_issue"),
                  buttons: [{ id: "ok", type: "ok" }],
                }),
              ).pipe(Effect.andThen(Effect.fail(new PasscodeCancelled())))
            }),
          ),
        emailChallenge: (challengeId, maskedEmail) =>
          overlay<OperationTokenGrant>(host, session, t("challenge.label"), (resolve) => (
            <EmailChallengeFlow session={session} challengeId={challengeId} maskedEmail={maskedEmail} onToken={resolve} />
          )),
        forget: Effect.sync(() => session.forget()),
      }).pipe(Effect.flatMap((grant) => Effect.map(promise(session.serial), (deviceSerial) => ({ ...grant, deviceSerial })))),
  }
  return shape
}

export default factory
