import { useMemo } from "react"
import { encode } from "uqr"
import { qrPath } from "./qrPath.ts"

export interface QrCodeProps {
  /** What the code encodes (an address, a `ton://transfer/…` link). */
  readonly text: string
  /** The accessible name of the image. */
  readonly label: string
  /** Quiet zone in modules around the code (0: the container draws its own margin). */
  readonly border?: number
  /** Sizes the SVG (it has a viewBox and scales to any width). */
  readonly className?: string
  readonly testId?: string
}

/**
 * A QR code as inline SVG, error correction M, black modules on the container's background (decision
 * 0130: one QR component on one library, `uqr`). Import it from `@wallet/kernel-react/qr`, lazily:
 * the encoder is never on the first screen.
 */
export function QrCode({ text, label, border = 0, className, testId }: QrCodeProps) {
  const qr = useMemo(() => {
    const encoded = encode(text, { ecc: "M", border })
    return { size: encoded.size, d: qrPath(encoded.data) }
  }, [text, border])
  return (
    <svg className={className} viewBox={`0 0 ${qr.size} ${qr.size}`} role="img" aria-label={label} shapeRendering="crispEdges" data-testid={testId}>
      <path d={qr.d} fill="#000" />
    </svg>
  )
}
