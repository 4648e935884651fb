import { useEffect } from "react"
import { useParams, useSearch } from "@tanstack/react-router"
import { useQuery } from "@tanstack/react-query"
import { useGo, useKernel, useT } from "@wallet/kernel-react"
import { Button, SkeletonList } from "@wallet/kernel-react/ui"
import { offerListRoute, offerRoute, p2pUnavailableRoute, p2pUserRoute } from "../routes.ts"
import { keys, loadUser, STALE } from "./client.ts"
import { idOf } from "./market.ts"
import { LoadError, NotFound, pageStyle } from "./marketParts.tsx"

/**
 * /p2p/offers/$id/start-param-landing?offerUserId= (spec 1 §2 start param `offerid_<id>_<userId>`): the
 * owner of the ad goes to their own profile (their ads), anyone else to the ad.
 */
export default function OfferLandingScreen() {
  const kernel = useKernel()
  const t = useT("p2p")
  const go = useGo()
  const params = useParams({ strict: false }) as { readonly id?: string }
  const search = useSearch({ strict: false }) as { readonly offerUserId?: number | string }
  const id = idOf(params.id)
  const user = useQuery({ queryKey: keys.user, queryFn: () => loadUser(kernel), staleTime: STALE.user, enabled: id !== null })
  const data = user.data

  useEffect(() => {
    if (id === null || data === undefined) return
    if (data.unavailable !== null) void go(p2pUnavailableRoute, { search: { why: data.unavailable }, replace: true })
    else if (search.offerUserId !== undefined && Number(search.offerUserId) === data.userId) void go(p2pUserRoute, { replace: true })
    else void go(offerRoute, { params: { id: String(id) }, replace: true })
  }, [id, data, search.offerUserId, go])

  if (id === null) {
    return (
      <NotFound
        kind="offer"
        action={
          <Button look="secondary" size="s" onClick={() => void go(offerListRoute, { params: { type: "SALE" }, replace: true })}>
            {t("market.toOffers")}
          </Button>
        }
      />
    )
  }
  return (
    <main style={pageStyle}>
      {user.status === "error" ? <LoadError retry={() => void user.refetch()} /> : <SkeletonList rows={4} label={t("market.loading")} />}
    </main>
  )
}
