import { useState } from "react"
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { useGo, useKernel, useT } from "@wallet/kernel-react"
import { Avatar, Badge, BottomSheet, Button, Cell, List, Placeholder, Section, SegmentedControl, SkeletonList } from "@wallet/kernel-react/ui"
import type { Offer } from "../api.ts"
import { avatarColorIndex, offerHoldOf, unavailableWhyOf, type OfferType } from "../domain.ts"
import {
  createOfferRoute,
  editOfferRoute,
  exportHistoryRoute,
  notificationsRoute,
  offerRoute,
  p2pUnavailableRoute,
  paymentsRoute,
  trustedMerchantRoute,
} from "../routes.ts"
import { errorCode, errorField, keys, loadSettings, loadUser, myOffers, setOfferStatus, STALE, updateSettings } from "./client.ts"
import { makerErrorKey, MakerLoadError, noteStyle } from "./makerParts.tsx"
import { formatCrypto, formatFiat } from "./market.ts"
import { alertStyle, pageStyle, titleStyle } from "./marketParts.tsx"
import { ReputationDetails } from "./reputationParts.tsx"
import { TrustedBadge } from "./TrustedBadge.tsx"

interface StatusChange {
  readonly offer: Offer
  readonly to: "ACTIVE" | "INACTIVE"
}

/** One of the user's ads: its price, what is left, the limits, the status, open orders, and Stop/Activate and Edit. */
function MyOfferRow({ offer, onStatus }: { readonly offer: Offer; readonly onStatus: (change: StatusChange) => void }) {
  const t = useT("p2p")
  const go = useGo()
  const locale = useKernel().i18n.language()
  const active = offer.status === "ACTIVE"
  return (
    <div data-testid={`p2p-my-offer-${offer.id}`} data-status={offer.status} style={{ borderBottom: "1px solid var(--wk-color-separator)" }}>
      <Cell
        chevron
        onClick={() => void go(offerRoute, { params: { id: String(offer.id) } })}
        title={<span data-testid={`p2p-my-offer-price-${offer.id}`}>{formatFiat(offer.priceCents, offer.fiat, locale)}</span>}
        subtitle={t("user.ads.available", { available: formatCrypto(offer.available, offer.crypto), volume: formatCrypto(offer.volume, offer.crypto) })}
        description={t("user.ads.limits", { min: formatFiat(offer.minOrderFiat, offer.fiat, locale), max: formatFiat(offer.maxOrderFiat, offer.fiat, locale) })}
        after={
          <span style={{ display: "flex", flexDirection: "column", alignItems: "flex-end", gap: 4 }}>
            <Badge tone={active ? "success" : "neutral"} data-testid={`p2p-my-offer-status-${offer.id}`}>
              {t(`maker.status.${offer.status}`)}
            </Badge>
            {offer.openOrders > 0 && (
              <span style={{ color: "var(--wk-color-hint)", fontSize: 13 }}>{t("user.ads.openOrders", { count: offer.openOrders })}</span>
            )}
          </span>
        }
      />
      <div style={{ display: "flex", gap: 8, padding: "0 16px 12px" }}>
        {active ? (
          <Button look="secondary" size="s" data-testid={`p2p-offer-stop-${offer.id}`} onClick={() => onStatus({ offer, to: "INACTIVE" })}>
            {t("user.ads.stop")}
          </Button>
        ) : (
          <Button look="secondary" size="s" data-testid={`p2p-offer-activate-${offer.id}`} onClick={() => onStatus({ offer, to: "ACTIVE" })}>
            {t("user.ads.activate")}
          </Button>
        )}
        <Button
          look="plain"
          size="s"
          data-testid={`p2p-offer-edit-${offer.id}`}
          onClick={() => void go(editOfferRoute, { params: { id: String(offer.id) }, search: { mode: "edit", offerType: offer.type } })}
        >
          {t("user.ads.edit")}
        </Button>
      </div>
    </div>
  )
}

/** The ads page: Create ad, Sell / Buy ads, the list with its actions, and the confirm sheet. */
function MyAds({ initialType }: { readonly initialType: OfferType }) {
  const kernel = useKernel()
  const t = useT("p2p")
  const go = useGo()
  const queryClient = useQueryClient()
  const [type, setType] = useState<OfferType>(initialType)
  const [change, setChange] = useState<StatusChange | null>(null)
  const offers = useQuery({ queryKey: [...keys.myOffers, type], queryFn: () => myOffers(kernel, type) })

  const chooseType = (next: OfferType) => {
    setType(next)
    // Spec 3 §3: the profile remembers which ads it shows.
    void updateSettings(kernel, { createOfferTypeInUserProfile: next })
      .then((settings) => queryClient.setQueryData(keys.settings, settings))
      .catch(() => undefined)
  }

  const move = useMutation({
    mutationFn: (c: StatusChange) => setOfferStatus(kernel, c.offer.id, c.to),
    onSuccess: (offer) => {
      queryClient.setQueryData(keys.offer(offer.id), offer)
      void queryClient.invalidateQueries({ queryKey: keys.myOffers })
      void queryClient.invalidateQueries({ queryKey: keys.user })
      void queryClient.invalidateQueries({ queryKey: ["p2p", "offers"] })
      setChange(null)
    },
    onError: (error) => {
      if (errorCode(error) === "p2p_unavailable") void go(p2pUnavailableRoute, { search: { why: unavailableWhyOf(errorField(error, "why")) }, replace: true })
    },
  })
  const open = (c: StatusChange) => {
    move.reset()
    setChange(c)
  }
  const close = () => {
    if (!move.isPending) setChange(null)
  }

  const pending = change !== null && change.to === "ACTIVE" && change.offer.type === "SALE"
  const holdAgain = pending ? offerHoldOf(BigInt(change.offer.available), { makerBps: change.offer.makerFeeBps, takerBps: change.offer.takerFeeBps }) : null

  return (
    <>
      <Section header={t("user.ads.title")}>
        <div style={{ padding: "8px 16px", display: "flex", flexDirection: "column", gap: 12 }}>
          <SegmentedControl
            aria-label={t("user.ads.typeLabel")}
            stretched
            items={[
              { value: "SALE", label: t("user.ads.sell") },
              { value: "PURCHASE", label: t("user.ads.buy") },
            ]}
            value={type}
            onChange={chooseType}
          />
          <Button look="primary" stretched data-testid="p2p-create-ad" onClick={() => void go(createOfferRoute, { search: { offerType: type } })}>
            {t("user.ads.create")}
          </Button>
        </div>
        {offers.status === "pending" ? (
          <SkeletonList rows={3} label={t("maker.loading")} />
        ) : offers.status === "error" ? (
          <MakerLoadError retry={() => void offers.refetch()} />
        ) : offers.data.length === 0 ? (
          <Placeholder
            data-testid="p2p-no-ads"
            title={t("user.ads.empty")}
            description={t(type === "SALE" ? "user.ads.emptySale" : "user.ads.emptyPurchase")}
          />
        ) : (
          <div data-testid="p2p-my-offers">
            {offers.data.map((offer) => (
              <MyOfferRow key={offer.id} offer={offer} onStatus={open} />
            ))}
          </div>
        )}
      </Section>
      <BottomSheet
        open={change !== null}
        onClose={close}
        closeLabel={t("maker.close")}
        title={change === null ? undefined : t(change.to === "INACTIVE" ? "user.ads.stopTitle" : "user.ads.activateTitle")}
        footer={
          change === null ? undefined : (
            <div style={{ display: "flex", flexDirection: "column", gap: 8 }}>
              <Button
                look={change.to === "INACTIVE" ? "destructive" : "primary"}
                size="l"
                stretched
                data-testid="p2p-offer-status-confirm"
                loading={move.isPending}
                loadingLabel={t("maker.loading")}
                onClick={() => move.mutate(change)}
              >
                {t(change.to === "INACTIVE" ? "user.ads.stopConfirm" : "user.ads.activateConfirm")}
              </Button>
              <Button look="secondary" size="l" stretched data-testid="p2p-offer-status-cancel" disabled={move.isPending} onClick={close}>
                {t("maker.cancel")}
              </Button>
            </div>
          )
        }
      >
        {change !== null && (
          <div style={{ padding: "0 16px 8px" }}>
            <p style={{ margin: 0, lineHeight: 1.4 }}>
              {change.to === "INACTIVE"
                ? t(change.offer.type === "SALE" ? "user.ads.stopText" : "user.ads.stopTextPurchase")
                : holdAgain !== null
                  ? t("user.ads.activateText", { amount: formatCrypto(holdAgain, change.offer.crypto) })
                  : t("user.ads.activateTextPurchase")}
            </p>
            {move.error !== null && (
              <p role="alert" style={{ ...alertStyle, margin: "8px 0 0" }} data-testid="p2p-offer-status-error">
                {t(makerErrorKey(errorCode(move.error)), { crypto: change.offer.crypto })}
              </p>
            )}
          </div>
        )}
      </BottomSheet>
    </>
  )
}

/** /p2p/user (spec 3 §2.1): the user's P2P profile, what their ads hold, their ads, and the ways to payment methods and notifications. */
export default function UserScreen() {
  const kernel = useKernel()
  const t = useT("p2p")
  const go = useGo()
  const user = useQuery({ queryKey: keys.user, queryFn: () => loadUser(kernel), staleTime: STALE.user })
  const settings = useQuery({ queryKey: keys.settings, queryFn: () => loadSettings(kernel) })

  if (user.status === "pending" || settings.status === "pending") {
    return (
      <main style={pageStyle} aria-busy="true">
        <SkeletonList rows={5} label={t("maker.loading")} />
      </main>
    )
  }
  if (user.status === "error") {
    return (
      <main style={pageStyle}>
        <MakerLoadError retry={() => void user.refetch()} />
      </main>
    )
  }
  const profile = user.data
  const held = profile.inOffers.filter((x) => BigInt(x.amount) > 0n)
  return (
    <main style={pageStyle} data-testid="p2p-user">
      <h1 style={titleStyle}>{t("user.title")}</h1>
      <List>
        <Section>
          <Cell
            before={<Avatar name={profile.name} colorSeed={avatarColorIndex(profile.userId)} size={48} />}
            title={
              <>
                <span data-testid="p2p-user-name">{profile.name}</span> <TrustedBadge trusted={profile.trustedMerchant} />
              </>
            }
            subtitle={<span data-testid="p2p-user-orders">{t("user.orders", { count: profile.completedOrders })}</span>}
            after={
              <span data-testid="p2p-user-rate" style={{ color: "var(--wk-color-hint)" }}>
                {profile.completionRate === null ? t("user.noRate") : t("user.rate", { rate: profile.completionRate })}
              </span>
            }
          />
          <Cell
            title={t("user.inAds")}
            after={
              <span data-testid="p2p-user-in-offers">
                {held.length === 0 ? formatCrypto(0n, "USDT") : held.map((x) => formatCrypto(x.amount, x.crypto)).join(" · ")}
              </span>
            }
          />
        </Section>
        <ReputationDetails userId={profile.userId} />
        <Section>
          <Cell chevron data-testid="p2p-user-payments" title={t("user.payments")} onClick={() => void go(paymentsRoute)} />
          <Cell
            chevron
            data-testid="p2p-user-notifications"
            title={t("user.notifications")}
            onClick={() => void go(notificationsRoute, { params: { id: String(profile.userId) } })}
          />
          <Cell
            chevron
            data-testid="p2p-user-merchant"
            title={t("merchant.entry.title")}
            subtitle={t(profile.trustedMerchant === true ? "merchant.entry.trusted" : "merchant.entry.apply")}
            onClick={() => void go(trustedMerchantRoute)}
          />
          <Cell
            chevron
            data-testid="p2p-user-export"
            title={t("merchant.entry.export")}
            subtitle={t("merchant.entry.exportSubtitle")}
            onClick={() => void go(exportHistoryRoute)}
          />
        </Section>
        <MyAds initialType={settings.data?.createOfferTypeInUserProfile ?? "SALE"} />
      </List>
      <p style={noteStyle}>{t("user.inAdsNote")}</p>
    </main>
  )
}
