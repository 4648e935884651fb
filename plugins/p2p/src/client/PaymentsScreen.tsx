import { useQuery } from "@tanstack/react-query"
import { useGo, useKernel, useT } from "@wallet/kernel-react"
import { Button, Cell, List, Placeholder, Section, SkeletonList } from "@wallet/kernel-react/ui"
import { editPaymentRoute, newPaymentRoute } from "../routes.ts"
import { keys, loadPayments } from "./client.ts"
import { groupByFiat, mainFieldText } from "./maker.ts"
import { MakerLoadError, subtitleStyle } from "./makerParts.tsx"
import { padStyle, pageStyle, titleStyle } from "./marketParts.tsx"

/** /p2p/user/payments (spec 3 §2.1): the user's payment details by fiat; a tap edits, the button adds. */
export default function PaymentsScreen() {
  const kernel = useKernel()
  const t = useT("p2p")
  const go = useGo()
  const payments = useQuery({ queryKey: keys.payments, queryFn: () => loadPayments(kernel) })
  const add = () => void go(newPaymentRoute, { search: {} })

  const addButton = (
    <div style={padStyle}>
      <Button look="primary" size="l" stretched data-testid="p2p-payment-add" onClick={add}>
        {t("payments.add")}
      </Button>
    </div>
  )

  return (
    <main style={pageStyle} data-testid="p2p-payments">
      <h1 style={titleStyle}>{t("payments.title")}</h1>
      <p style={subtitleStyle}>{t("payments.lead")}</p>
      {payments.status === "pending" ? (
        <List>
          <SkeletonList rows={4} before={false} label={t("maker.loading")} />
        </List>
      ) : payments.status === "error" ? (
        <MakerLoadError retry={() => void payments.refetch()} />
      ) : payments.data.length === 0 ? (
        <>
          <Placeholder data-testid="p2p-payments-empty" title={t("payments.empty")} description={t("payments.emptyNote")} />
          {addButton}
        </>
      ) : (
        <>
          <List>
            {groupByFiat(payments.data).map((group) => (
              <Section key={group.fiat} header={group.fiat} data-testid={`p2p-payments-${group.fiat}`}>
                {group.items.map((d) => (
                  <Cell
                    key={d.id}
                    chevron
                    data-testid={`p2p-payment-${d.id}`}
                    title={t(`methods.${d.paymentMethod.code}`, { defaultValue: d.paymentMethod.name })}
                    subtitle={mainFieldText(d)}
                    onClick={() => void go(editPaymentRoute, { params: { id: String(d.id) } })}
                  />
                ))}
              </Section>
            ))}
          </List>
          {addButton}
        </>
      )}
    </main>
  )
}
