import { useParams, useSearch } from "@tanstack/react-router"
import { useQuery } from "@tanstack/react-query"
import { useGo, useKernel, useT } from "@wallet/kernel-react"
import { Button, Cell, List, Section, SkeletonList } from "@wallet/kernel-react/ui"
import { offerListRoute, offerRoute } from "../routes.ts"
import { errorCode, keys, loadOffer } from "./client.ts"
import { idOf } from "./market.ts"
import { LoadError, NotFound, pageStyle, titleStyle } from "./marketParts.tsx"

/** /p2p/offers/$id/select-payment (spec 3 §2.1): the buyer picks how to pay for a SALE ad, then goes back to it. */
export default function SelectPaymentScreen() {
  const kernel = useKernel()
  const t = useT("p2p")
  const go = useGo()
  const params = useParams({ strict: false }) as { readonly id?: string }
  const search = useSearch({ strict: false }) as { readonly paymentMethodCode?: string }
  const id = idOf(params.id)
  const offer = useQuery({ queryKey: keys.offer(id ?? 0), queryFn: () => loadOffer(kernel, id!), enabled: id !== null })

  const toMarket = (
    <Button look="secondary" size="s" onClick={() => void go(offerListRoute, { params: { type: "SALE" } })}>
      {t("market.toOffers")}
    </Button>
  )
  if (id === null) return <NotFound kind="offer" action={toMarket} />
  return (
    <main style={pageStyle} data-testid="p2p-select-payment">
      <h1 style={titleStyle}>{t("market.selectPayment.title")}</h1>
      <List>
        {offer.status === "pending" ? (
          <SkeletonList rows={3} label={t("market.loading")} />
        ) : offer.status === "error" ? (
          errorCode(offer.error) === "offer_not_found" ? (
            <NotFound kind="offer" action={toMarket} />
          ) : (
            <LoadError retry={() => void offer.refetch()} />
          )
        ) : (
          <Section footer={t("market.selectPayment.footer")}>
            {offer.data.paymentMethods.map((m) => (
              <Cell
                key={m.code}
                data-testid={`p2p-select-method-${m.code}`}
                aria-current={search.paymentMethodCode === m.code ? "true" : undefined}
                title={t(`market.methods.${m.code}`, { defaultValue: m.name })}
                after={search.paymentMethodCode === m.code ? "✓" : undefined}
                onClick={() => void go(offerRoute, { params: { id: String(id) }, search: { paymentMethodCode: m.code }, replace: true })}
              />
            ))}
          </Section>
        )}
      </List>
    </main>
  )
}
