/**
 * The passcode plugin's `main.sections` entry (decision 0140, 0360 "View settings acted on"): the
 * `display_passcode_banner` of the view settings. While the flag is true and the user has no
 * passcode, wallet main offers to create one (the custodial create flow, as `turn_on_passcode`
 * opens it); the close button saves `display_passcode_banner: false`. The passcode status is asked
 * only while the flag is true, and its client loads only then.
 */
import { useEffect, useState } from "react"
import { Icon, saveViewSettings, useGo, useKernel, useT, useViewSettings } from "@wallet/kernel-react"
import { Banner, Button } from "@wallet/kernel-react/ui"
import { passcodeSettingsRoute } from "../routes.ts"

export default function PasscodeBanner() {
  const kernel = useKernel()
  const t = useT("passcode")
  const go = useGo()
  const wanted = useViewSettings()?.banners.display_passcode_banner === true
  /** Whether the user has a passcode (undefined while asked or when the answer did not come). */
  const [hasPasscode, setHasPasscode] = useState<boolean>()
  useEffect(() => {
    if (!wanted) return
    let live = true
    void import("./runtime.ts")
      .then(({ passcodeSession }) => passcodeSession(kernel).info())
      .then((info) => live && setHasPasscode(info === undefined ? undefined : info.passcodeType !== null))
      .catch(() => undefined)
    return () => {
      live = false
    }
  }, [kernel, wanted])
  if (!wanted || hasPasscode !== false) return null
  const close = () => {
    kernel.telegram.haptic({ type: "impact", style: "light" })
    void saveViewSettings(kernel, { changedBanners: { display_passcode_banner: false } })
  }
  return (
    <Banner
      data-testid="passcode-banner"
      tone="info"
      // Inset like the asset list above it (the kit's spacing tokens).
      style={{ margin: "var(--wk-space-3) var(--wk-space-4) 0" }}
      icon={<Icon name="lock" size={20} />}
      title={t("banner.title")}
      description={t("banner.text")}
      action={
        <Button size="s" look="plain" onClick={() => void go(passcodeSettingsRoute, { search: { action: "create" } })}>
          {t("create.start")}
        </Button>
      }
      onClose={close}
      closeLabel={t("banner.close")}
    />
  )
}
