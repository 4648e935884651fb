import { useEffect, useId, useState } from "react"
import { useParams, useSearch } from "@tanstack/react-router"
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { HttpError } from "@wallet/kernel"
import { useAnalytics, useGo, useKernel, useT } from "@wallet/kernel-react"
import {
  AmountInput,
  Avatar,
  Banner,
  Button,
  Cell,
  List,
  minorUnitsToAmount,
  Placeholder,
  Section,
  SegmentedControl,
  SkeletonList,
} from "@wallet/kernel-react/ui"
import type { ExpressMatch, ExpressRequest, P2pSettings } from "../api.ts"
import { avatarColorIndex, cryptoDecimals, FIAT_DECIMALS, unavailableWhyOf, type OfferType } from "../domain.ts"
import { EXPRESS_PAIRS_STALE_MS, expressAmountProblem, operationOfSide, sideOfOperation, type ExpressCalculationType, type ExpressLimits } from "../express.ts"
import { expressOnboardingRoute, expressOperationRoute, newPaymentRoute, offerListRoute, orderRoute, p2pUnavailableRoute } from "../routes.ts"
import { errorCode, errorField, keys, loadSettings, loadUser, STALE, updateSettings } from "./client.ts"
import { createExpressRequest, expressKeys, loadExpressCurrent, loadExpressLimits, loadExpressPairs, loadExpressQuote } from "./expressApi.ts"
import {
  amountUnit,
  cryptosOf,
  currentPollMs,
  expressErrorKey,
  fiatsFor,
  isOpenRequest,
  needsOnboarding,
  onboardingSeen,
  pickPair,
  type Pair,
} from "./expressView.ts"
import { formatCrypto, formatFiat, newIdempotencyKey, parseMinor } from "./market.ts"
import { fieldBoxStyle, labelStyle, selectStyle } from "./makerParts.tsx"
import { alertStyle, Chip, chipRowStyle, LoadError, padStyle, pageStyle, RadioRow, titleStyle } from "./marketParts.tsx"

/** The value after it stopped changing for `ms` (the quote follows the typing without a call per key). */
function useSettled<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value)
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms)
    return () => clearTimeout(timer)
  }, [value, ms])
  return settled
}

const hintStyle = { color: "var(--wk-color-hint)", fontSize: 14 } as const

/** A definite refusal (the server answered 4xx): the next confirm is a new request; a lost answer retries the same one. */
const refused = (error: unknown) => !(error instanceof HttpError) || (error.status !== undefined && error.status < 500)

/** The user's current request (spec 3 §7.1): the order it became and its status; opens the order. */
function CurrentRequest({ request }: { readonly request: ExpressRequest }) {
  const t = useT("p2p")
  const go = useGo()
  const locale = useKernel().i18n.language()
  const order = request.order
  const buying = request.side === "PURCHASE"
  const amount =
    order !== null
      ? formatCrypto(order.amount, order.crypto)
      : request.calculationType === "BY_FIAT"
        ? formatFiat(request.amount, request.fiat, locale)
        : formatCrypto(request.amount, request.crypto)
  return (
    <Section header={t(isOpenRequest(request) ? "express.current.header" : "express.current.headerDone")}>
      <Cell
        data-testid="p2p-express-current"
        data-status={request.status}
        data-order-status={order?.status ?? ""}
        title={t(buying ? "express.current.buying" : "express.current.selling", { amount })}
        subtitle={order === null ? t(`express.current.status.${request.status}`) : t(`order.status.${order.status}`)}
        chevron={order !== null}
        onClick={order === null ? undefined : () => void go(orderRoute, { params: { id: String(order.id) }, search: { openedFrom: "p2p" } })}
      />
    </Section>
  )
}

/** The matched offer: who, at what price, what the user pays and gets, and how. */
function MatchPreview({ match, method, onMethod }: { readonly match: ExpressMatch; readonly method: string; readonly onMethod: (code: string) => void }) {
  const t = useT("p2p")
  const locale = useKernel().i18n.language()
  const buying = match.side === "PURCHASE"
  const merchant = match.merchant
  const fee = buying ? BigInt(match.buyerFee) : BigInt(match.sellerFee)
  return (
    <Section
      header={t("express.match.header")}
      footer={t(match.autoAccept ? "express.match.autoAccept" : "express.match.manualAccept", { count: match.paymentWindowMinutes })}
    >
      <div data-testid="p2p-express-match" data-offer-id={match.offerId}>
        <Cell
          data-testid="p2p-express-merchant"
          before={<Avatar name={merchant.name} colorSeed={avatarColorIndex(merchant.userId)} size={40} />}
          title={merchant.name}
          subtitle={
            merchant.completionRate === null
              ? t("express.match.noRecord", { count: merchant.completedOrders })
              : t("express.match.record", { count: merchant.completedOrders, rate: merchant.completionRate })
          }
        />
        <Cell title={t("express.match.price")} after={<span data-testid="p2p-express-price">{formatFiat(match.priceCents, match.fiat, locale)}</span>} />
        {buying ? (
          <>
            <Cell title={t("express.match.youPay")} after={<span data-testid="p2p-express-pay">{formatFiat(match.fiatAmount, match.fiat, locale)}</span>} />
            <Cell
              title={t("express.match.youReceive")}
              after={<span data-testid="p2p-express-receive">{formatCrypto(match.buyerReceives, match.crypto)}</span>}
            />
          </>
        ) : (
          <>
            <Cell title={t("express.match.youSell")} after={<span data-testid="p2p-express-pay">{formatCrypto(match.amount, match.crypto)}</span>} />
            <Cell
              multiline
              title={t("express.match.held")}
              description={t("express.match.heldNote")}
              after={<span data-testid="p2p-express-hold">{formatCrypto(match.hold, match.crypto)}</span>}
            />
            <Cell
              title={t("express.match.youReceive")}
              after={<span data-testid="p2p-express-receive">{formatFiat(match.fiatAmount, match.fiat, locale)}</span>}
            />
          </>
        )}
        {fee > 0n && <Cell title={t("express.match.fee")} after={<span data-testid="p2p-express-fee">{formatCrypto(fee, match.crypto)}</span>} />}
        {match.paymentMethods.length > 1 ? (
          <div role="radiogroup" aria-label={t(buying ? "express.match.payWith" : "express.match.paidTo")}>
            <p style={{ ...hintStyle, margin: "8px 16px 0" }}>{t(buying ? "express.match.payWith" : "express.match.paidTo")}</p>
            {match.paymentMethods.map((m) => (
              <RadioRow
                key={m.code}
                name={`p2p-express-method-${match.offerId}`}
                checked={method === m.code}
                onChange={() => onMethod(m.code)}
                label={t(`market.methods.${m.code}`, { defaultValue: m.name })}
                testId={`p2p-express-method-${m.code}`}
              />
            ))}
          </div>
        ) : (
          <Cell
            title={t(buying ? "express.match.payWith" : "express.match.paidTo")}
            after={<span data-testid="p2p-express-method">{t(`market.methods.${match.paymentMethod.code}`, { defaultValue: match.paymentMethod.name })}</span>}
          />
        )}
      </div>
    </Section>
  )
}

/** The amount, the limits, the best offer for it, and the confirm (one pair). */
function PairForm({
  side,
  pair,
  pairs,
  settings,
  blocked,
  expressOnly,
}: {
  readonly side: OfferType
  readonly pair: Pair
  readonly pairs: ReadonlyArray<Pair>
  readonly settings: P2pSettings
  readonly blocked: boolean
  readonly expressOnly: boolean
}) {
  const kernel = useKernel()
  const t = useT("p2p")
  const go = useGo()
  const analytics = useAnalytics()
  const queryClient = useQueryClient()
  const locale = kernel.i18n.language()
  const fiatId = useId()
  const buying = side === "PURCHASE"
  const operation = operationOfSide(side)
  const decimals = cryptoDecimals(pair.crypto) ?? 0

  const [calculation, setCalculation] = useState<ExpressCalculationType>(settings.expressCalculationType)
  const [text, setText] = useState("")
  const [method, setMethod] = useState<string | undefined>()
  const [idempotencyKey, setIdempotencyKey] = useState(newIdempotencyKey)
  const unitDecimals = amountUnit(calculation) === "fiat" ? FIAT_DECIMALS : decimals
  const typed = parseMinor(text, unitDecimals)

  const limits = useQuery({
    queryKey: expressKeys.limits(side, pair.crypto, pair.fiat),
    queryFn: () => loadExpressLimits(kernel, { offerType: side, baseCurrencyCode: pair.crypto, quoteCurrencyCode: pair.fiat }),
    staleTime: EXPRESS_PAIRS_STALE_MS,
  })
  const range: ExpressLimits | null =
    limits.data?.limits === undefined || limits.data.limits === null
      ? null
      : {
          minFiat: BigInt(limits.data.limits.minFiat),
          maxFiat: BigInt(limits.data.limits.maxFiat),
          minAmount: BigInt(limits.data.limits.minAmount),
          maxAmount: BigInt(limits.data.limits.maxAmount),
        }
  const problem = range === null ? null : expressAmountProblem(typed, calculation, range)
  const request =
    typed !== null && typed > 0n
      ? { offerType: side, baseCurrencyCode: pair.crypto, quoteCurrencyCode: pair.fiat, calculationType: calculation, amount: typed.toString() }
      : null
  // Compared as text: a new object each render would restart the wait for ever.
  const requestText = request === null ? null : JSON.stringify(request)
  const settledText = useSettled(requestText, 400)
  const settled: typeof request = settledText === null ? null : JSON.parse(settledText)
  const current = settledText !== null && settledText === requestText
  const quote = useQuery({
    queryKey: expressKeys.quote(
      settled ?? { offerType: side, baseCurrencyCode: pair.crypto, quoteCurrencyCode: pair.fiat, calculationType: calculation, amount: "0" },
    ),
    queryFn: () => loadExpressQuote(kernel, settled!),
    enabled: settled !== null && problem === null && range !== null,
    placeholderData: keepPreviousData,
    staleTime: 10_000,
    retry: false,
  })
  const match = current && problem === null && !quote.isPlaceholderData ? quote.data?.match : undefined
  const chosen =
    match === undefined ? undefined : method !== undefined && match.paymentMethods.some((m) => m.code === method) ? method : match.paymentMethod.code

  const saveCalculation = useMutation({
    mutationFn: (next: ExpressCalculationType) => updateSettings(kernel, { expressCalculationType: next }),
    onSuccess: (next) => queryClient.setQueryData(keys.settings, next),
  })
  const switchUnit = (next: ExpressCalculationType) => {
    if (next === calculation) return
    // Keep the amount the user meant: the matched order's crypto or fiat.
    const shown = quote.data?.match
    if (shown !== undefined && current)
      setText(minorUnitsToAmount(BigInt(next === "BY_FIAT" ? shown.fiatAmount : shown.amount), next === "BY_FIAT" ? FIAT_DECIMALS : decimals))
    else setText("")
    setCalculation(next)
    saveCalculation.mutate(next)
  }

  const create = useMutation({
    mutationFn: (seen: ExpressMatch) =>
      createExpressRequest(kernel, {
        ...request!,
        priceCents: seen.priceCents,
        ...(chosen === undefined ? {} : { paymentMethodCode: chosen as never }),
        idempotencyKey,
      }),
    onSuccess: async (made) => {
      setIdempotencyKey(newIdempotencyKey())
      queryClient.setQueryData(expressKeys.current, { request: made })
      void queryClient.invalidateQueries({ queryKey: keys.active })
      void queryClient.invalidateQueries({ queryKey: ["p2p", "history"] })
      void queryClient.invalidateQueries({ queryKey: keys.user })
      void queryClient.invalidateQueries({ queryKey: expressKeys.limits(side, pair.crypto, pair.fiat) })
      if (made.order !== null) {
        queryClient.setQueryData(keys.order(made.order.id), made.order)
        analytics.track("p2p.express_order_created", { side, crypto: pair.crypto, fiat: pair.fiat, calculationType: calculation })
        await go(orderRoute, { params: { id: String(made.order.id) }, search: { openedFrom: "p2p" } })
      }
    },
    onError: (error) => {
      if (refused(error)) setIdempotencyKey(newIdempotencyKey())
      const code = errorCode(error)
      if (code === "price_moved") void queryClient.invalidateQueries({ queryKey: ["p2p", "express", "quote"] })
      if (code === "express_request_open") void queryClient.invalidateQueries({ queryKey: expressKeys.current })
      if (code === "p2p_unavailable") void go(p2pUnavailableRoute, { search: { why: unavailableWhyOf(errorField(error, "why")) }, replace: true })
    },
  })

  const choosePair = (crypto: string, fiat?: string) => {
    const fiats = fiatsFor(pairs, crypto)
    const next = fiat !== undefined && fiats.includes(fiat) ? fiat : fiats.includes(pair.fiat) ? pair.fiat : fiats[0]
    void go(expressOperationRoute, { params: { operation }, search: { crypto, fiatCurrency: next }, replace: true })
  }

  const unit = amountUnit(calculation) === "fiat" ? pair.fiat : pair.crypto
  const formatUnit = (value: bigint) => (amountUnit(calculation) === "fiat" ? formatFiat(value, pair.fiat, locale) : formatCrypto(value, pair.crypto))
  const [min, max] = range === null ? [null, null] : calculation === "BY_FIAT" ? [range.minFiat, range.maxFiat] : [range.minAmount, range.maxAmount]
  const problemText =
    problem === "belowMin" && min !== null
      ? t("express.amount.belowMin", { min: formatUnit(min) })
      : problem === "aboveMax" && max !== null
        ? t("express.amount.aboveMax", { max: formatUnit(max) })
        : null
  const quoteError = current && quote.isError ? errorCode(quote.error) : undefined
  const createError = create.isError && errorCode(create.error) !== "p2p_unavailable" ? errorCode(create.error) : undefined
  const failed = create.data !== undefined && create.data.status === "FAILED" ? (create.data.failure ?? "generic") : undefined

  return (
    <>
      <List>
        <Section header={t("express.pair.header")}>
          <div style={chipRowStyle} role="group" aria-label={t("express.pair.crypto")}>
            {cryptosOf(pairs).map((code) => (
              <Chip key={code} pressed={pair.crypto === code} onClick={() => choosePair(code)} testId={`p2p-express-crypto-${code}`}>
                {code}
              </Chip>
            ))}
          </div>
          <div style={fieldBoxStyle}>
            <label htmlFor={fiatId} style={labelStyle}>
              {t("express.pair.fiat")}
            </label>
            <select
              id={fiatId}
              data-testid="p2p-express-fiat"
              style={selectStyle}
              value={pair.fiat}
              onChange={(event) => choosePair(pair.crypto, event.currentTarget.value)}
            >
              {fiatsFor(pairs, pair.crypto).map((code) => (
                <option key={code} value={code}>
                  {code}
                </option>
              ))}
            </select>
          </div>
        </Section>
        <Section header={t(buying ? "express.amount.headerBuy" : "express.amount.headerSell")}>
          <div style={{ padding: "8px 16px", display: "flex", flexDirection: "column", gap: 8 }}>
            <SegmentedControl
              aria-label={t("express.amount.unit")}
              stretched
              items={[
                { value: "BY_FIAT" as const, label: pair.fiat },
                { value: "BY_AMOUNT" as const, label: pair.crypto },
              ]}
              value={calculation}
              onChange={switchUnit}
            />
            <AmountInput
              aria-label={t("express.amount.label", { currency: unit })}
              aria-describedby="p2p-express-limits"
              data-testid="p2p-express-amount"
              value={text}
              onChange={(value) => {
                setText(value)
                create.reset()
              }}
              decimals={unitDecimals}
              currency={unit}
              size="l"
              invalid={problemText !== null}
            />
            <span id="p2p-express-limits" style={hintStyle} data-testid="p2p-express-limits">
              {limits.status === "pending"
                ? t("express.loading")
                : limits.status === "error"
                  ? t("express.amount.limitsError")
                  : min === null || max === null
                    ? t("express.amount.noLimits")
                    : t("express.amount.limits", { min: formatUnit(min), max: formatUnit(max) })}
            </span>
            {problemText !== null && (
              <span role="alert" data-testid="p2p-express-problem" style={{ color: "var(--wk-color-destructive)", fontSize: 14 }}>
                {problemText}
              </span>
            )}
          </div>
        </Section>
        {match !== undefined ? (
          <MatchPreview match={match} method={chosen!} onMethod={setMethod} />
        ) : request !== null && problem === null && range !== null && !quoteError ? (
          <Section header={t("express.match.header")}>
            <SkeletonList rows={3} before={false} label={t("express.match.searching")} />
          </Section>
        ) : null}
      </List>
      {limits.status === "error" && <LoadError retry={() => void limits.refetch()} />}
      {quoteError !== undefined && (
        <div style={{ padding: "0 16px 8px" }}>
          <Banner
            tone="warning"
            data-testid="p2p-express-no-match"
            title={t(expressErrorKey(quoteError))}
            action={
              quoteError === "express_no_payment_details" ? (
                <Button
                  look="secondary"
                  size="s"
                  data-testid="p2p-express-add-details"
                  onClick={() => void go(newPaymentRoute, { search: { fiat: pair.fiat } })}
                >
                  {t("express.addDetails")}
                </Button>
              ) : undefined
            }
          />
        </div>
      )}
      {(createError !== undefined || failed !== undefined) && (
        <p role="alert" data-testid="p2p-express-error" style={alertStyle}>
          {t(expressErrorKey(createError ?? failed))}
        </p>
      )}
      {blocked && (
        <p style={{ ...hintStyle, margin: "8px 16px" }} data-testid="p2p-express-blocked">
          {t("express.current.finishFirst")}
        </p>
      )}
      <div style={padStyle}>
        <Button
          look={buying ? "confirm" : "destructive"}
          size="l"
          stretched
          data-testid="p2p-express-confirm"
          disabled={match === undefined || blocked}
          loading={create.isPending}
          loadingLabel={t("express.creating")}
          onClick={() => match !== undefined && create.mutate(match)}
        >
          {match === undefined
            ? t(buying ? "express.confirm.buyPlain" : "express.confirm.sellPlain", { crypto: pair.crypto })
            : t(buying ? "express.confirm.buy" : "express.confirm.sell", { amount: formatCrypto(match.amount, match.crypto) })}
        </Button>
        {match !== undefined && buying && <p style={{ ...hintStyle, margin: 0, textAlign: "center" }}>{t("express.confirm.note")}</p>}
        {!expressOnly && (
          <Button
            look="plain"
            stretched
            data-testid="p2p-express-market"
            onClick={() =>
              void go(offerListRoute, { params: { type: buying ? "SALE" : "PURCHASE" }, search: { crypto: pair.crypto, fiatCurrency: pair.fiat } })
            }
          >
            {t("express.allOffers")}
          </Button>
        )}
      </div>
    </>
  )
}

/**
 * /p2p/express and /p2p/express/$operation (spec 3 §2.1, §7.1; issue 21): Buy or Sell, a pair from the
 * pairs other users' offers make, an amount within the limits, the best offer for it, and a confirm that
 * places the order and opens it. The user's current request shows on top (polled every 5 s while open).
 * The onboarding comes first until hidden; a user the market is closed to goes to the unavailable screen.
 */
export default function ExpressScreen() {
  const kernel = useKernel()
  const t = useT("p2p")
  const go = useGo()
  const params = useParams({ strict: false }) as { readonly operation?: string }
  const search = useSearch({ strict: false }) as { readonly crypto?: string; readonly fiatCurrency?: string }
  const side = sideOfOperation(params.operation)
  const operation = operationOfSide(side)

  const user = useQuery({ queryKey: keys.user, queryFn: () => loadUser(kernel), staleTime: STALE.user })
  const settings = useQuery({ queryKey: keys.settings, queryFn: () => loadSettings(kernel) })
  const why = user.data?.unavailable ?? null
  const onboarding =
    user.data !== undefined &&
    settings.data !== undefined &&
    needsOnboarding({ initialized: user.data.p2pInitialized, hidden: settings.data.expressOnboardingHidden === true, seenThisSession: onboardingSeen() })
  useEffect(() => {
    if (why !== null) void go(p2pUnavailableRoute, { search: { why }, replace: true })
    else if (onboarding) void go(expressOnboardingRoute, { search: { crypto: search.crypto, fiatCurrency: search.fiatCurrency, operation }, replace: true })
  }, [why, onboarding, go, search.crypto, search.fiatCurrency, operation])

  const ready = user.data !== undefined && why === null && settings.data !== undefined && !onboarding
  const pairs = useQuery({
    queryKey: expressKeys.pairs(side),
    queryFn: () => loadExpressPairs(kernel, side),
    staleTime: EXPRESS_PAIRS_STALE_MS,
    gcTime: EXPRESS_PAIRS_STALE_MS,
    enabled: ready,
  })
  const current = useQuery({
    queryKey: expressKeys.current,
    queryFn: () => loadExpressCurrent(kernel),
    enabled: ready,
    refetchInterval: (query) => currentPollMs(query.state.data?.request),
  })

  if (!ready) {
    if (user.status === "error" || settings.status === "error") {
      return (
        <main style={pageStyle}>
          <LoadError
            retry={() => {
              void user.refetch()
              void settings.refetch()
            }}
          />
        </main>
      )
    }
    return (
      <main style={pageStyle}>
        <SkeletonList rows={4} label={t("express.loading")} />
      </main>
    )
  }

  const request = current.data?.request ?? null
  const pair =
    pairs.data === undefined
      ? null
      : pickPair(pairs.data.pairs, { crypto: search.crypto, fiat: search.fiatCurrency }, [...settings.data.recentFiats, kernel.user()?.localCurrency])
  const setSide = (next: OfferType) => void go(expressOperationRoute, { params: { operation: operationOfSide(next) }, search, replace: true })

  return (
    <main style={pageStyle} data-testid="p2p-express" data-side={side}>
      <h1 style={titleStyle}>{t("express.title")}</h1>
      <div style={{ padding: "0 16px 12px" }}>
        <SegmentedControl
          aria-label={t("express.side")}
          stretched
          items={[
            { value: "PURCHASE" as const, label: t("express.buy") },
            { value: "SALE" as const, label: t("express.sell") },
          ]}
          value={side}
          onChange={setSide}
        />
      </div>
      {request !== null && (
        <List>
          <CurrentRequest request={request} />
        </List>
      )}
      {pairs.status === "pending" ? (
        <SkeletonList rows={4} label={t("express.loading")} />
      ) : pairs.status === "error" ? (
        <LoadError retry={() => void pairs.refetch()} />
      ) : pair === null ? (
        <Placeholder
          data-testid="p2p-express-empty"
          title={t(side === "PURCHASE" ? "express.empty.buy" : "express.empty.sell")}
          description={t("express.empty.text")}
          action={
            user.data.expressOnly === true ? undefined : (
              <Button look="secondary" size="s" onClick={() => void go(offerListRoute, { params: { type: side === "PURCHASE" ? "SALE" : "PURCHASE" } })}>
                {t("express.allOffers")}
              </Button>
            )
          }
        />
      ) : (
        <PairForm
          key={`${side}-${pair.crypto}-${pair.fiat}`}
          side={side}
          pair={pair}
          pairs={pairs.data.pairs}
          settings={settings.data}
          blocked={isOpenRequest(request)}
          expressOnly={user.data.expressOnly === true}
        />
      )}
    </main>
  )
}
