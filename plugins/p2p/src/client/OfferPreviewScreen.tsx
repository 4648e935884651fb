import { useState } from "react"
import { useParams } from "@tanstack/react-router"
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { useAnalytics, useGo, useKernel, useT } from "@wallet/kernel-react"
import { Avatar, Button, Cell, List, Section, Skeleton } from "@wallet/kernel-react/ui"
import type { Offer } from "../api.ts"
import { avatarColorIndex, unavailableWhyOf } from "../domain.ts"
import { createOfferRoute, editOfferRoute, offerSuccessRoute, p2pUnavailableRoute, p2pUserRoute } from "../routes.ts"
import { createOffer, errorCode, errorField, keys, loadMarketPrice, loadPayments, loadUser, STALE, updateOffer, updateSettings } from "./client.ts"
import { draftHold, draftPriceCents, draftToForm, firstBadStep, refusalMessage, stepForRefusal, type OfferDraft } from "./maker.ts"
import { backOr, clearDraft, makerErrorKey, MakerLoadError, MessagePage, noteStyle, readDraft, subtitleStyle, writeDraft } from "./makerParts.tsx"
import { detailsLine, formatCrypto, formatFiat, idOf } from "./market.ts"
import { alertStyle, padStyle, pageStyle, titleStyle } from "./marketParts.tsx"

/** The preview's loading skeleton (spec 3 §2.1: shown while pending). */
function PreviewSkeleton({ label }: { readonly label: string }) {
  return (
    <main style={pageStyle} aria-busy="true" data-testid="p2p-offer-preview-loading">
      <div role="status" aria-label={label} style={{ padding: "8px 16px", display: "flex", flexDirection: "column", gap: 12 }}>
        <Skeleton shape="text" width="50%" height={28} />
        <Skeleton shape="rect" height={64} radius={12} />
        <Skeleton shape="rect" height={180} radius={12} />
        <Skeleton shape="rect" height={48} radius={12} />
      </div>
    </main>
  )
}

/** The draft as the market will show it, and the Publish button. */
function Preview({ draft }: { readonly draft: OfferDraft }) {
  const kernel = useKernel()
  const t = useT("p2p")
  const go = useGo()
  const analytics = useAnalytics()
  const queryClient = useQueryClient()
  const locale = kernel.i18n.language()
  const selling = draft.type === "SALE"
  const floating = draft.priceType === "FLOATING"

  const user = useQuery({ queryKey: keys.user, queryFn: () => loadUser(kernel), staleTime: STALE.user })
  const market = useQuery({
    queryKey: keys.price(draft.crypto, draft.fiat),
    queryFn: () => loadMarketPrice(kernel, draft.crypto, draft.fiat),
    enabled: floating,
    staleTime: 30_000,
  })
  const payments = useQuery({ queryKey: keys.payments, queryFn: () => loadPayments(kernel), enabled: selling })
  const marketCents = market.data !== undefined && BigInt(market.data.priceCents) > 0n ? BigInt(market.data.priceCents) : null
  const form = draftToForm(draft, marketCents)

  const toEdit = (step: number) => {
    writeDraft({ ...draft, step })
    backOr(
      () =>
        void (draft.offerId === null
          ? go(createOfferRoute, { search: { offerType: draft.type }, replace: true })
          : go(editOfferRoute, { params: { id: String(draft.offerId) }, search: { mode: "edit", offerType: draft.type }, replace: true })),
    )
  }

  const publish = useMutation({
    mutationFn: (request: NonNullable<typeof form>): Promise<Offer> =>
      draft.offerId === null ? createOffer(kernel, { ...request, idempotencyKey: draft.idempotencyKey }) : updateOffer(kernel, draft.offerId, request),
    onSuccess: async (offer) => {
      analytics.track("p2p.offer_published", { type: offer.type, crypto: offer.crypto, fiat: offer.fiat, priceType: offer.price.type })
      clearDraft()
      queryClient.setQueryData(keys.offer(offer.id), offer)
      void queryClient.invalidateQueries({ queryKey: keys.myOffers })
      void queryClient.invalidateQueries({ queryKey: keys.user })
      void queryClient.invalidateQueries({ queryKey: ["p2p", "offers"] })
      // The next ad starts from this pair (spec 3 §3 settings: a fiat for the sale default, a crypto for the purchase one),
      // and the profile's ads open on this ad's type.
      void updateSettings(kernel, {
        defaultCurrencyForSaleOfferCreation: offer.fiat,
        defaultCurrencyForPurchaseOfferCreation: offer.crypto,
        createOfferTypeInUserProfile: offer.type,
      })
        .then((settings) => queryClient.setQueryData(keys.settings, settings))
        .catch(() => undefined)
      await go(offerSuccessRoute, {
        params: { id: String(offer.id) },
        search: {
          mode: draft.offerId === null ? "create" : "edit",
          status: offer.status,
          baseCurrencyCode: offer.crypto,
          quoteCurrencyCode: offer.fiat,
          offerType: offer.type,
        },
        replace: true,
      })
    },
    onError: (error) => {
      if (errorCode(error) === "p2p_unavailable") void go(p2pUnavailableRoute, { search: { why: unavailableWhyOf(errorField(error, "why")) }, replace: true })
    },
  })

  if (user.status === "pending" || (floating && market.status === "pending") || (selling && payments.status === "pending"))
    return <PreviewSkeleton label={t("maker.loading")} />
  if (user.status === "error" || (selling && payments.status === "error")) {
    return (
      <main style={pageStyle}>
        <MakerLoadError
          retry={() => {
            void user.refetch()
            if (selling) void payments.refetch()
          }}
        />
      </main>
    )
  }

  const price = draftPriceCents(draft, marketCents)
  const available = form === null ? null : BigInt(form.volume) - BigInt(draft.taken)
  const hold = draftHold(draft)
  const methodNames = selling
    ? (payments.data ?? [])
        .filter((d) => draft.paymentDetailsIds.includes(d.id))
        .map((d) => `${t(`methods.${d.paymentMethod.code}`, { defaultValue: d.paymentMethod.name })} (${detailsLine(d.fields)})`)
    : draft.paymentMethodCodes.map((code) => t(`methods.${code}`, { defaultValue: code }))
  const refusal = publish.error === null ? undefined : errorCode(publish.error)
  const serverMessage = publish.error === null ? undefined : refusalMessage(publish.error)
  const profile = user.data

  return (
    <main style={pageStyle} data-testid="p2p-offer-preview" data-offer-type={draft.type}>
      <h1 style={titleStyle}>{t("maker.preview.title")}</h1>
      <p style={subtitleStyle}>{t(selling ? "maker.preview.leadSale" : "maker.preview.leadPurchase", { crypto: draft.crypto, fiat: draft.fiat })}</p>
      <List>
        <Section>
          <Cell
            before={<Avatar name={profile.name} colorSeed={avatarColorIndex(profile.userId)} size={40} />}
            title={profile.name}
            subtitle={
              profile.completionRate === null
                ? t("user.orders", { count: profile.completedOrders })
                : t("user.ordersRate", { count: profile.completedOrders, rate: profile.completionRate })
            }
          />
        </Section>
        <Section>
          <Cell
            title={t("maker.offer.price")}
            subtitle={floating ? t("maker.preview.floating", { percent: draft.floatingPercent }) : undefined}
            after={<span data-testid="p2p-preview-price">{price === null ? "—" : formatFiat(price, draft.fiat, locale)}</span>}
          />
          <Cell
            title={t("maker.offer.available")}
            after={<span data-testid="p2p-preview-available">{available === null ? "—" : formatCrypto(available, draft.crypto)}</span>}
          />
          <Cell
            title={t("maker.offer.limits")}
            after={
              <span data-testid="p2p-preview-limits">
                {form === null
                  ? "—"
                  : t("maker.offer.limitsValue", {
                      min: formatFiat(form.minOrderFiat, draft.fiat, locale),
                      max: formatFiat(form.maxOrderFiat, draft.fiat, locale),
                    })}
              </span>
            }
          />
          <Cell multiline title={t("maker.offer.methods")} description={methodNames.length > 0 ? methodNames.join(" · ") : "—"} />
          <Cell title={t("maker.offer.window")} after={t("maker.minutes", { count: draft.paymentWindowMinutes })} />
          <Cell title={t("maker.offer.autoAccept")} after={t(draft.autoAccept ? "maker.yes" : "maker.no")} />
          {draft.terms.trim() !== "" && <Cell multiline title={t("maker.offer.terms")} description={draft.terms.trim()} />}
        </Section>
        {hold !== null && (
          <Section>
            <Cell
              multiline
              title={t("maker.form.hold")}
              description={t("maker.form.holdNote")}
              after={<span data-testid="p2p-preview-hold">{formatCrypto(hold, draft.crypto)}</span>}
            />
          </Section>
        )}
      </List>
      {form === null && (
        <p role="alert" style={alertStyle} data-testid="p2p-offer-preview-incomplete">
          {t(floating && marketCents === null ? "maker.form.noMarketPrice" : "maker.preview.incomplete")}
        </p>
      )}
      {publish.error !== null && (
        <div role="alert" data-testid="p2p-offer-publish-error">
          <p style={alertStyle}>{t(makerErrorKey(refusal), { crypto: draft.crypto, amount: hold === null ? "" : formatCrypto(hold, draft.crypto) })}</p>
          {refusal === "invalid_offer" && serverMessage !== undefined && <p style={noteStyle}>{serverMessage}</p>}
        </div>
      )}
      <div style={padStyle}>
        <Button
          look="primary"
          size="l"
          stretched
          data-testid="p2p-offer-publish"
          loading={publish.isPending}
          loadingLabel={t("maker.preview.publishing")}
          disabled={form === null || publish.isPending}
          onClick={() => {
            if (form !== null) publish.mutate(form)
          }}
        >
          {t(draft.offerId === null ? "maker.preview.publish" : "maker.preview.save")}
        </Button>
        <Button
          look="secondary"
          size="l"
          stretched
          data-testid="p2p-offer-back-to-edit"
          disabled={publish.isPending}
          onClick={() =>
            toEdit(publish.error !== null ? stepForRefusal(refusal) : form === null ? (firstBadStep(draft, marketCents) ?? draft.step) : draft.step)
          }
        >
          {t("maker.preview.edit")}
        </Button>
      </div>
    </main>
  )
}

/** /p2p/offers/$id/preview (spec 3 §2.1): the stored draft ("new" while creating, the offer's id while editing) before it is published. */
export default function OfferPreviewScreen() {
  const t = useT("p2p")
  const go = useGo()
  const params = useParams({ strict: false }) as { readonly id?: string }
  const [draft] = useState(readDraft)
  const creating = params.id === "new"
  const id = creating ? null : idOf(params.id)
  const valid = draft !== null && (creating ? draft.offerId === null : id !== null && draft.offerId === id)
  if (!valid || draft === null) {
    return (
      <MessagePage
        testId="p2p-offer-preview-empty"
        title={t("maker.preview.empty")}
        description={t("maker.preview.emptyNote")}
        action={
          <Button look="secondary" size="s" onClick={() => void go(p2pUserRoute, { replace: true })}>
            {t("maker.toMyAds")}
          </Button>
        }
      />
    )
  }
  return <Preview draft={draft} />
}
