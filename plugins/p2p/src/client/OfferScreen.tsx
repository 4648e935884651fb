import { useRef, useState } from "react"
import { useParams, useSearch } from "@tanstack/react-router"
import { useQuery, useQueryClient } from "@tanstack/react-query"
import { useAnalytics, useGo, useKernel, useT } from "@wallet/kernel-react"
import { AmountInput, Badge, Banner, Button, Cell, List, minorUnitsToAmount, Section, SegmentedControl, Skeleton, SkeletonList } from "@wallet/kernel-react/ui"
import type { Offer } from "../api.ts"
import { cryptoDecimals, FIAT_DECIMALS, orderMoney, unavailableWhyOf } from "../domain.ts"
import { editOfferRoute, newPaymentRoute, offerListRoute, offerRoute, offerUnavailableRoute, orderRoute, p2pUnavailableRoute } from "../routes.ts"
import { errorCode, errorField, keys, loadOffer, loadPayments, takeOffer } from "./client.ts"
import {
  detailsLine,
  errorKey,
  formatBps,
  formatCrypto,
  formatFiat,
  idOf,
  newIdempotencyKey,
  takeAmounts,
  takeProblem,
  unavailableReasonKey,
  type AmountMode,
} from "./market.ts"
import { alertStyle, LoadError, NotFound, padStyle, pageStyle, RadioRow, titleStyle } from "./marketParts.tsx"
import { TraderCell } from "./reputationParts.tsx"

interface OfferSearchValues {
  readonly previousPrice?: string
  readonly paymentMethodCode?: string
  readonly isAutoAccept?: boolean
}

/** The offer's facts both views show: the trader, the price, what is left, the limits, methods, window and terms. */
function OfferFacts({ offer }: { readonly offer: Offer }) {
  const t = useT("p2p")
  const locale = useKernel().i18n.language()
  return (
    <>
      <Section>
        <TraderCell trader={offer.user} />
      </Section>
      <Section>
        <Cell title={t("market.offer.price")} after={<span data-testid="p2p-offer-price">{formatFiat(offer.priceCents, offer.fiat, locale)}</span>} />
        <Cell title={t("market.offer.available")} after={<span data-testid="p2p-offer-available">{formatCrypto(offer.available, offer.crypto)}</span>} />
        <Cell
          title={t("market.offer.limits")}
          after={t("market.offer.limitsValue", {
            min: formatFiat(offer.minOrderFiat, offer.fiat, locale),
            max: formatFiat(offer.maxOrderFiat, offer.fiat, locale),
          })}
        />
        <Cell title={t("market.offer.window")} after={t("market.offer.minutes", { count: offer.paymentWindowMinutes })} />
        <Cell
          multiline
          title={t("market.offer.methods")}
          description={offer.paymentMethods.map((m) => t(`market.methods.${m.code}`, { defaultValue: m.name })).join(" · ")}
        />
        {offer.terms !== null && offer.terms.trim() !== "" && <Cell multiline title={t("market.offer.terms")} description={offer.terms} />}
      </Section>
    </>
  )
}

/** The user's own ad: what it says, its status, and the way to edit it. */
function OwnOffer({ offer }: { readonly offer: Offer }) {
  const t = useT("p2p")
  const go = useGo()
  return (
    <main style={pageStyle} data-testid="p2p-own-offer">
      <h1 style={titleStyle}>{t(offer.type === "SALE" ? "market.offer.ownSale" : "market.offer.ownPurchase", { crypto: offer.crypto })}</h1>
      <div style={{ padding: "0 16px 12px", display: "flex", gap: 8, flexWrap: "wrap" }}>
        <Badge tone={offer.status === "ACTIVE" ? "success" : "neutral"} data-testid="p2p-offer-status">
          {t(`market.offer.status.${offer.status}`)}
        </Badge>
        {offer.unavailableReason !== null && offer.unavailableReason !== "own_offer" && (
          <Badge tone="destructive">{t(unavailableReasonKey(offer.unavailableReason))}</Badge>
        )}
      </div>
      <List>
        <OfferFacts offer={offer} />
        <Section>
          <Cell title={t("market.offer.openOrders")} after={String(offer.openOrders)} />
          <Cell title={t("market.offer.autoAccept")} after={t(offer.autoAccept ? "market.yes" : "market.no")} />
        </Section>
      </List>
      <div style={padStyle}>
        <Button
          look="primary"
          stretched
          data-testid="p2p-offer-edit"
          onClick={() => void go(editOfferRoute, { params: { id: String(offer.id) }, search: { mode: "edit", offerType: offer.type } })}
        >
          {t("market.offer.edit")}
        </Button>
      </div>
    </main>
  )
}

/** The order being made: a skeleton, and a way back (the request still finishes; the strip will show it). */
function CreatingOrder({ onBack }: { readonly onBack: () => void }) {
  const t = useT("p2p")
  return (
    <main style={pageStyle} data-testid="p2p-order-creating" aria-busy="true">
      <h1 style={titleStyle}>{t("market.take.creating")}</h1>
      <div role="status" aria-label={t("market.take.creating")} style={{ padding: "0 16px", display: "flex", flexDirection: "column", gap: 12 }}>
        <Skeleton shape="text" width="60%" height={28} />
        <Skeleton shape="rect" height={120} radius={12} />
        <Skeleton shape="rect" height={64} radius={12} />
      </div>
      <div style={padStyle}>
        <Button look="secondary" stretched data-testid="p2p-order-creation-back" onClick={onBack}>
          {t("market.back")}
        </Button>
      </div>
    </main>
  )
}

/** The take form (spec 3 §2.1 /p2p/offers/$id): the amount, the way to pay or be paid, the fees, and the order. */
function TakeForm({ offer, search }: { readonly offer: Offer; readonly search: OfferSearchValues }) {
  const kernel = useKernel()
  const t = useT("p2p")
  const go = useGo()
  const analytics = useAnalytics()
  const queryClient = useQueryClient()
  const locale = kernel.i18n.language()
  const buying = offer.type === "SALE"
  const decimals = cryptoDecimals(offer.crypto) ?? 0
  const price = BigInt(offer.priceCents)

  const [mode, setMode] = useState<AmountMode>("fiat")
  const [text, setText] = useState("")
  const [attempted, setAttempted] = useState(false)
  const [submitting, setSubmitting] = useState(false)
  const [refusal, setRefusal] = useState<string | null>(null)
  // One key per order: a retry of this submission reuses it, a made order renews it (bug: a second take of the same offer replayed the first).
  const [idempotencyKey, setIdempotencyKey] = useState(newIdempotencyKey)
  const abandoned = useRef(false)

  const offerCodes = offer.paymentMethods.map((m) => m.code)
  const askedMethod = search.paymentMethodCode !== undefined && offerCodes.includes(search.paymentMethodCode as never) ? search.paymentMethodCode : undefined
  const [method, setMethod] = useState<string | undefined>(askedMethod ?? (offerCodes.length === 1 ? offerCodes[0] : undefined))

  const payments = useQuery({ queryKey: keys.payments, queryFn: () => loadPayments(kernel), enabled: !buying })
  const matching = (payments.data ?? []).filter((d) => d.fiat === offer.fiat && offerCodes.includes(d.paymentMethod.code))
  const [detailsPicked, setDetailsPicked] = useState<number | undefined>()
  const detailsId = detailsPicked !== undefined && matching.some((d) => d.id === detailsPicked) ? detailsPicked : matching[0]?.id

  const maxFiat = BigInt(offer.maxOrderFiat)
  const order = takeAmounts(mode, text, decimals, price, maxFiat)
  const problem = takeProblem(order, { minFiat: BigInt(offer.minOrderFiat), maxFiat, available: BigInt(offer.available) })
  const money = order === null ? null : orderMoney(order.amount, offer.type, { makerBps: offer.makerFeeBps, takerBps: offer.takerFeeBps })
  const choiceMissing = buying ? method === undefined : detailsId === undefined
  const blocked = offer.unavailableReason !== null
  const priceChanged = search.previousPrice !== undefined && /^[0-9]+$/.test(search.previousPrice) && search.previousPrice !== offer.priceCents

  const switchMode = (next: AmountMode) => {
    if (next === mode) return
    if (order !== null) setText(next === "crypto" ? minorUnitsToAmount(order.amount, decimals) : minorUnitsToAmount(order.fiat, FIAT_DECIMALS))
    setMode(next)
  }

  const back = () => {
    abandoned.current = true
    analytics.track("p2p.order_creation_back")
    if (window.history.length > 1) window.history.back()
    else void go(offerListRoute, { params: { type: offer.type }, replace: true })
  }

  const submit = async () => {
    setAttempted(true)
    setRefusal(null)
    if (problem !== null || choiceMissing || order === null || price <= 0n || blocked) return
    abandoned.current = false
    setSubmitting(true)
    try {
      const made = await takeOffer(kernel, {
        offerId: offer.id,
        amount: order.amount.toString(),
        priceCents: offer.priceCents,
        ...(buying ? { paymentMethodCode: method as never } : { paymentDetailsId: detailsId }),
        idempotencyKey,
      })
      setIdempotencyKey(newIdempotencyKey())
      analytics.track("p2p.order_created", { offerType: offer.type, crypto: offer.crypto, fiat: offer.fiat, autoAccept: offer.autoAccept })
      queryClient.setQueryData(keys.order(made.id), made)
      void queryClient.invalidateQueries({ queryKey: keys.active })
      void queryClient.invalidateQueries({ queryKey: ["p2p", "history"] })
      void queryClient.invalidateQueries({ queryKey: ["p2p", "offers"] })
      void queryClient.invalidateQueries({ queryKey: keys.offer(offer.id) })
      void queryClient.invalidateQueries({ queryKey: keys.user })
      if (!abandoned.current)
        await go(orderRoute, { params: { id: String(made.id) }, search: { openedFrom: "p2p", isAutoAccept: offer.autoAccept }, replace: true })
    } catch (error) {
      if (abandoned.current) return
      const code = errorCode(error)
      if (code === "price_moved") {
        const now = errorField(error, "priceCents")
        if (now !== undefined) queryClient.setQueryData<Offer>(keys.offer(offer.id), (old) => (old === undefined ? old : { ...old, priceCents: now }))
        void queryClient.invalidateQueries({ queryKey: keys.offer(offer.id) })
        await go(offerRoute, { params: { id: String(offer.id) }, search: { ...search, previousPrice: offer.priceCents } as never, replace: true })
      } else if (code === "offer_unavailable") {
        const reason = errorField(error, "reason")
        void queryClient.invalidateQueries({ queryKey: keys.offer(offer.id) })
        await go(offerUnavailableRoute, { search: { offerId: offer.id, reason: reason as never, offerType: offer.type }, replace: true })
      } else if (code === "p2p_unavailable") {
        await go(p2pUnavailableRoute, { search: { why: unavailableWhyOf(errorField(error, "why")) }, replace: true })
      } else {
        if (code === "offer_state_changed") void queryClient.invalidateQueries({ queryKey: keys.offer(offer.id) })
        setRefusal(code ?? "generic")
      }
    } finally {
      setSubmitting(false)
    }
  }

  if (submitting) return <CreatingOrder onBack={back} />

  const problemText =
    problem === null || problem === "empty"
      ? null
      : problem === "belowMin"
        ? t("market.take.belowMin", { min: formatFiat(offer.minOrderFiat, offer.fiat, locale) })
        : problem === "aboveMax"
          ? t("market.take.aboveMax", { max: formatFiat(offer.maxOrderFiat, offer.fiat, locale) })
          : problem === "aboveAvailable"
            ? t("market.take.aboveAvailable", { amount: formatCrypto(offer.available, offer.crypto) })
            : t("market.take.zero")
  const shownProblem = problem === "empty" ? (attempted ? t("market.take.enterAmount") : null) : text.trim() === "" && !attempted ? null : problemText

  return (
    <main style={pageStyle} data-testid="p2p-take" data-offer-type={offer.type}>
      <h1 style={titleStyle}>{t(buying ? "market.take.titleBuy" : "market.take.titleSell", { crypto: offer.crypto })}</h1>
      {priceChanged && (
        <div style={{ padding: "0 16px 12px" }}>
          <Banner
            tone="warning"
            data-testid="p2p-price-changed"
            title={t("market.take.priceChanged", {
              from: formatFiat(search.previousPrice!, offer.fiat, locale),
              to: formatFiat(offer.priceCents, offer.fiat, locale),
            })}
          />
        </div>
      )}
      {blocked && (
        <div style={{ padding: "0 16px 12px" }}>
          <Banner
            tone="error"
            data-testid="p2p-take-unavailable"
            title={t("market.unavailableReason.title")}
            description={t(unavailableReasonKey(offer.unavailableReason ?? undefined))}
            action={
              <Button look="secondary" size="s" onClick={() => void go(offerListRoute, { params: { type: offer.type } })}>
                {t("market.unavailableReason.otherOffers")}
              </Button>
            }
          />
        </div>
      )}
      <List>
        <OfferFacts offer={offer} />
        <Section header={t("market.take.amount")}>
          <div style={{ padding: "8px 16px", display: "flex", flexDirection: "column", gap: 8 }}>
            <SegmentedControl
              aria-label={t("market.take.amountIn")}
              stretched
              items={[
                { value: "fiat", label: offer.fiat },
                { value: "crypto", label: offer.crypto },
              ]}
              value={mode}
              onChange={switchMode}
            />
            <AmountInput
              aria-label={t("market.take.amountLabel", { currency: mode === "fiat" ? offer.fiat : offer.crypto })}
              data-testid="p2p-take-amount"
              value={text}
              onChange={(value) => {
                setText(value)
                setRefusal(null)
              }}
              decimals={mode === "fiat" ? FIAT_DECIMALS : decimals}
              currency={mode === "fiat" ? offer.fiat : offer.crypto}
              size="l"
              invalid={shownProblem !== null}
            />
            <span style={{ color: "var(--wk-color-hint)", fontSize: 14 }} data-testid="p2p-take-other">
              {order === null
                ? t("market.offer.limitsValue", {
                    min: formatFiat(offer.minOrderFiat, offer.fiat, locale),
                    max: formatFiat(offer.maxOrderFiat, offer.fiat, locale),
                  })
                : mode === "fiat"
                  ? t("market.take.equalsCrypto", { amount: formatCrypto(order.amount, offer.crypto) })
                  : t("market.take.equalsFiat", { amount: formatFiat(order.fiat, offer.fiat, locale) })}
            </span>
            {shownProblem !== null && (
              <span role="alert" data-testid="p2p-take-problem" style={{ color: "var(--wk-color-destructive)", fontSize: 14 }}>
                {shownProblem}
              </span>
            )}
          </div>
        </Section>
        {buying ? (
          <Section header={t("market.take.payWith")}>
            <div role="radiogroup" aria-label={t("market.take.payWith")}>
              {offer.paymentMethods.map((m) => (
                <RadioRow
                  key={m.code}
                  name={`p2p-method-${offer.id}`}
                  checked={method === m.code}
                  onChange={() => setMethod(m.code)}
                  label={t(`market.methods.${m.code}`, { defaultValue: m.name })}
                  testId={`p2p-take-method-${m.code}`}
                />
              ))}
            </div>
            {attempted && method === undefined && (
              <p role="alert" style={alertStyle}>
                {t("market.take.chooseMethod")}
              </p>
            )}
          </Section>
        ) : (
          <Section header={t("market.take.getPaidTo")} footer={t("market.take.getPaidToFooter")}>
            {payments.status === "pending" ? (
              <SkeletonList rows={2} before={false} label={t("market.loading")} />
            ) : payments.status === "error" ? (
              <LoadError retry={() => void payments.refetch()} />
            ) : (
              <div role="radiogroup" aria-label={t("market.take.getPaidTo")}>
                {matching.map((d) => (
                  <RadioRow
                    key={d.id}
                    name={`p2p-details-${offer.id}`}
                    checked={detailsId === d.id}
                    onChange={() => setDetailsPicked(d.id)}
                    label={t(`market.methods.${d.paymentMethod.code}`, { defaultValue: d.paymentMethod.name })}
                    detail={detailsLine(d.fields)}
                    testId={`p2p-take-details-${d.id}`}
                  />
                ))}
                {matching.length === 0 && (
                  <p style={{ margin: "8px 16px", color: "var(--wk-color-hint)" }} role={attempted ? "alert" : undefined}>
                    {t("market.take.noDetails", { fiat: offer.fiat })}
                  </p>
                )}
              </div>
            )}
            <Cell
              tone="accent"
              data-testid="p2p-take-add-details"
              title={t("market.take.addDetails")}
              onClick={() => void go(newPaymentRoute, { search: { fiat: offer.fiat, ...(offerCodes.length === 1 ? { code: offerCodes[0] } : {}) } })}
            />
          </Section>
        )}
        {order !== null && money !== null && problem === null && (
          <Section header={t("market.take.summary")}>
            {buying ? (
              <>
                <Cell title={t("market.take.youPay")} after={<span data-testid="p2p-take-pay">{formatFiat(order.fiat, offer.fiat, locale)}</span>} />
                <Cell
                  title={t("market.take.fee", { rate: formatBps(offer.takerFeeBps, locale) })}
                  after={<span data-testid="p2p-take-fee">{formatCrypto(money.buyerFee, offer.crypto)}</span>}
                />
                <Cell
                  title={t("market.take.youReceive")}
                  after={<span data-testid="p2p-take-receive">{formatCrypto(money.buyerReceives, offer.crypto)}</span>}
                />
              </>
            ) : (
              <>
                <Cell title={t("market.take.youSell")} after={<span data-testid="p2p-take-pay">{formatCrypto(order.amount, offer.crypto)}</span>} />
                <Cell
                  title={t("market.take.fee", { rate: formatBps(offer.takerFeeBps, locale) })}
                  after={<span data-testid="p2p-take-fee">{formatCrypto(money.sellerFee, offer.crypto)}</span>}
                />
                <Cell
                  multiline
                  title={t("market.take.held")}
                  description={t("market.take.heldNote")}
                  after={<span data-testid="p2p-take-hold">{formatCrypto(money.hold, offer.crypto)}</span>}
                />
                <Cell title={t("market.take.youReceive")} after={<span data-testid="p2p-take-receive">{formatFiat(order.fiat, offer.fiat, locale)}</span>} />
              </>
            )}
          </Section>
        )}
      </List>
      {refusal !== null && (
        <p role="alert" data-testid="p2p-take-error" style={alertStyle}>
          {t(errorKey(refusal))}
        </p>
      )}
      {price <= 0n && (
        <p role="alert" style={alertStyle}>
          {t("market.take.noPrice")}
        </p>
      )}
      <div style={padStyle}>
        <Button
          look={buying ? "confirm" : "destructive"}
          size="l"
          stretched
          data-testid="p2p-take-submit"
          disabled={price <= 0n || blocked}
          onClick={() => void submit()}
        >
          {t(buying ? "market.take.submitBuy" : "market.take.submitSell", { crypto: offer.crypto })}
        </Button>
      </div>
    </main>
  )
}

/** /p2p/offers/$id (spec 3 §2.1): someone's ad with the take form, or the user's own ad with Edit. */
export default function OfferScreen() {
  const kernel = useKernel()
  const t = useT("p2p")
  const go = useGo()
  const params = useParams({ strict: false }) as { readonly id?: string }
  const search = useSearch({ strict: false }) as OfferSearchValues
  const id = idOf(params.id)
  const offer = useQuery({ queryKey: keys.offer(id ?? 0), queryFn: () => loadOffer(kernel, id!), enabled: id !== null })

  const toMarket = (
    <Button look="secondary" size="s" onClick={() => void go(offerListRoute, { params: { type: "SALE" } })}>
      {t("market.toOffers")}
    </Button>
  )
  if (id === null) return <NotFound kind="offer" action={toMarket} />
  if (offer.status === "pending") {
    return (
      <main style={pageStyle}>
        <SkeletonList rows={5} label={t("market.loading")} />
      </main>
    )
  }
  if (offer.status === "error") {
    if (errorCode(offer.error) === "offer_not_found") return <NotFound kind="offer" action={toMarket} />
    return (
      <main style={pageStyle}>
        <LoadError retry={() => void offer.refetch()} />
      </main>
    )
  }
  if (offer.data.isMine) return <OwnOffer offer={offer.data} />
  return <TakeForm key={offer.data.id} offer={offer.data} search={search} />
}
