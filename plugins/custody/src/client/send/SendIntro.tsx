/**
 * The first-send intro (decision 0360 "View settings acted on"): on the send options screen, while
 * the view settings' `send_onboarding_finished` is false, a short hint says how sending works.
 * "Got it" (or the close button) saves `send_onboarding_finished: true` through `saveViewSettings`
 * (on the server with `accessToSavingSettings`, on this device otherwise). It does not block the
 * options under it.
 */
import { saveViewSettings, useKernel, useT, useViewSettings } from "@wallet/kernel-react"
import { Banner, Button } from "@wallet/kernel-react/ui"

export function SendIntro() {
  const t = useT("custody")
  const kernel = useKernel()
  const settings = useViewSettings()
  if (settings === undefined || settings.userFlags.send_onboarding_finished !== false) return null
  const finish = () => {
    kernel.telegram.haptic({ type: "impact", style: "light" })
    void saveViewSettings(kernel, { changedUserFlags: { send_onboarding_finished: true } })
  }
  return (
    <Banner
      data-testid="send-intro"
      tone="info"
      title={t("send.intro.title")}
      description={t("send.intro.text")}
      action={
        <Button size="s" look="plain" onClick={finish}>
          {t("send.intro.done")}
        </Button>
      }
      onClose={finish}
      closeLabel={t("banners.close")}
    />
  )
}
