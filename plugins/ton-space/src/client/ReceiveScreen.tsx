import { useMemo } from "react"
import { encodeQR } from "qr"
import { useKernel, useHideTabBar, useT } from "@wallet/kernel-react"
import { Button, useSnackbar } from "@wallet/kernel-react/ui"
import { NS, useWallet } from "./hooks.ts"
import styles from "./ton.module.css"

/** One SVG path of the dark modules (no innerHTML). */
const qrPath = (text: string) => {
  const modules = encodeQR(text, "raw", { ecc: "medium", border: 2 })
  let d = ""
  modules.forEach((row, y) => row.forEach((dark, x) => dark && (d += `M${x} ${y}h1v1h-1z`)))
  return { d, size: modules.length }
}

/** /scw/qr: receive TON and jettons — the address as a ton:// QR code, and copy. */
export default function ReceiveScreen() {
  const t = useT(NS)
  const kernel = useKernel()
  const snackbar = useSnackbar()
  const [state] = useWallet()
  useHideTabBar()
  const address = state.address ?? ""
  const qr = useMemo(() => (address ? qrPath(`ton://transfer/${address}`) : null), [address])
  return (
    <main className={styles.screen}>
      <h1 className={styles.title}>{t("receive.title")}</h1>
      <p className={styles.lead}>{t(state.walletNetwork === "testnet" ? "receive.textTestnet" : "receive.text")}</p>
      {qr && (
        <div className={styles.qr}>
          <svg viewBox={`0 0 ${qr.size} ${qr.size}`} role="img" aria-label={t("receive.qrLabel")} shapeRendering="crispEdges">
            <path d={qr.d} fill="#000000" />
          </svg>
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
