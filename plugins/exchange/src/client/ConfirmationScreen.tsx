import { useEffect, useRef, useState } from "react"
import { useSearch } from "@tanstack/react-router"
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { useAnalytics, useGo, useKernel, useT } from "@wallet/kernel-react"
import { Banner, Button, Cell, List, Placeholder, Section, SkeletonList } from "@wallet/kernel-react/ui"
import type { Quote } from "../api.ts"
import { exchangeConfirmationRoute, exchangeRoute } from "../routes.ts"
import { confirmQuote, errorBody, errorCode, exchangeKeys, loadQuote, requestQuote } from "./api.ts"
import { alertStyle, hintStyle, LoadError, padStyle, pageStyle, RegionSheet, titleStyle, TradingHoursSheet, usePlatform } from "./parts.tsx"
import { errorKey, secondsLeft, shortRate } from "./view.ts"

interface Search {
  readonly uid?: string
  readonly successRedirect?: string
  readonly successButtonI18nKey?: string
}

/** The request a quote answered, to price it again. */
const requestOf = (quote: Quote, platform: string) => ({
  payCurrency: quote.payCurrency as never,
  receiveCurrency: quote.receiveCurrency as never,
  exchangeMode: quote.exchangeMode,
  amount: quote.exchangeMode === "pay" ? quote.payAmount : quote.receiveAmount,
  platform,
})

/**
 * /exchange/confirmation (uid): the quote's figures and a countdown of its validity (by the server's
 * clock); when it runs out, or the server answers quote_expired, the new price replaces it with "the
 * price was updated" and is confirmed in its turn. Confirm executes it once and returns to /exchange
 * with the success sheet.
 */
export default function ConfirmationScreen() {
  const kernel = useKernel()
  const analytics = useAnalytics()
  const t = useT("exchange")
  const go = useGo()
  const queries = useQueryClient()
  const platform = usePlatform()
  const search = useSearch({ strict: false }) as Search
  const uid = search.uid ?? ""

  const loaded = useQuery({
    queryKey: exchangeKeys.byUid(uid),
    queryFn: () => loadQuote(kernel, uid),
    enabled: uid !== "",
    staleTime: Number.POSITIVE_INFINITY,
  })
  // The quote as it arrived here: the countdown runs from when (the query's update time), by the server's clock.
  const [now, setNow] = useState(() => Date.now())
  const [updatedUid, setUpdatedUid] = useState<string | null>(null)
  const [sheet, setSheet] = useState<"none" | "trading" | "region">("none")
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1_000)
    return () => clearInterval(timer)
  }, [])

  const quote = loaded.data
  const left = quote === undefined ? 0 : secondsLeft(quote, loaded.dataUpdatedAt, now)
  const expired = quote !== undefined && (quote.status === "EXPIRED" || (quote.status === "OPEN" && left === 0))

  const replace = (fresh: Quote) => {
    queries.setQueryData(exchangeKeys.byUid(fresh.uid), fresh)
    setUpdatedUid(fresh.uid)
    void go(exchangeConfirmationRoute, { search: { ...search, uid: fresh.uid }, replace: true })
  }
  const requote = useMutation({ mutationFn: (old: Quote) => requestQuote(kernel, requestOf(old, platform)), onSuccess: replace })
  // Once per expired quote: its uid is remembered, so a re-render does not price it again.
  const requoted = useRef<string | null>(null)
  const { mutate: requoteMutate } = requote
  useEffect(() => {
    if (expired && quote !== undefined && requoted.current !== quote.uid) {
      requoted.current = quote.uid
      requoteMutate(quote)
    }
  }, [expired, quote, requoteMutate])

  const confirm = useMutation({
    mutationFn: (q: Quote) => confirmQuote(kernel, q.uid, platform),
    onSuccess: async (done) => {
      analytics.track("exchange.confirmed", { pay: done.quote.payCurrency, receive: done.quote.receiveCurrency, mode: done.quote.exchangeMode })
      queries.setQueryData(exchangeKeys.byUid(done.quote.uid), done.quote)
      void queries.invalidateQueries({ queryKey: exchangeKeys.balances })
      void queries.invalidateQueries({ queryKey: ["custody"] })
      await go(exchangeRoute, {
        search: {
          payCurrency: done.quote.payCurrency,
          receiveCurrency: done.quote.receiveCurrency,
          confirmExchangeUid: done.quote.uid,
          showSuccessBottomsheet: true,
          ...(search.successRedirect !== undefined ? { successRedirect: search.successRedirect } : {}),
          ...(search.successButtonI18nKey !== undefined ? { successButtonI18nKey: search.successButtonI18nKey } : {}),
        },
        replace: true,
      })
    },
    onError: (error) => {
      const code = errorCode(error)
      analytics.track("exchange.refused", { code: code ?? "unknown" })
      const fresh = errorBody(error).fresh as Quote | undefined
      if (code === "quote_expired" && fresh !== undefined) replace(fresh)
      if (code === "trading_closed") setSheet("trading")
      if (code === "region_restricted") setSheet("region")
    },
  })

  if (uid === "" || (loaded.isError && errorCode(loaded.error) === "quote_not_found")) {
    return (
      <main style={pageStyle}>
        <Placeholder
          title={t("confirm.notFound")}
          action={
            <Button look="secondary" size="s" onClick={() => void go(exchangeRoute, { search: {} })}>
              {t("confirm.back")}
            </Button>
          }
        />
      </main>
    )
  }
  if (loaded.isError) {
    return (
      <main style={pageStyle}>
        <LoadError retry={() => void loaded.refetch()} />
      </main>
    )
  }
  if (quote === undefined) {
    return (
      <main style={pageStyle}>
        <SkeletonList rows={4} label={t("loading")} />
      </main>
    )
  }

  const code = confirm.isError ? errorCode(confirm.error) : undefined
  const failure = code !== undefined && code !== "quote_expired" && code !== "region_restricted" ? t(errorKey(code)) : undefined
  return (
    <main style={pageStyle} data-testid="exchange-confirmation" data-uid={quote.uid}>
      <h1 style={titleStyle}>{t("confirm.title")}</h1>
      {updatedUid === quote.uid && (
        <div style={{ padding: "0 16px 8px" }}>
          <Banner tone="warning" data-testid="exchange-price-updated" title={t("confirm.updated")} description={t("confirm.updatedText")} />
        </div>
      )}
      <List>
        <Section>
          <Cell title={t("youPay")} after={<span data-testid="exchange-confirm-pay">{`${quote.payAmount} ${quote.payCurrency}`}</span>} />
          <Cell title={t("youReceive")} after={<span data-testid="exchange-confirm-receive">{`${quote.receiveAmount} ${quote.receiveCurrency}`}</span>} />
          <Cell title={t("rate")} after={<span>{`1 ${quote.payCurrency} ≈ ${shortRate(quote.rate)} ${quote.receiveCurrency}`}</span>} />
          <Cell title={t("fee")} after={<span data-testid="exchange-confirm-fee">{`${quote.fee} ${quote.payCurrency}`}</span>} />
        </Section>
      </List>
      <div style={padStyle}>
        <p style={{ ...hintStyle, margin: 0 }} data-testid="exchange-countdown" data-seconds={left} aria-live="off">
          {expired || requote.isPending ? t("confirm.refreshing") : t("confirm.validFor", { count: left })}
        </p>
        {quote.sandbox && <span style={hintStyle}>{t("sandbox")}</span>}
        {failure !== undefined && (
          <span role="alert" style={alertStyle} data-testid="exchange-confirm-error" data-code={code}>
            {failure}
          </span>
        )}
        {requote.isError && (
          <span role="alert" style={alertStyle} data-testid="exchange-requote-error">
            {t(errorKey(errorCode(requote.error)))}
          </span>
        )}
        <Button
          look="confirm"
          size="l"
          stretched
          data-testid="exchange-confirm"
          disabled={expired || requote.isPending || quote.insufficientBalance}
          loading={confirm.isPending}
          loadingLabel={t("confirm.confirming")}
          onClick={() => confirm.mutate(quote)}
        >
          {t("confirm.button")}
        </Button>
        {quote.insufficientBalance && (
          <span role="alert" style={alertStyle}>
            {t("error.insufficient_balance")}
          </span>
        )}
      </div>
      <TradingHoursSheet
        open={sheet === "trading"}
        nextOpening={errorString(confirm.error, "nextOpening") ?? quote.serverTime}
        onClose={() => setSheet("none")}
      />
      <RegionSheet open={sheet === "region"} onClose={() => setSheet("none")} />
    </main>
  )
}

const errorString = (error: unknown, field: string): string | undefined => {
  const value = error === null || error === undefined ? undefined : errorBody(error)[field]
  return typeof value === "string" ? value : undefined
}
