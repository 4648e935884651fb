// Skeleton: the dev_tools read-only viewer is being built (issue 6).
import { Skeleton } from "@wallet/kernel-react/ui"
import styles from "./ton.module.css"

/** /scw/viewer?address=: any address, read-only; only with the dev_tools feature flag. */
export default function ViewerScreen() {
  return <main className={styles.screen} aria-busy="true"><Skeleton /></main>
}
