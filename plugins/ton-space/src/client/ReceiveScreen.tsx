import { useKernel, useHideTabBar, useT } from "@wallet/kernel-react"
import { QrCode } from "@wallet/kernel-react/qr"
import { Button, useSnackbar } from "@wallet/kernel-react/ui"
import { NS, useWallet } from "./hooks.ts"
import styles from "./ton.module.css"

/** /scw/qr: receive TON and jettons — the address as a ton:// QR code, and copy. */
export default function ReceiveScreen() {
  const t = useT(NS)
  const kernel = useKernel()
  const snackbar = useSnackbar()
  const [state] = useWallet()
  useHideTabBar()
  const address = state.address ?? ""
  return (
    <main className={styles.screen}>
      <h1 className={styles.title}>{t("receive.title")}</h1>
      <p className={styles.lead}>{t(state.walletNetwork === "testnet" ? "receive.textTestnet" : "receive.text")}</p>
      {address && (
        <div className={styles.qr}>
          <QrCode text={`ton://transfer/${address}`} label={t("receive.qrLabel")} border={2} />
        </div>
      )}
      <p className={styles.mono} data-testid="receive-address">
        {address}
      </p>
      <div className={styles.stack}>
        <Button
          look="primary"
          stretched
          onClick={() => {
            void navigator.clipboard?.writeText(address).catch(() => undefined)
            kernel.telegram.haptic({ type: "notification", kind: "success" })
            snackbar.show({ id: "ton-address-copied", text: t("main.addressCopied") })
          }}
        >
          {t("receive.copy")}
        </Button>
      </div>
    </main>
  )
}
