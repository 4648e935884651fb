/**
 * Custody's `main.sections` entry (decision 0140, 0360 "View settings acted on"): the
 * `display_terms_banner` of the view settings. While the flag is true wallet main says the terms of
 * service were updated, with a link to them; the close button saves `display_terms_banner: false`
 * (on the server with `accessToSavingSettings`, on this device otherwise).
 */
import { saveViewSettings, useKernel, useT, useViewSettings } from "@wallet/kernel-react"
import { Banner, Button } from "@wallet/kernel-react/ui"

/** The custodial wallet's terms of service (opened in Telegram's in-app browser). */
export const TERMS_URL = "https://wallet.tg/terms"

export default function TermsBanner() {
  const kernel = useKernel()
  const t = useT("custody")
  const settings = useViewSettings()
  if (settings?.banners.display_terms_banner !== true) return null
  const close = () => {
    kernel.telegram.haptic({ type: "impact", style: "light" })
    void saveViewSettings(kernel, { changedBanners: { display_terms_banner: false } })
  }
  return (
    <Banner
      data-testid="terms-banner"
      tone="info"
      // Inset like the asset list above it (the kit's spacing tokens).
      style={{ margin: "var(--wk-space-3) var(--wk-space-4) 0" }}
      title={t("banners.terms.title")}
      description={t("banners.terms.text")}
      action={
        <Button size="s" look="plain" onClick={() => kernel.telegram.openLink(TERMS_URL)}>
          {t("banners.terms.open")}
        </Button>
      }
      onClose={close}
      closeLabel={t("banners.close")}
    />
  )
}
