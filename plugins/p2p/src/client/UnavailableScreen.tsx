import { useSearch } from "@tanstack/react-router"
import { useGo, useKernel, useT, useTrackEvent } from "@wallet/kernel-react"
import { Button, Placeholder } from "@wallet/kernel-react/ui"
import { configOf } from "../config.ts"
import { unavailableWhyOf, type UnavailableWhy } from "../domain.ts"
import { walletMainRoute } from "../routes.ts"
import { padStyle, pageStyle } from "./marketParts.tsx"

export interface UnavailableViewProps {
  readonly why: UnavailableWhy
  /** Countries (ISO alpha-2) whose users do not see the region page's extra text. */
  readonly hideRegionTextFor?: ReadonlyArray<string>
}

/** The unavailable page's body (spec 3 §2.1): the texts per reason, the links the config gives, a way back. */
export function UnavailableView({ why, hideRegionTextFor = [] }: UnavailableViewProps) {
  const kernel = useKernel()
  const t = useT("p2p")
  const go = useGo()
  const config = configOf(kernel)
  useTrackEvent("p2p.restricted_market_opened", { why })

  const country = kernel.user()?.countryAlpha2Code ?? null
  const showRegionText = why === "region" && !(country !== null && hideRegionTextFor.includes(country.toUpperCase()))
  const link = why === "region" ? config.purchaseOptionsUrl : why === "generic" ? config.learnMoreUrl : undefined
  const back = () => {
    if (window.history.length > 1) window.history.back()
    else void go(walletMainRoute, { replace: true })
  }

  return (
    <main style={pageStyle} data-testid="p2p-unavailable" data-why={why}>
      <Placeholder
        headingLevel={1}
        title={t(`market.unavailable.${why}.title`)}
        description={
          <>
            {t(`market.unavailable.${why}.text`)}
            {showRegionText && (
              <>
                <br />
                <br />
                {t("market.unavailable.region.extra")}
              </>
            )}
          </>
        }
      />
      <div style={padStyle}>
        {link !== undefined && (
          <Button look="secondary" stretched data-testid="p2p-unavailable-link" onClick={() => kernel.telegram.openLink(link)}>
            {t(why === "region" ? "market.unavailable.region.purchaseOptions" : "market.unavailable.generic.learnMore")}
          </Button>
        )}
        <Button look="primary" stretched data-testid="p2p-unavailable-back" onClick={back}>
          {t("market.back")}
        </Button>
      </div>
    </main>
  )
}

/** /p2p/unavailable?why=generic|platform|region (spec 3 §2.1, §4.1). */
export default function UnavailableScreen() {
  const search = useSearch({ strict: false }) as { readonly why?: string }
  return <UnavailableView why={unavailableWhyOf(search.why)} />
}
