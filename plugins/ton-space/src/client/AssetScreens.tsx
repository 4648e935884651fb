// Skeleton: the asset page, the extra-currency page and the PnL view are being built (issue 6).
import { Skeleton } from "@wallet/kernel-react/ui"
import styles from "./ton.module.css"

/** /scw/assets/$address: a jetton or TON ("ton") with its balance, actions and price chart. */
export function AssetScreen() {
  return <main className={styles.screen} aria-busy="true"><Skeleton /></main>
}

/** /scw/assets/extra-currency/$id. */
export function ExtraCurrencyScreen() {
  return <main className={styles.screen} aria-busy="true"><Skeleton /></main>
}

/** /scw/pnl/$address. */
export function PnlScreen() {
  return <main className={styles.screen} aria-busy="true"><Skeleton /></main>
}
