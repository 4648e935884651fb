import { useParams, useSearch } from "@tanstack/react-router"
import { useQuery } from "@tanstack/react-query"
import { useGo, useKernel, useT } from "@wallet/kernel-react"
import { Button, Cell, List, Placeholder, Section, SkeletonList, useSnackbar } from "@wallet/kernel-react/ui"
import type { OfferType } from "../domain.ts"
import { p2pUserRoute } from "../routes.ts"
import { keys, loadOffer } from "./client.ts"
import { offerShareLink } from "./maker.ts"
import { MessagePage } from "./makerParts.tsx"
import { formatCrypto, formatFiat, idOf } from "./market.ts"
import { padStyle, pageStyle } from "./marketParts.tsx"

interface SuccessSearch {
  readonly mode?: "create" | "edit"
  readonly status?: string
  readonly baseCurrencyCode?: string
  readonly quoteCurrencyCode?: string
  readonly offerType?: OfferType
}

/**
 * /p2p/offers/$id/success (spec 3 §2.1; search mode, status, baseCurrencyCode, quoteCurrencyCode,
 * offerType): the ad is published or updated. A summary, the ad's link to share and the way to My ads.
 */
export default function OfferSuccessScreen() {
  const kernel = useKernel()
  const t = useT("p2p")
  const go = useGo()
  const snackbar = useSnackbar()
  const params = useParams({ strict: false }) as { readonly id?: string }
  const search = useSearch({ strict: false }) as SuccessSearch
  const id = idOf(params.id)
  const offer = useQuery({ queryKey: keys.offer(id ?? 0), queryFn: () => loadOffer(kernel, id!), enabled: id !== null })
  const locale = kernel.i18n.language()

  const toMyAds = () => void go(p2pUserRoute, { replace: true })
  if (id === null) {
    return (
      <MessagePage
        title={t("maker.offerNotFound")}
        action={
          <Button look="secondary" size="s" onClick={toMyAds}>
            {t("maker.toMyAds")}
          </Button>
        }
      />
    )
  }

  const data = offer.data
  const type = data?.type ?? search.offerType
  const crypto = data?.crypto ?? search.baseCurrencyCode ?? ""
  const fiat = data?.fiat ?? search.quoteCurrencyCode ?? ""
  const status = data?.status ?? search.status
  const edited = search.mode === "edit"

  const share = async () => {
    const user = kernel.user()
    const userId = data?.user.userId ?? user?.id
    if (userId === undefined) return
    const link = offerShareLink(user?.botUsername, id, userId)
    try {
      if (navigator.clipboard === undefined) throw new Error("no clipboard")
      await navigator.clipboard.writeText(link)
      kernel.telegram.haptic({ type: "notification", kind: "success" })
      snackbar.show({ id: "p2p-offer-link", text: t("maker.success.copied"), description: link })
    } catch {
      // No clipboard in this webview: Telegram's share sheet carries the link instead.
      kernel.telegram.openLink(`https://t.me/share/url?url=${encodeURIComponent(link)}&text=${encodeURIComponent(t("maker.success.shareText", { crypto }))}`)
    }
  }

  return (
    <main style={pageStyle} data-testid="p2p-offer-success" data-mode={edited ? "edit" : "create"}>
      <Placeholder
        headingLevel={1}
        title={<span data-testid="p2p-offer-success-title">{t(edited ? "maker.success.updated" : "maker.success.published")}</span>}
        description={
          status === "INACTIVE" ? t("maker.success.inactive") : t(type === "PURCHASE" ? "maker.success.notePurchase" : "maker.success.noteSale", { crypto })
        }
      />
      <List>
        {offer.status === "pending" ? (
          <SkeletonList rows={3} before={false} label={t("maker.loading")} />
        ) : (
          <Section header={t("maker.success.summary")}>
            {type !== undefined && <Cell title={t(`maker.type.${type}`)} after={`${crypto} · ${fiat}`} />}
            {data !== undefined && (
              <>
                <Cell title={t("maker.offer.price")} after={formatFiat(data.priceCents, data.fiat, locale)} />
                <Cell title={t("maker.offer.volume")} after={formatCrypto(data.volume, data.crypto)} />
                <Cell
                  title={t("maker.offer.limits")}
                  after={t("maker.offer.limitsValue", {
                    min: formatFiat(data.minOrderFiat, data.fiat, locale),
                    max: formatFiat(data.maxOrderFiat, data.fiat, locale),
                  })}
                />
              </>
            )}
            {status !== undefined && (
              <Cell title={t("maker.offer.status")} after={t(status === "INACTIVE" ? "maker.status.INACTIVE" : "maker.status.ACTIVE")} />
            )}
          </Section>
        )}
      </List>
      <div style={padStyle}>
        <Button look="primary" size="l" stretched data-testid="p2p-offer-share" onClick={() => void share()}>
          {t("maker.success.share")}
        </Button>
        <Button look="secondary" size="l" stretched data-testid="p2p-offer-my-ads" onClick={toMyAds}>
          {t("maker.success.myAds")}
        </Button>
      </div>
    </main>
  )
}
