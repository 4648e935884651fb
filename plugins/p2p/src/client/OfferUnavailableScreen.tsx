import { useSearch } from "@tanstack/react-router"
import { useGo, useT } from "@wallet/kernel-react"
import { Button, Placeholder } from "@wallet/kernel-react/ui"
import { p2pHomeRoute, offerListRoute } from "../routes.ts"
import { unavailableReasonKey } from "./market.ts"
import { padStyle, pageStyle } from "./marketParts.tsx"

/** /p2p/offers/unavailable?offerId&reason&offerType (spec 3 §2.1): why the ad cannot be taken, and other ads. */
export default function OfferUnavailableScreen() {
  const t = useT("p2p")
  const go = useGo()
  const search = useSearch({ strict: false }) as { readonly offerId?: number; readonly reason?: string; readonly offerType?: string }
  const type = search.offerType === "PURCHASE" ? "PURCHASE" : "SALE"
  return (
    <main style={pageStyle} data-testid="p2p-offer-unavailable" data-reason={search.reason ?? "generic"}>
      <Placeholder headingLevel={1} title={t("market.unavailableReason.title")} description={t(unavailableReasonKey(search.reason))} />
      <div style={padStyle}>
        <Button look="primary" stretched data-testid="p2p-other-offers" onClick={() => void go(offerListRoute, { params: { type }, replace: true })}>
          {t("market.unavailableReason.otherOffers")}
        </Button>
        <Button look="secondary" stretched onClick={() => void go(p2pHomeRoute, { replace: true })}>
          {t("market.toHome")}
        </Button>
      </div>
    </main>
  )
}
