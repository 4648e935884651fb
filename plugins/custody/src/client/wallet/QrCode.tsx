import { encode } from "uqr"
import { qrPath } from "./qrPath.ts"
import styles from "./wallet.module.css"

/** A QR code as inline SVG (loaded lazily with the encoder, only on the receive screen). */
export default function QrCode({ text, label }: { readonly text: string; readonly label: string }) {
  const qr = encode(text, { ecc: "M", border: 0 })
  return (
    <svg className={styles.qrSvg} viewBox={`0 0 ${qr.size} ${qr.size}`} role="img" aria-label={label} shapeRendering="crispEdges" data-testid="receive-qr">
      <path d={qrPath(qr.data)} fill="#000" />
    </svg>
  )
}
