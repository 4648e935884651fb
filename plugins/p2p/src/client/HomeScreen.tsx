import { useEffect } from "react"
import { useSearch } from "@tanstack/react-router"
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { useGo, useKernel, useT } from "@wallet/kernel-react"
import { Button, Cell, List, Placeholder, Section, SegmentedControl, SkeletonList } from "@wallet/kernel-react/ui"
import type { Order } from "../api.ts"
import { hasNextPage, historyFilterOf, serverFilterOf, unavailableWhyOf, type HistoryFilter } from "../domain.ts"
import { createOfferRoute, expressRoute, offerListRoute, orderRoute, p2pHomeRoute, p2pUnavailableRoute, p2pUserRoute, paymentsRoute } from "../routes.ts"
import { errorCode, errorField, initUser, keys, loadHistory, loadUser, STALE } from "./client.ts"
import { counterpartyOf, errorKey, formatCrypto, formatFiat } from "./market.ts"
import { alertStyle, leadStyle, LoadError, padStyle, pageStyle, titleStyle } from "./marketParts.tsx"

const PAGE = 20
const FILTERS: ReadonlyArray<HistoryFilter> = ["active", "completed", "canceled"]

/** One order of the history list (testid p2p-order-row-<id>). */
export function OrderRow({ order, onOpen }: { readonly order: Order; readonly onOpen: () => void }) {
  const t = useT("p2p")
  const kernel = useKernel()
  const locale = kernel.i18n.language()
  const other = counterpartyOf(order)
  return (
    <Cell
      data-testid={`p2p-order-row-${order.id}`}
      data-status={order.status}
      title={t(order.side === "buyer" ? "market.home.buying" : "market.home.selling", { amount: formatCrypto(order.amount, order.crypto) })}
      subtitle={t("market.home.orderLine", { fiat: formatFiat(order.fiatAmount, order.fiat, locale), name: other.name })}
      after={t(`order.status.${order.status}`)}
      chevron
      onClick={onOpen}
    />
  )
}

/**
 * /p2p (spec 3 §2.1, §4.1): the market's home. A user the market is closed to goes to the unavailable
 * screen; a new user sees the onboarding first. Then Buy / Sell, the ways to the profile, payment methods
 * and a new ad, and the user's orders by status (20 a page, more only after a full page).
 */
export default function HomeScreen() {
  const kernel = useKernel()
  const t = useT("p2p")
  const go = useGo()
  const queryClient = useQueryClient()
  const search = useSearch({ strict: false }) as { readonly filter?: string }
  const filter = historyFilterOf(search.filter)
  const status = serverFilterOf(filter)

  const user = useQuery({ queryKey: keys.user, queryFn: () => loadUser(kernel), staleTime: STALE.user })
  const why = user.data?.unavailable ?? null
  // Issue 21, spec 3 §4.1: an express-only user gets express mode instead of the full market.
  const expressOnly = user.data?.expressOnly === true
  useEffect(() => {
    if (why !== null) void go(p2pUnavailableRoute, { search: { why }, replace: true })
    else if (expressOnly) void go(expressRoute, { replace: true })
  }, [why, expressOnly, go])

  const start = useMutation({
    mutationFn: () => initUser(kernel),
    onSuccess: (next) => queryClient.setQueryData(keys.user, next),
    onError: (error) => {
      if (errorCode(error) === "p2p_unavailable") void go(p2pUnavailableRoute, { search: { why: unavailableWhyOf(errorField(error, "why")) }, replace: true })
    },
  })

  const ready = user.data !== undefined && user.data.unavailable === null && user.data.p2pInitialized
  const orders = useInfiniteQuery({
    queryKey: [...keys.history(status), "pages"],
    queryFn: ({ pageParam }) => loadHistory(kernel, { offset: pageParam, limit: PAGE, filter: { status } }),
    initialPageParam: 0,
    getNextPageParam: (last, pages) => (hasNextPage(last.length, PAGE) ? pages.length * PAGE : undefined),
    enabled: ready,
  })

  if (user.status === "pending" || why !== null || expressOnly) {
    return (
      <main style={pageStyle}>
        <SkeletonList rows={4} label={t("market.loading")} />
      </main>
    )
  }
  if (user.status === "error") {
    return (
      <main style={pageStyle}>
        <LoadError retry={() => void user.refetch()} />
      </main>
    )
  }

  if (!user.data.p2pInitialized) {
    return (
      <main style={pageStyle} data-testid="p2p-onboarding">
        <h1 style={titleStyle}>{t("market.onboarding.title")}</h1>
        <p style={leadStyle}>{t("market.onboarding.what")}</p>
        <List>
          <Section>
            <Cell multiline title={t("market.onboarding.step1.title")} description={t("market.onboarding.step1.text")} />
            <Cell multiline title={t("market.onboarding.step2.title")} description={t("market.onboarding.step2.text")} />
            <Cell multiline title={t("market.onboarding.step3.title")} description={t("market.onboarding.step3.text")} />
          </Section>
        </List>
        {start.isError && errorCode(start.error) !== "p2p_unavailable" && (
          <p role="alert" style={alertStyle}>
            {t(errorKey(errorCode(start.error)))}
          </p>
        )}
        <div style={padStyle}>
          <Button
            look="primary"
            size="l"
            stretched
            data-testid="p2p-start"
            loading={start.isPending}
            loadingLabel={t("market.loading")}
            onClick={() => start.mutate()}
          >
            {t("market.onboarding.start")}
          </Button>
        </div>
      </main>
    )
  }

  const items = orders.data?.pages.flat() ?? []
  const setFilter = (next: HistoryFilter) => void go(p2pHomeRoute, { search: { ...search, filter: next }, replace: true })

  return (
    <main style={pageStyle}>
      <h1 style={titleStyle}>{t("market.home.title")}</h1>
      <div style={{ display: "flex", gap: 8, padding: "0 16px 16px" }}>
        <Button look="primary" size="l" stretched data-testid="p2p-buy" onClick={() => void go(offerListRoute, { params: { type: "SALE" } })}>
          {t("market.home.buy")}
        </Button>
        <Button look="primary" size="l" stretched data-testid="p2p-sell" onClick={() => void go(offerListRoute, { params: { type: "PURCHASE" } })}>
          {t("market.home.sell")}
        </Button>
      </div>
      <List>
        <Section>
          <Cell data-testid="p2p-profile" title={t("market.home.profile")} chevron onClick={() => void go(p2pUserRoute)} />
          <Cell data-testid="p2p-payments" title={t("market.home.payments")} chevron onClick={() => void go(paymentsRoute)} />
          <Cell data-testid="p2p-create-ad" title={t("market.home.createAd")} chevron onClick={() => void go(createOfferRoute)} />
          <Cell
            data-testid="p2p-express-entry"
            title={t("express.entry.title")}
            subtitle={t("express.entry.text")}
            chevron
            onClick={() => void go(expressRoute)}
          />
        </Section>
        <Section header={t("market.home.orders")}>
          <div style={{ padding: "8px 16px" }} data-testid="p2p-orders" data-filter={filter}>
            <SegmentedControl
              aria-label={t("market.home.ordersFilter")}
              stretched
              items={FILTERS.map((value) => ({ value, label: t(`market.home.filter.${value}`) }))}
              value={filter}
              onChange={setFilter}
            />
          </div>
          {orders.status === "pending" ? (
            <SkeletonList rows={3} label={t("market.loading")} />
          ) : orders.status === "error" ? (
            <LoadError retry={() => void orders.refetch()} />
          ) : items.length === 0 ? (
            <Placeholder data-testid="p2p-orders-empty" title={t(`market.home.empty.${filter}`)} />
          ) : (
            items.map((order) => <OrderRow key={order.id} order={order} onOpen={() => void go(orderRoute, { params: { id: String(order.id) } })} />)
          )}
        </Section>
        {orders.hasNextPage && (
          <div style={padStyle}>
            <Button
              look="secondary"
              stretched
              data-testid="p2p-orders-more"
              loading={orders.isFetchingNextPage}
              loadingLabel={t("market.loading")}
              onClick={() => void orders.fetchNextPage()}
            >
              {t("market.showMore")}
            </Button>
          </div>
        )}
      </List>
    </main>
  )
}
