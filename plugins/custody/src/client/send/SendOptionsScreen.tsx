import { useSearch } from "@tanstack/react-router"
import { Icon, useGo, useKernel, useT } from "@wallet/kernel-react"
import { Cell, List, Section, useSnackbar } from "@wallet/kernel-react/ui"
import { scanAndRoute } from "./scan.ts"
import { SendIntro } from "./SendIntro.tsx"
import { cleanSearch } from "./search.ts"
import styles from "./send.module.css"
import { receiverSearchRoute, sendRoute } from "../../routes.ts"

/** /send-options: to a Telegram user, to an address, or scan a QR code (with the first-send intro above them). */
export default function SendOptionsScreen() {
  const t = useT("custody")
  const kernel = useKernel()
  const go = useGo()
  const snackbar = useSnackbar()
  const { assetCurrency } = useSearch({ strict: false }) as { assetCurrency?: string }
  return (
    <main className={styles.screen}>
      <h1 className={styles.title}>{t("send.options.title")}</h1>
      <p className={styles.lead}>{t("send.options.lead")}</p>
      <SendIntro />
      <List>
        <Section>
          <Cell
            before={<Icon name="search" />}
            title={t("send.options.user")}
            subtitle={t("send.options.userHint")}
            chevron
            onClick={() => void go(receiverSearchRoute, { search: cleanSearch({ assetCurrency }) })}
          />
          <Cell
            before={<Icon name="wallet" />}
            title={t("send.options.address")}
            subtitle={t("send.options.addressHint")}
            chevron
            onClick={() => void go(sendRoute, { search: cleanSearch({ assetCurrency }) })}
          />
          <Cell
            before={<Icon name="qr" />}
            title={t("send.options.scan")}
            subtitle={t("send.options.scanHint")}
            onClick={() => void scanAndRoute(kernel, go, snackbar)}
          />
        </Section>
      </List>
    </main>
  )
}
