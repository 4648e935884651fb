import { useEffect } from "react"
import { useSearch } from "@tanstack/react-router"
import { useQuery } from "@tanstack/react-query"
import { useGo, useKernel, useT } from "@wallet/kernel-react"
import { Button, Cell, List, Placeholder, Section, SkeletonList } from "@wallet/kernel-react/ui"
import { paymentMethod } from "../domain.ts"
import { createPaymentRoute, newPaymentFiatRoute } from "../routes.ts"
import { keys, loadMethods } from "./client.ts"
import { MakerLoadError, subtitleStyle } from "./makerParts.tsx"
import { pageStyle, titleStyle } from "./marketParts.tsx"

const isFiat = (value: string | undefined): value is string => value !== undefined && /^[A-Z]{3}$/.test(value)

/**
 * /p2p/user/payments/new?fiat= (spec 3 §2.1): the payment methods of a fiat to add details for. Without
 * a fiat it asks for one first; with a method already named it opens that method's form. The steps of
 * adding replace one another, so the form's "back" after saving returns to where adding began.
 */
export default function NewPaymentScreen() {
  const kernel = useKernel()
  const t = useT("p2p")
  const go = useGo()
  const search = useSearch({ strict: false }) as { readonly fiat?: string; readonly code?: string }
  const fiat = isFiat(search.fiat) ? search.fiat : undefined
  const named = search.code !== undefined && fiat !== undefined && paymentMethod(search.code)?.fiats.includes(fiat) === true ? search.code : undefined
  const methods = useQuery({
    queryKey: keys.methods(fiat ?? ""),
    queryFn: () => loadMethods(kernel, fiat!),
    enabled: fiat !== undefined && named === undefined,
  })

  useEffect(() => {
    if (fiat === undefined) void go(newPaymentFiatRoute, { search: search.code === undefined ? {} : { code: search.code as never }, replace: true })
    else if (named !== undefined) void go(createPaymentRoute, { search: { fiat, code: named as never }, replace: true })
  }, [fiat, named, search.code, go])

  const chooseFiat = () => void go(newPaymentFiatRoute, { search: {}, replace: true })
  if (fiat === undefined || named !== undefined || methods.status === "pending") {
    return (
      <main style={pageStyle} aria-busy="true">
        <SkeletonList rows={4} before={false} label={t("maker.loading")} />
      </main>
    )
  }
  return (
    <main style={pageStyle} data-testid="p2p-new-payment" data-fiat={fiat}>
      <h1 style={titleStyle}>{t("payments.new.title")}</h1>
      <p style={subtitleStyle}>{t("payments.new.lead", { fiat })}</p>
      {methods.status === "error" ? (
        <MakerLoadError retry={() => void methods.refetch()} />
      ) : (
        <List>
          <Section>
            <Cell chevron data-testid="p2p-payment-fiat" title={t("payments.new.currency")} after={fiat} onClick={chooseFiat} />
          </Section>
          {methods.data.methods.length === 0 ? (
            <Placeholder
              data-testid="p2p-payment-methods-empty"
              title={t("payments.new.empty", { fiat })}
              action={
                <Button look="secondary" size="s" onClick={chooseFiat}>
                  {t("payments.new.otherCurrency")}
                </Button>
              }
            />
          ) : (
            <Section header={t("payments.new.methods")}>
              {methods.data.methods.map((m) => (
                <Cell
                  key={m.code}
                  chevron
                  data-testid={`p2p-payment-method-${m.code}`}
                  title={t(`methods.${m.code}`, { defaultValue: m.name })}
                  onClick={() => void go(createPaymentRoute, { search: { fiat, code: m.code }, replace: true })}
                />
              ))}
            </Section>
          )}
        </List>
      )}
    </main>
  )
}
