/**
 * `@wallet/kernel-react/qr`: the one QR code component (decision 0130). A separate entry so the
 * encoder loads with the screen that shows a code (`lazy(() => import("@wallet/kernel-react/qr"))`),
 * never on the boot path.
 */
import { QrCode } from "./QrCode.tsx"

export { QrCode, type QrCodeProps } from "./QrCode.tsx"
export { qrPath } from "./qrPath.ts"
export default QrCode
