import { useState } from "react"
import { Icon, useGo, useKernel, useT } from "@wallet/kernel-react"
import { Avatar, Button, Cell, List, Placeholder, Section, SkeletonList } from "@wallet/kernel-react/ui"
import { currencyInfo, parseAmount } from "../../currencies.ts"
import { call, custodyClient } from "./clients.ts"
import { useQuery } from "@tanstack/react-query"
import { asLoad, FRESH_EACH_VISIT, unwrap } from "../query.ts"
import { custodyKeys } from "../queryKeys.ts"
import { daysLeft, formatAmount } from "./logic.ts"
import styles from "./send.module.css"
import { transferRoute } from "../../routes.ts"

/** /transfers: custody transfers waiting for the user to accept them (tg_transfer_status=new). */
export default function IncomingTransfersScreen() {
  const t = useT("custody")
  const kernel = useKernel()
  const go = useGo()
  const language = kernel.i18n.language()
  const { load, reload } = asLoad(
    useQuery({
      queryKey: custodyKeys.incomingTransfers(),
      queryFn: async () => {
        const client = await custodyClient(kernel)
        return unwrap(await call(kernel, client.custodyTransfers.list({ query: { tg_transfer_status: "new" } })))
      },
      ...FRESH_EACH_VISIT,
    }),
  )
  const [now] = useState(() => new Date())
  return (
    <main className={styles.screen}>
      <h1 className={styles.title}>{t("send.incoming.title")}</h1>
      <List>
        {load.state === "loading" ? (
          <Section>
            <SkeletonList rows={3} label={t("send.incoming.loading")} />
          </Section>
        ) : load.state === "error" ? (
          <Placeholder
            kind="error"
            title={t("send.incoming.error")}
            action={
              <Button look="secondary" size="s" onClick={reload}>
                {t("send.retry")}
              </Button>
            }
          />
        ) : load.value.items.filter((item) => item.role === "receiver").length === 0 ? (
          <Placeholder icon={<Icon name="wallet" size={48} />} title={t("send.incoming.emptyTitle")} description={t("send.incoming.emptyText")} />
        ) : (
          <Section footer={t("send.incoming.footer")}>
            {load.value.items
              .filter((item) => item.role === "receiver")
              .map((item) => {
                const decimals = currencyInfo(item.currency)?.decimals ?? 9
                const left = daysLeft(item.created_at, now)
                return (
                  <Cell
                    key={item.id}
                    before={<Avatar src={item.sender_photo_url ?? undefined} name={item.sender_name} colorSeed={item.sender_id} size={40} />}
                    title={item.sender_name}
                    subtitle={t("send.incoming.expires", { count: left })}
                    after={formatAmount(parseAmount(item.amount, decimals) ?? 0n, decimals, item.currency, language)}
                    chevron
                    onClick={() => void go(transferRoute, { params: { transferId: item.id } })}
                  />
                )
              })}
          </Section>
        )}
      </List>
    </main>
  )
}
