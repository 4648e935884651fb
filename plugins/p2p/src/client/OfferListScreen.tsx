import { useEffect, useId, useState } from "react"
import { useParams, useSearch } from "@tanstack/react-router"
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { useGo, useKernel, useT } from "@wallet/kernel-react"
import { AmountInput, Avatar, Button, List, Placeholder, Section, SkeletonList } from "@wallet/kernel-react/ui"
import type { Offer, OfferListRequest } from "../api.ts"
import { avatarColorIndex, FIAT_DECIMALS, hasNextPage, P2P_CRYPTO, unavailableWhyOf, type OfferType, type P2pCrypto } from "../domain.ts"
import { createOfferRoute, offerListRoute, offerRoute, p2pUnavailableRoute } from "../routes.ts"
import { errorCode, errorField, keys, listOffers, loadCurrencies, loadMethods, loadSettings, STALE, updateSettings } from "./client.ts"
import { defaultFiat, formatCrypto, formatFiat, parseMinor, unavailableReasonKey } from "./market.ts"
import { Chip, chipRowStyle, LoadError, padStyle, pageStyle, titleStyle } from "./marketParts.tsx"
import { TraderLine } from "./reputationParts.tsx"
import { TrustedBadge } from "./TrustedBadge.tsx"

const PAGE = 20
const AMOUNT_DEBOUNCE_MS = 400

/** One ad of the list (testid p2p-offer-<id>): the trader, the price, what is left, the limits and methods. */
export function OfferCard({ offer, onOpen }: { readonly offer: Offer; readonly onOpen: () => void }) {
  const t = useT("p2p")
  const kernel = useKernel()
  const locale = kernel.i18n.language()
  const unavailable = offer.unavailableReason !== null
  const openable = !unavailable || offer.isMine
  return (
    <article
      data-testid={`p2p-offer-${offer.id}`}
      data-unavailable={unavailable || undefined}
      aria-disabled={unavailable || undefined}
      style={{
        margin: "0 0 8px",
        padding: 16,
        borderRadius: "var(--wk-radius-l, 12px)",
        background: "var(--wk-color-section-bg)",
        opacity: unavailable ? 0.55 : 1,
        display: "flex",
        flexDirection: "column",
        gap: 6,
      }}
    >
      <div style={{ display: "flex", alignItems: "center", gap: 8 }}>
        <Avatar name={offer.user.name} colorSeed={avatarColorIndex(offer.user.userId)} size={28} />
        <strong style={{ flex: 1, minWidth: 0, overflow: "hidden", textOverflow: "ellipsis", whiteSpace: "nowrap" }}>{offer.user.name}</strong>
        <TrustedBadge trusted={offer.user.trustedMerchant} />
        <span style={{ color: "var(--wk-color-hint)", fontSize: "var(--wk-font-size-footnote, 13px)" }}>
          <TraderLine trader={offer.user} />
        </span>
      </div>
      <div style={{ fontSize: "var(--wk-font-size-title3, 20px)", fontWeight: 600 }} data-testid={`p2p-offer-price-${offer.id}`}>
        {t("market.list.price", { price: formatFiat(offer.priceCents, offer.fiat, locale), crypto: offer.crypto })}
      </div>
      <div style={{ color: "var(--wk-color-subtitle-text, var(--wk-color-hint))", fontSize: 14, display: "flex", flexDirection: "column", gap: 2 }}>
        <span>{t("market.list.available", { amount: formatCrypto(offer.available, offer.crypto) })}</span>
        <span>
          {t("market.list.limits", { min: formatFiat(offer.minOrderFiat, offer.fiat, locale), max: formatFiat(offer.maxOrderFiat, offer.fiat, locale) })}
        </span>
        <span>{offer.paymentMethods.map((m) => t(`market.methods.${m.code}`, { defaultValue: m.name })).join(" · ")}</span>
      </div>
      {unavailable && (
        <span style={{ color: "var(--wk-color-destructive)", fontSize: 14 }} data-testid={`p2p-offer-reason-${offer.id}`}>
          {t(unavailableReasonKey(offer.unavailableReason ?? undefined))}
        </span>
      )}
      <Button
        look={offer.type === "SALE" ? "confirm" : "destructive"}
        size="s"
        data-testid={`p2p-offer-take-${offer.id}`}
        disabled={!openable}
        aria-label={t(offer.type === "SALE" ? "market.list.buyFrom" : "market.list.sellTo", { crypto: offer.crypto, name: offer.user.name })}
        onClick={onOpen}
        style={{ alignSelf: "flex-end" }}
      >
        {offer.isMine ? t("market.list.yours") : t(offer.type === "SALE" ? "market.list.buy" : "market.list.sell")}
      </Button>
    </article>
  )
}

/**
 * /p2p/offers/list/$type (spec 3 §2.1): the ads of one side. SALE ads are where the user buys, PURCHASE
 * ads where the user sells. Filters: the crypto, the fiat (remembered as the recent fiat), the payment
 * methods and an amount; 20 ads a page, more after a full page.
 */
export default function OfferListScreen() {
  const kernel = useKernel()
  const t = useT("p2p")
  const go = useGo()
  const queryClient = useQueryClient()
  const fiatLabelId = useId()
  const params = useParams({ strict: false }) as { readonly type?: string }
  const search = useSearch({ strict: false }) as { readonly fiatCurrency?: string; readonly crypto?: string; readonly back?: string }
  const type: OfferType = params.type === "PURCHASE" ? "PURCHASE" : "SALE"

  const currencies = useQuery({ queryKey: keys.currencies, queryFn: () => loadCurrencies(kernel), staleTime: STALE.currencies })
  const settings = useQuery({ queryKey: keys.settings, queryFn: () => loadSettings(kernel) })
  const cryptoCodes: ReadonlyArray<string> = currencies.data?.data.crypto.map((c) => c.code) ?? P2P_CRYPTO.map((c) => c.code)
  const crypto = (search.crypto !== undefined && cryptoCodes.includes(search.crypto) ? search.crypto : (cryptoCodes[0] ?? "USDT")) as P2pCrypto
  const fiatKnown = search.fiatCurrency !== undefined || settings.status !== "pending"
  const fiat = defaultFiat(search.fiatCurrency, settings.data?.recentFiats, kernel.user()?.localCurrency)
  const fiats = [...new Set([fiat, ...(currencies.data?.data.fiat.map((f) => f.code) ?? [])])]

  const methods = useQuery({ queryKey: keys.methods(fiat), queryFn: () => loadMethods(kernel, fiat), enabled: fiatKnown })
  const [picked, setPicked] = useState<{ readonly fiat: string; readonly codes: ReadonlyArray<string> }>({ fiat, codes: [] })
  const chosenMethods = picked.fiat === fiat ? picked.codes : []
  const toggleMethod = (code: string) =>
    setPicked({ fiat, codes: chosenMethods.includes(code) ? chosenMethods.filter((c) => c !== code) : [...chosenMethods, code] })

  const [amountText, setAmountText] = useState("")
  const [amountApplied, setAmountApplied] = useState("")
  useEffect(() => {
    const timer = setTimeout(() => setAmountApplied(amountText), AMOUNT_DEBOUNCE_MS)
    return () => clearTimeout(timer)
  }, [amountText])
  const amountCents = parseMinor(amountApplied, FIAT_DECIMALS)

  const request: OfferListRequest = {
    type,
    crypto,
    fiat,
    paymentMethods: chosenMethods as OfferListRequest["paymentMethods"],
    ...(amountCents !== null && amountCents > 0n ? { amountFiat: amountCents.toString() } : {}),
    offset: 0,
    limit: PAGE,
  }
  const offers = useInfiniteQuery({
    queryKey: [...keys.offers(request), "pages"],
    queryFn: ({ pageParam }) => listOffers(kernel, { ...request, offset: pageParam }),
    initialPageParam: 0,
    getNextPageParam: (last, pages) => (hasNextPage(last.length, PAGE) ? pages.length * PAGE : undefined),
    enabled: fiatKnown,
  })
  const closed = offers.status === "error" && errorCode(offers.error) === "p2p_unavailable"
  useEffect(() => {
    if (closed) void go(p2pUnavailableRoute, { search: { why: unavailableWhyOf(errorField(offers.error, "why")) }, replace: true })
  }, [closed, offers.error, go])

  const remember = useMutation({
    mutationFn: (code: string) => updateSettings(kernel, { recentFiat: code }),
    onSuccess: (next) => queryClient.setQueryData(keys.settings, next),
  })
  const setSearch = (next: { readonly fiatCurrency?: string; readonly crypto?: string }) =>
    void go(offerListRoute, { params: { type }, search: { ...search, fiatCurrency: fiat, crypto, ...next }, replace: true })
  const chooseFiat = (code: string) => {
    if (code === fiat) return
    remember.mutate(code)
    setSearch({ fiatCurrency: code })
  }

  const items = offers.data?.pages.flat() ?? []
  return (
    <main style={pageStyle} data-testid="p2p-offer-list" data-type={type}>
      <h1 style={titleStyle}>{t(type === "SALE" ? "market.list.titleBuy" : "market.list.titleSell", { crypto })}</h1>
      <div role="group" aria-label={t("market.list.crypto")} style={chipRowStyle}>
        {cryptoCodes.map((code) => (
          <Chip key={code} pressed={code === crypto} testId={`p2p-crypto-${code}`} onClick={() => setSearch({ crypto: code })}>
            {code}
          </Chip>
        ))}
      </div>
      <div style={{ display: "flex", gap: 8, alignItems: "flex-end", padding: "0 16px 8px" }}>
        <label style={{ display: "flex", flexDirection: "column", gap: 4, fontSize: 13, color: "var(--wk-color-section-header-text)" }}>
          <span id={fiatLabelId}>{t("market.list.fiat")}</span>
          <select
            aria-labelledby={fiatLabelId}
            data-testid="p2p-fiat"
            value={fiat}
            onChange={(event) => chooseFiat(event.currentTarget.value)}
            style={{
              font: "inherit",
              fontSize: 16,
              padding: "10px 12px",
              borderRadius: "var(--wk-radius-m, 10px)",
              border: "none",
              background: "var(--wk-color-section-bg)",
              color: "var(--wk-color-text)",
            }}
          >
            {fiats.map((code) => (
              <option key={code} value={code}>
                {code}
              </option>
            ))}
          </select>
        </label>
        <div style={{ flex: 1, minWidth: 0 }}>
          <AmountInput
            aria-label={t("market.list.amount", { fiat })}
            placeholder={t("market.list.amountPlaceholder")}
            data-testid="p2p-amount-filter"
            value={amountText}
            onChange={setAmountText}
            decimals={FIAT_DECIMALS}
            currency={fiat}
          />
        </div>
      </div>
      {methods.data !== undefined && methods.data.methods.length > 0 && (
        <div role="group" aria-label={t("market.list.methods")} style={chipRowStyle}>
          <Chip pressed={chosenMethods.length === 0} testId="p2p-method-all" onClick={() => setPicked({ fiat, codes: [] })}>
            {t("market.list.allMethods")}
          </Chip>
          {methods.data.methods.map((m) => (
            <Chip key={m.code} pressed={chosenMethods.includes(m.code)} testId={`p2p-method-${m.code}`} onClick={() => toggleMethod(m.code)}>
              {t(`market.methods.${m.code}`, { defaultValue: m.name })}
            </Chip>
          ))}
        </div>
      )}
      <List>
        {!fiatKnown || offers.status === "pending" || closed ? (
          <Section>
            <SkeletonList rows={4} label={t("market.loading")} />
          </Section>
        ) : offers.status === "error" ? (
          <LoadError retry={() => void offers.refetch()} />
        ) : items.length === 0 ? (
          <Placeholder
            data-testid="p2p-offers-empty"
            title={t("market.list.empty")}
            action={
              <Button look="secondary" size="s" onClick={() => void go(createOfferRoute, { search: { offerType: type === "SALE" ? "PURCHASE" : "SALE" } })}>
                {t("market.home.createAd")}
              </Button>
            }
          />
        ) : (
          <div>
            {items.map((offer) => (
              <OfferCard
                key={offer.id}
                offer={offer}
                onOpen={() =>
                  void go(offerRoute, {
                    params: { id: String(offer.id) },
                    search: chosenMethods.length === 1 ? { paymentMethodCode: chosenMethods[0] as never } : {},
                  })
                }
              />
            ))}
          </div>
        )}
        {offers.hasNextPage && (
          <div style={padStyle}>
            <Button
              look="secondary"
              stretched
              data-testid="p2p-offers-more"
              loading={offers.isFetchingNextPage}
              loadingLabel={t("market.loading")}
              onClick={() => void offers.fetchNextPage()}
            >
              {t("market.showMore")}
            </Button>
          </div>
        )}
      </List>
    </main>
  )
}
