import { QrCode as KernelQrCode } from "@wallet/kernel-react/qr"
import styles from "./wallet.module.css"

/** The receive screen's QR code: the kernel's component (loaded lazily with its encoder) at this screen's size. */
export default function QrCode({ text, label }: { readonly text: string; readonly label: string }) {
  return <KernelQrCode text={text} label={label} className={styles.qrSvg} testId="receive-qr" />
}
