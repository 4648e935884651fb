/** The provider step of a purchase or a sale: the estimate per provider, then the signed widget opens. */
import { useState } from "react"
import { useQuery } from "@tanstack/react-query"
import { useGo, useKernel, useT } from "@wallet/kernel-react"
import { Cell, List, Placeholder, Section } from "@wallet/kernel-react/ui"
import type { Started } from "../api.ts"
import { trxStatusRoute } from "../routes.ts"
import { errorBody, errorCode, rampKeys, requestQuote, returnUrlOf, startBuy, startSell } from "./api.ts"
import { alertStyle, hintStyle, LoadError, Loading, NS, Page, PROVIDER_NAMES } from "./parts.tsx"
import { errorKey, type Payload } from "./view.ts"

export function ProviderList({ payload }: { readonly payload: Payload | undefined }) {
  const kernel = useKernel()
  const t = useT(NS)
  const go = useGo()
  const [busy, setBusy] = useState<string | undefined>(undefined)
  const [failure, setFailure] = useState<{ code: string | undefined; limit: string | undefined } | undefined>(undefined)
  const request =
    payload === undefined
      ? undefined
      : {
          direction: payload.direction,
          currency: payload.currency,
          network: payload.network,
          fiatCurrency: payload.fiatCurrency,
          amount: payload.amount,
          inputMode: payload.inputMode,
        }
  const quote = useQuery({ queryKey: rampKeys.quote(request!), queryFn: () => requestQuote(kernel, request!), enabled: request !== undefined, retry: false })
  const title = t("provider.title")
  if (payload === undefined)
    return (
      <Page title={title}>
        <Placeholder kind="error" title={t("invalidLink")} />
      </Page>
    )
  if (quote.isPending)
    return (
      <Page title={title}>
        <Loading label={t("loading")} />
      </Page>
    )
  if (quote.isError) {
    const code = errorCode(quote.error)
    return (
      <Page title={title}>
        {code !== undefined ? (
          <Placeholder kind="error" title={t(errorKey(code), { limit: String(errorBody(quote.error).limit ?? ""), fiat: payload.fiatCurrency })} />
        ) : (
          <LoadError onRetry={() => void quote.refetch()} />
        )}
      </Page>
    )
  }
  const start = async (provider: "moonpay" | "mercuryo") => {
    setBusy(provider)
    setFailure(undefined)
    try {
      const returnUrl = returnUrlOf()
      const base = {
        provider,
        currency: payload.currency,
        network: payload.network,
        fiatCurrency: payload.fiatCurrency,
        amount: payload.amount,
        ...(returnUrl ? { returnUrl } : {}),
      }
      const started: Started =
        payload.direction === "buy"
          ? await startBuy(kernel, { ...base, inputMode: payload.inputMode, paymentMethod: payload.paymentMethod ?? "card" })
          : await startSell(kernel, base)
      kernel.telegram.openLink(started.widgetUrl)
      const tx = started.transaction
      await go(trxStatusRoute, {
        search: { external_transaction_id: tx.id, direction: tx.direction, amount: tx.cryptoAmount ?? payload.amount, currency: tx.currency },
      })
    } catch (error) {
      const body = errorBody(error)
      setFailure({ code: errorCode(error), limit: typeof body.limit === "string" ? body.limit : undefined })
    } finally {
      setBusy(undefined)
    }
  }
  return (
    <Page title={title}>
      <List>
        {quote.data.offers.length === 0 ? (
          <Placeholder title={t("provider.none")} />
        ) : (
          <Section header={t("provider.choose")} footer={quote.data.estimated ? t("provider.estimated") : undefined}>
            {quote.data.offers.map((offer) => (
              <Cell
                key={offer.provider}
                chevron={offer.refusal === null}
                disabled={offer.refusal !== null || busy !== undefined}
                aria-busy={busy === offer.provider}
                data-testid={`ramp-provider-${offer.provider}`}
                title={PROVIDER_NAMES[offer.provider]}
                subtitle={
                  offer.refusal === null
                    ? t(payload.direction === "buy" ? "provider.buyLine" : "provider.sellLine", {
                        crypto: offer.cryptoAmount,
                        currency: payload.currency,
                        fiat: offer.fiatAmount,
                        fiatCurrency: payload.fiatCurrency,
                      })
                    : t(offer.refusal === "amount_too_small" ? "errors.amount_too_small" : "errors.amount_too_large", {
                        limit: offer.refusal === "amount_too_small" ? offer.fiatMin : offer.fiatMax,
                        fiat: payload.fiatCurrency,
                      })
                }
                after={busy === offer.provider ? t("provider.opening") : undefined}
                onClick={() => void start(offer.provider)}
              />
            ))}
          </Section>
        )}
      </List>
      {failure !== undefined && (
        <p role="alert" style={alertStyle}>
          {t(errorKey(failure.code), { limit: failure.limit ?? "", fiat: payload.fiatCurrency })}
        </p>
      )}
      <p style={hintStyle}>{t("provider.hint")}</p>
    </Page>
  )
}
