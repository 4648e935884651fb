import { useEffect, useState } from "react"
import { useNavigate } from "@tanstack/react-router"
import { PreferencesStore } from "@wallet/kernel"
import { Icon, runEffect, useKernel, useT } from "@wallet/kernel-react"
import { IconButton, Placeholder } from "@wallet/kernel-react/ui"
import styles from "./main.module.css"


/** Formats an amount in minor units with the currency's own number of digits (JPY has none). */
export const formatFiat = (minor: bigint, currency: string, language: string): string => {
  const format = new Intl.NumberFormat(language, { style: "currency", currency })
  const digits = format.resolvedOptions().maximumFractionDigits ?? 2
  const scale = 10n ** BigInt(digits)
  const whole = minor / scale
  const fraction = (minor < 0n ? -minor : minor) % scale
  // Intl formats a decimal string exactly, without going through a float.
  return format.format(`${whole}${digits > 0 ? `.${fraction.toString().padStart(digits, "0")}` : ""}` as unknown as number)
}

/** Wallet main: the crypto/TON switch (custody users only), settings, and the balance. */
export default function MainScreen() {
  const t = useT("home")
  const kernel = useKernel()
  const navigate = useNavigate()
  const user = kernel.user()
  const [fiat, setFiat] = useState<string | null>(null)

  useEffect(() => {
    void runEffect(kernel, kernel.storage.load(PreferencesStore)).then((p) => setFiat(p.fiatCurrency))
  }, [kernel])

  const switchToTon = () => {
    kernel.telegram.haptic({ type: "selection_change" })
    void navigate({ to: "/scw" } as never)
  }

  return (
    <main className={styles.screen}>
      <header className={styles.topBar}>
        {user?.isCustodyAvailable ? (
          <div role="tablist" aria-label={t("space.label")} className={styles.switch}>
            <button role="tab" type="button" aria-selected="true" className={styles.switchActive}>{t("space.crypto")}</button>
            <button role="tab" type="button" aria-selected="false" className={styles.switchItem} onClick={switchToTon}>{t("space.ton")}</button>
          </div>
        ) : (
          <span />
        )}
        <IconButton aria-label={t("settings")} onClick={() => void navigate({ to: "/settings" } as never)}>
          <Icon name="settings" />
        </IconButton>
      </header>
      <section className={styles.balance} aria-live="polite">
        <p className={styles.balanceLabel}>{t("totalBalance")}</p>
        <p className={styles.balanceValue}>{fiat ? formatFiat(0n, fiat, kernel.i18n.language()) : "\u00a0"}</p>
      </section>
      <Placeholder icon={<Icon name="wallet" size={48} />} title={t("emptyTitle")} description={t("emptyText")} />
    </main>
  )
}
