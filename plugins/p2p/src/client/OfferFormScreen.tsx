import { useEffect, useId, useState, type ReactNode } from "react"
import { useParams, useSearch } from "@tanstack/react-router"
import { useQuery } from "@tanstack/react-query"
import { useGo, useKernel, useT } from "@wallet/kernel-react"
import { AmountInput, Button, Cell, List, Section, SegmentedControl, SkeletonList, Switch, TextField } from "@wallet/kernel-react/ui"
import { cryptoDecimals, FIAT_DECIMALS, P2P_CRYPTO, PAYMENT_WINDOWS, type OfferType, type P2pCrypto, type PriceType } from "../domain.ts"
import { createOfferRoute, newPaymentRoute, offerPreviewRoute, p2pUserRoute } from "../routes.ts"
import { errorCode, keys, loadMarketPrice, loadMethods, loadOffer, loadOfferSettings, loadPayments, loadSettings } from "./client.ts"
import {
  decimalSeparatorOf,
  defaultPair,
  draftFromOffer,
  draftHold,
  draftMatches,
  draftPriceCents,
  hasProblems,
  MAX_PAYMENT_CHOICES,
  newDraft,
  OFFER_STEPS,
  stepProblems,
  TERMS_MAX,
  toggleChoice,
  volumeFiatCents,
  withPair,
  type DraftField,
  type OfferDraft,
  type PaymentWindow,
  type StepProblems,
} from "./maker.ts"
import {
  fieldBoxStyle,
  labelStyle,
  MakerLoadError,
  MessagePage,
  noteStyle,
  problemStyle,
  readDraft,
  selectStyle,
  subtitleStyle,
  writeDraft,
} from "./makerParts.tsx"
import { detailsLine, formatBps, formatCrypto, formatFiat, idOf, newIdempotencyKey } from "./market.ts"
import { CheckRow, Chip, chipRowStyle, padStyle, pageStyle, titleStyle } from "./marketParts.tsx"

const STEP_NAMES = ["maker.form.stepPrice", "maker.form.stepAmount", "maker.form.stepTerms"] as const

/** A field's problem under it (role=alert), when the last Next found one. */
function Problem({ problems, field, values }: { readonly problems: StepProblems; readonly field: DraftField; readonly values?: Record<string, unknown> }) {
  const t = useT("p2p")
  const problem = problems[field]
  if (problem === undefined) return null
  return (
    <p role="alert" style={problemStyle} data-testid={`p2p-offer-problem-${field}`}>
      {t(`maker.form.problems.${problem}`, values)}
    </p>
  )
}

/** A labelled amount field (the label is visible and names the input). */
function AmountField(props: {
  readonly label: string
  readonly value: string
  readonly onChange: (value: string) => void
  readonly decimals: number
  readonly currency: string
  readonly separator: "." | ","
  readonly invalid: boolean
  readonly testId: string
  readonly hint?: string
  readonly children?: ReactNode
}) {
  const id = useId()
  return (
    <div style={fieldBoxStyle}>
      <label htmlFor={id} style={labelStyle}>
        {props.label}
      </label>
      <AmountInput
        id={id}
        data-testid={props.testId}
        value={props.value}
        onChange={props.onChange}
        decimals={props.decimals}
        currency={props.currency}
        decimalSeparator={props.separator}
        invalid={props.invalid}
      />
      {props.hint !== undefined && <span style={{ color: "var(--wk-color-hint)", fontSize: 14 }}>{props.hint}</span>}
      {props.children}
    </div>
  )
}

interface StepProps {
  readonly draft: OfferDraft
  readonly update: (change: Partial<OfferDraft>) => void
  readonly problems: StepProblems
  readonly marketCents: bigint | null
  readonly marketStatus: "pending" | "error" | "success"
  readonly editing: boolean
  readonly fiats: ReadonlyArray<string>
  readonly windows: ReadonlyArray<PaymentWindow>
}

/** Step 1: the side, the pair and the price (fixed, or a percent of the market rate). */
function PriceStep({
  draft,
  update,
  problems,
  marketCents,
  marketStatus,
  editing,
  fiats,
  setType,
}: StepProps & { readonly setType: (type: OfferType) => void }) {
  const t = useT("p2p")
  const locale = useKernel().i18n.language()
  const separator = decimalSeparatorOf(locale)
  const fiatId = useId()
  const price = draftPriceCents(draft, marketCents)
  const marketText =
    marketStatus === "pending"
      ? t("maker.form.marketLoading")
      : marketCents === null
        ? t("maker.form.noMarketPrice")
        : t("maker.form.marketPrice", { price: formatFiat(marketCents, draft.fiat, locale), crypto: draft.crypto })
  return (
    <List>
      <Section header={t("maker.form.typeHeader")}>
        {editing ? (
          <Cell
            title={t(draft.type === "SALE" ? "maker.type.SALE" : "maker.type.PURCHASE")}
            after={`${draft.crypto} · ${draft.fiat}`}
            data-testid="p2p-offer-pair"
          />
        ) : (
          <>
            <div style={{ padding: "8px 16px" }} data-testid="p2p-offer-type">
              <SegmentedControl
                aria-label={t("maker.form.typeHeader")}
                stretched
                items={[
                  { value: "SALE", label: t("maker.type.SALE") },
                  { value: "PURCHASE", label: t("maker.type.PURCHASE") },
                ]}
                value={draft.type}
                onChange={(type: OfferType) => setType(type)}
              />
            </div>
            <div style={chipRowStyle} role="group" aria-label={t("maker.form.crypto")}>
              {P2P_CRYPTO.map((c) => (
                <Chip
                  key={c.code}
                  pressed={draft.crypto === c.code}
                  onClick={() => update(withPair(draft, { crypto: c.code as P2pCrypto }))}
                  testId={`p2p-offer-crypto-${c.code}`}
                >
                  {c.code}
                </Chip>
              ))}
            </div>
            <div style={fieldBoxStyle}>
              <label htmlFor={fiatId} style={labelStyle}>
                {t("maker.form.fiat")}
              </label>
              <select
                id={fiatId}
                data-testid="p2p-offer-fiat"
                style={selectStyle}
                value={draft.fiat}
                onChange={(event) => update(withPair(draft, { fiat: event.currentTarget.value }))}
              >
                {(fiats.includes(draft.fiat) ? fiats : [draft.fiat, ...fiats]).map((code) => (
                  <option key={code} value={code}>
                    {code}
                  </option>
                ))}
              </select>
            </div>
          </>
        )}
      </Section>
      <Section header={t("maker.form.priceHeader")}>
        <div style={{ padding: "8px 16px" }} data-testid="p2p-offer-price-type">
          <SegmentedControl
            aria-label={t("maker.form.priceType")}
            stretched
            items={[
              { value: "FIXED", label: t("maker.form.fixed") },
              { value: "FLOATING", label: t("maker.form.floating") },
            ]}
            value={draft.priceType}
            onChange={(priceType: PriceType) => update({ priceType })}
          />
        </div>
        {draft.priceType === "FIXED" ? (
          <AmountField
            label={t("maker.form.fixedLabel", { crypto: draft.crypto })}
            value={draft.fixedPrice}
            onChange={(fixedPrice) => update({ fixedPrice })}
            decimals={FIAT_DECIMALS}
            currency={draft.fiat}
            separator={separator}
            invalid={problems.price !== undefined}
            testId="p2p-offer-price"
          >
            <Problem problems={problems} field="price" />
          </AmountField>
        ) : (
          <AmountField
            label={t("maker.form.floatingLabel")}
            value={draft.floatingPercent}
            onChange={(floatingPercent) => update({ floatingPercent })}
            decimals={2}
            currency="%"
            separator={separator}
            invalid={problems.price !== undefined}
            testId="p2p-offer-percent"
            hint={t("maker.form.floatingHint")}
          >
            <Problem problems={problems} field="price" />
          </AmountField>
        )}
        <p style={noteStyle} data-testid="p2p-offer-market-price">
          {marketText}
        </p>
        {draft.priceType === "FLOATING" && price !== null && price > 0n && (
          <Cell title={t("maker.form.yourPrice")} after={<span data-testid="p2p-offer-result-price">{formatFiat(price, draft.fiat, locale)}</span>} />
        )}
      </Section>
    </List>
  )
}

/** Step 2: the volume, the limits per order and the payment choices (own details to sell, methods to buy). */
function AmountStep({ draft, update, problems, marketCents }: StepProps) {
  const t = useT("p2p")
  const go = useGo()
  const kernel = useKernel()
  const locale = kernel.i18n.language()
  const separator = decimalSeparatorOf(locale)
  const selling = draft.type === "SALE"
  const decimals = cryptoDecimals(draft.crypto) ?? 0
  const payments = useQuery({ queryKey: keys.payments, queryFn: () => loadPayments(kernel), enabled: selling })
  const methods = useQuery({ queryKey: keys.methods(draft.fiat), queryFn: () => loadMethods(kernel, draft.fiat), enabled: !selling })
  const own = (payments.data ?? []).filter((d) => d.fiat === draft.fiat)
  const worth = volumeFiatCents(draft, marketCents)
  const hold = draftHold(draft)
  const taken = BigInt(draft.taken)

  // Details deleted since the offer was written are no longer choices.
  const ownIds = payments.data === undefined ? null : own.map((d) => d.id)
  const kept = ownIds === null ? draft.paymentDetailsIds : draft.paymentDetailsIds.filter((id) => ownIds.includes(id))
  useEffect(() => {
    if (kept.length !== draft.paymentDetailsIds.length) update({ paymentDetailsIds: kept })
  })

  const chosen = selling ? draft.paymentDetailsIds.length : draft.paymentMethodCodes.length
  return (
    <List>
      <Section header={t("maker.form.amountHeader")}>
        <AmountField
          label={t("maker.form.volume", { crypto: draft.crypto })}
          value={draft.volume}
          onChange={(volume) => update({ volume })}
          decimals={decimals}
          currency={draft.crypto}
          separator={separator}
          invalid={problems.volume !== undefined}
          testId="p2p-offer-volume"
          hint={taken > 0n ? t("maker.form.taken", { amount: formatCrypto(taken, draft.crypto) }) : undefined}
        >
          <Problem problems={problems} field="volume" values={{ amount: formatCrypto(taken, draft.crypto) }} />
        </AmountField>
        <AmountField
          label={t("maker.form.minOrder")}
          value={draft.minOrder}
          onChange={(minOrder) => update({ minOrder })}
          decimals={FIAT_DECIMALS}
          currency={draft.fiat}
          separator={separator}
          invalid={problems.minOrder !== undefined}
          testId="p2p-offer-min"
        >
          <Problem problems={problems} field="minOrder" />
        </AmountField>
        <AmountField
          label={t("maker.form.maxOrder")}
          value={draft.maxOrder}
          onChange={(maxOrder) => update({ maxOrder })}
          decimals={FIAT_DECIMALS}
          currency={draft.fiat}
          separator={separator}
          invalid={problems.maxOrder !== undefined}
          testId="p2p-offer-max"
          hint={worth === null ? undefined : t("maker.form.maxHint", { amount: formatFiat(worth, draft.fiat, locale) })}
        >
          <Problem problems={problems} field="maxOrder" values={{ amount: worth === null ? "" : formatFiat(worth, draft.fiat, locale) }} />
        </AmountField>
        {selling && hold !== null && (
          <>
            <Cell
              multiline
              title={t("maker.form.hold")}
              subtitle={draft.makerFeeBps > 0 ? t("maker.form.holdFee", { rate: formatBps(draft.makerFeeBps, locale) }) : undefined}
              after={<span data-testid="p2p-offer-hold">{formatCrypto(hold, draft.crypto)}</span>}
            />
            <p style={noteStyle}>{t("maker.form.holdNote")}</p>
          </>
        )}
      </Section>
      <Section
        header={t(selling ? "maker.form.detailsHeader" : "maker.form.methodsHeader")}
        footer={t("maker.form.chosen", { count: chosen, max: MAX_PAYMENT_CHOICES })}
      >
        {selling ? (
          payments.status === "pending" ? (
            <SkeletonList rows={2} before={false} label={t("maker.loading")} />
          ) : payments.status === "error" ? (
            <MakerLoadError retry={() => void payments.refetch()} />
          ) : (
            <div role="group" aria-label={t("maker.form.detailsHeader")}>
              {own.map((d) => (
                <CheckRow
                  key={d.id}
                  checked={draft.paymentDetailsIds.includes(d.id)}
                  onChange={() => update({ paymentDetailsIds: toggleChoice(draft.paymentDetailsIds, d.id) })}
                  label={`${t(`methods.${d.paymentMethod.code}`, { defaultValue: d.paymentMethod.name })} · ${detailsLine(d.fields)}`}
                  testId={`p2p-offer-details-${d.id}`}
                />
              ))}
              {own.length === 0 && <p style={noteStyle}>{t("maker.form.noDetails", { fiat: draft.fiat })}</p>}
              <Cell
                tone="accent"
                data-testid="p2p-offer-add-details"
                title={t("maker.form.addDetails")}
                onClick={() => void go(newPaymentRoute, { search: { fiat: draft.fiat } })}
              />
            </div>
          )
        ) : methods.status === "pending" ? (
          <SkeletonList rows={3} before={false} label={t("maker.loading")} />
        ) : methods.status === "error" ? (
          <MakerLoadError retry={() => void methods.refetch()} />
        ) : (
          <div role="group" aria-label={t("maker.form.methodsHeader")}>
            {methods.data.methods.map((m) => (
              <CheckRow
                key={m.code}
                checked={draft.paymentMethodCodes.includes(m.code)}
                onChange={() => update({ paymentMethodCodes: toggleChoice(draft.paymentMethodCodes, m.code) })}
                label={t(`methods.${m.code}`, { defaultValue: m.name })}
                testId={`p2p-offer-method-${m.code}`}
              />
            ))}
            {methods.data.methods.length === 0 && <p style={noteStyle}>{t("maker.form.noMethods", { fiat: draft.fiat })}</p>}
          </div>
        )}
        <div style={{ padding: "0 16px 8px" }}>
          <Problem problems={problems} field="payment" values={{ max: MAX_PAYMENT_CHOICES }} />
        </div>
      </Section>
    </List>
  )
}

/** Step 3: the payment window, the terms and auto-accept. */
function TermsStep({ draft, update, problems, windows }: StepProps) {
  const t = useT("p2p")
  const switchLabel = useId()
  return (
    <List>
      <Section header={t("maker.form.windowHeader")} footer={t("maker.form.windowNote")}>
        <div style={chipRowStyle} role="group" aria-label={t("maker.form.windowHeader")}>
          {windows.map((minutes) => (
            <Chip
              key={minutes}
              pressed={draft.paymentWindowMinutes === minutes}
              onClick={() => update({ paymentWindowMinutes: minutes })}
              testId={`p2p-offer-window-${minutes}`}
            >
              {t("maker.minutes", { count: minutes })}
            </Chip>
          ))}
        </div>
      </Section>
      <Section header={t("maker.form.termsHeader")}>
        <div style={fieldBoxStyle}>
          <TextField
            multiline
            label={t("maker.form.terms")}
            value={draft.terms}
            onChange={(terms) => update({ terms })}
            maxLength={TERMS_MAX}
            data-testid="p2p-offer-terms"
            hint={t("maker.form.termsHint", { count: draft.terms.length, max: TERMS_MAX })}
            error={problems.terms === undefined ? undefined : t(`maker.form.problems.${problems.terms}`, { max: TERMS_MAX })}
          />
        </div>
      </Section>
      <Section>
        <Cell
          multiline
          title={<span id={switchLabel}>{t("maker.form.autoAccept")}</span>}
          description={t("maker.form.autoAcceptNote")}
          after={
            <Switch
              checked={draft.autoAccept}
              onChange={(autoAccept) => update({ autoAccept })}
              aria-labelledby={switchLabel}
              data-testid="p2p-offer-auto-accept"
            />
          }
        />
      </Section>
    </List>
  )
}

/** The form itself, over a draft kept in sessionStorage (it survives the detour to add payment details). */
function OfferForm({
  initial,
  editing,
  fiats,
  windows,
}: {
  readonly initial: OfferDraft
  readonly editing: boolean
  readonly fiats: ReadonlyArray<string>
  readonly windows: ReadonlyArray<PaymentWindow>
}) {
  const kernel = useKernel()
  const t = useT("p2p")
  const go = useGo()
  const [draft, setDraft] = useState(initial)
  const [attempted, setAttempted] = useState(false)
  useEffect(() => writeDraft(draft), [draft])

  const market = useQuery({
    queryKey: keys.price(draft.crypto, draft.fiat),
    queryFn: () => loadMarketPrice(kernel, draft.crypto, draft.fiat),
    staleTime: 30_000,
    retry: (count, error) => errorCode(error) === undefined && count < 2,
  })
  const marketCents = market.data !== undefined && BigInt(market.data.priceCents) > 0n ? BigInt(market.data.priceCents) : null
  const step = draft.step
  const problems = stepProblems(step, draft, marketCents)
  const shown = attempted ? problems : {}
  const update = (change: Partial<OfferDraft>) => setDraft((d) => ({ ...d, ...change }))

  const setType = (type: OfferType) => {
    setDraft((d) => withPair(d, { type }))
    // The address says the type, so a return from adding payment details finds this draft.
    void go(createOfferRoute, { search: { offerType: type }, replace: true })
  }
  const next = () => {
    if (hasProblems(problems)) {
      setAttempted(true)
      return
    }
    setAttempted(false)
    if (step < OFFER_STEPS) {
      update({ step: step + 1 })
      window.scrollTo?.(0, 0)
      return
    }
    writeDraft(draft)
    void go(offerPreviewRoute, { params: { id: draft.offerId === null ? "new" : String(draft.offerId) } })
  }
  const back = () => {
    setAttempted(false)
    update({ step: step - 1 })
  }

  const props: StepProps = { draft, update, problems: shown, marketCents, marketStatus: market.status, editing, fiats, windows }
  return (
    <main style={pageStyle} data-testid="p2p-offer-form" data-step={step} data-offer-type={draft.type}>
      <h1 style={titleStyle} data-testid="p2p-offer-step">
        {t("maker.form.step", { step, total: OFFER_STEPS })}
      </h1>
      <p style={subtitleStyle}>
        {t(editing ? "maker.form.editTitle" : draft.type === "SALE" ? "maker.form.createSale" : "maker.form.createPurchase", { crypto: draft.crypto })} ·{" "}
        {t(STEP_NAMES[step - 1] ?? STEP_NAMES[0])}
      </p>
      {step === 1 ? <PriceStep {...props} setType={setType} /> : step === 2 ? <AmountStep {...props} /> : <TermsStep {...props} />}
      <div style={{ ...padStyle, flexDirection: "row" }}>
        {step > 1 && (
          <Button look="secondary" size="l" stretched data-testid="p2p-offer-back" onClick={back}>
            {t("maker.form.back")}
          </Button>
        )}
        <Button look="primary" size="l" stretched data-testid={step < OFFER_STEPS ? "p2p-offer-next" : "p2p-offer-preview"} onClick={next}>
          {t(step < OFFER_STEPS ? "maker.form.next" : "maker.form.toPreview")}
        </Button>
      </div>
    </main>
  )
}

const loadingPage = (label: string) => (
  <main style={pageStyle} aria-busy="true">
    <SkeletonList rows={5} before={false} label={label} />
  </main>
)

/**
 * /p2p/offers/create (search offerType) and /p2p/offers/$id/edit (spec 3 §2.1): the ad form in three
 * steps titled "Step x of 3". The draft lives in sessionStorage ("p2p:offer-draft"); the last step
 * opens the preview, which publishes.
 */
export default function OfferFormScreen() {
  const kernel = useKernel()
  const t = useT("p2p")
  const go = useGo()
  const params = useParams({ strict: false }) as { readonly id?: string }
  const search = useSearch({ strict: false }) as { readonly offerType?: OfferType }
  const editing = params.id !== undefined
  const offerId = editing ? idOf(params.id) : null
  const type: OfferType = search.offerType === "PURCHASE" ? "PURCHASE" : "SALE"

  const settings = useQuery({ queryKey: keys.settings, queryFn: () => loadSettings(kernel), enabled: !editing })
  const offerSettings = useQuery({ queryKey: keys.offerSettings, queryFn: () => loadOfferSettings(kernel), staleTime: 300_000 })
  const offer = useQuery({ queryKey: keys.offer(offerId ?? 0), queryFn: () => loadOffer(kernel, offerId!), enabled: offerId !== null })

  const toProfile = (
    <Button look="secondary" size="s" onClick={() => void go(p2pUserRoute)}>
      {t("maker.toMyAds")}
    </Button>
  )
  if (editing && offerId === null) return <MessagePage title={t("maker.offerNotFound")} action={toProfile} testId="p2p-offer-not-found" />
  if (offerSettings.status === "pending" || (editing ? offer.status === "pending" : settings.status === "pending")) return loadingPage(t("maker.loading"))
  if (editing && offer.status === "error") {
    if (errorCode(offer.error) === "offer_not_found") return <MessagePage title={t("maker.offerNotFound")} action={toProfile} testId="p2p-offer-not-found" />
    return (
      <main style={pageStyle}>
        <MakerLoadError retry={() => void offer.refetch()} />
      </main>
    )
  }
  if (offerSettings.status === "error") {
    return (
      <main style={pageStyle}>
        <MakerLoadError retry={() => void offerSettings.refetch()} />
      </main>
    )
  }
  if (editing && offer.data !== undefined && !offer.data.isMine)
    return <MessagePage title={t("maker.notYourOffer")} action={toProfile} testId="p2p-offer-not-mine" />

  const windows = offerSettings.data.paymentWindows.filter((m): m is PaymentWindow => (PAYMENT_WINDOWS as ReadonlyArray<number>).includes(m))
  const fiats = offerSettings.data.fiats
  const stored = readDraft()
  let initial: OfferDraft
  if (editing && offer.data !== undefined) {
    initial = draftMatches(stored, { offerId: offer.data.id }) ? stored : draftFromOffer(offer.data, newIdempotencyKey())
  } else if (draftMatches(stored, { offerId: null, type })) {
    initial = stored
  } else {
    // A failed settings read only loses the saved defaults.
    const pair = defaultPair(settings.data, fiats, kernel.user()?.localCurrency)
    initial = newDraft({ type, ...pair, makerFeeBps: offerSettings.data.makerFeeBps, idempotencyKey: newIdempotencyKey() })
  }
  return <OfferForm key={offerId ?? "new"} initial={initial} editing={editing} fiats={fiats} windows={windows.length > 0 ? windows : [...PAYMENT_WINDOWS]} />
}
