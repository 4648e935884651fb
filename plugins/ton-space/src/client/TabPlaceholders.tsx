import { useT } from "@wallet/kernel-react"
import { Placeholder } from "@wallet/kernel-react/ui"
import { TonSpaceDegradedBanner, TonTabBar } from "./common.tsx"
import { NS } from "./hooks.ts"
import styles from "./ton.module.css"

/** /scw/swap until the swap plugin claims it (issue: swap). */
export function SwapTabScreen() {
  const t = useT(NS)
  return (
    <main className={styles.screen}>
      <h1 className={styles.title}>{t("tabs.swap")}</h1>
      <TonSpaceDegradedBanner />
      <Placeholder title={t("soon.swapTitle")} description={t("soon.text")} />
      <TonTabBar />
    </main>
  )
}

/** /scw/earn until the earn plugin claims it (issue: earn). */
export function EarnTabScreen() {
  const t = useT(NS)
  return (
    <main className={styles.screen}>
      <h1 className={styles.title}>{t("tabs.earn")}</h1>
      <TonSpaceDegradedBanner />
      <Placeholder title={t("soon.earnTitle")} description={t("soon.text")} />
      <TonTabBar />
    </main>
  )
}
