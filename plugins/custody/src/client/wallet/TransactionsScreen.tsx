import { useCallback, useEffect, useRef, useState } from "react"
import { useSearch } from "@tanstack/react-router"
import { Icon, useGo, useKernel, useT } from "@wallet/kernel-react"
import { List, Placeholder, Section, SkeletonList, Spinner } from "@wallet/kernel-react/ui"
import { TRANSACTIONS_PAGE_SIZE, type Transaction } from "../../api.ts"
import { callWallet, errorTag } from "./data.ts"
import { dayKey, groupByDay } from "./history.ts"
import { TransactionDetails } from "./TransactionDetails.tsx"
import { TransactionRow } from "./TransactionRow.tsx"
import { LoadError, NS, Screen } from "./ui.tsx"
import styles from "./wallet.module.css"
import { transactionsRoute } from "../../routes.ts"

interface Pages {
  readonly items: ReadonlyArray<Transaction>
  readonly nextCursor: string | null
  readonly status: "loading" | "idle" | "more" | "error" | "restricted"
}

const failed = (error: unknown): Pages["status"] => (errorTag(error) === "CustodyForbidden" ? "restricted" : "error")

/**
 * /transactions and /transactions/list?assetCurrency=: the history, newest first, a page at a time
 * (the next page loads when the end of the list scrolls into view); ?transactionId= opens details.
 */
export default function TransactionsScreen() {
  const search = useSearch({ strict: false }) as { transactionId?: string; assetCurrency?: string }
  const [attempt, setAttempt] = useState(0)
  if (search.transactionId) return <TransactionDetails transactionId={search.transactionId} />
  // A new filter or a retry starts the list afresh.
  return <TransactionsList key={`${search.assetCurrency ?? ""}:${attempt}`} currency={search.assetCurrency} onRetry={() => setAttempt((n) => n + 1)} />
}

function TransactionsList({ currency, onRetry }: { readonly currency: string | undefined; readonly onRetry: () => void }) {
  const t = useT(NS)
  const kernel = useKernel()
  const go = useGo()
  const [pages, setPages] = useState<Pages>({ items: [], nextCursor: null, status: "loading" })
  const [now] = useState(() => new Date())
  const sentinel = useRef<HTMLDivElement>(null)
  const language = kernel.i18n.language()

  const fetchPage = useCallback(
    (cursor: string | null) =>
      callWallet(kernel, (c) =>
        c.custody.custodyTransactions.list({
          query: { limit: TRANSACTIONS_PAGE_SIZE, ...(cursor ? { cursor } : {}), ...(currency ? { currency: currency.toUpperCase() } : {}) },
        }),
      ),
    [kernel, currency],
  )
  // The first page (again after a retry or a new filter).
  useEffect(() => {
    let live = true
    fetchPage(null).then(
      (page) => live && setPages({ items: page.items, nextCursor: page.nextCursor, status: "idle" }),
      (error: unknown) => live && setPages({ items: [], nextCursor: null, status: failed(error) }),
    )
    return () => {
      live = false
    }
  }, [fetchPage])

  const loadMore = useCallback(
    (cursor: string) => {
      setPages((p) => ({ ...p, status: "more" }))
      fetchPage(cursor).then(
        (page) =>
          setPages((p) => {
            // A row can move to the next page while new ones arrive on top: keep each id once.
            const seen = new Set(p.items.map((tx) => tx.id))
            return { items: [...p.items, ...page.items.filter((tx) => !seen.has(tx.id))], nextCursor: page.nextCursor, status: "idle" }
          }),
        (error: unknown) => setPages((p) => ({ ...p, status: failed(error) })),
      )
    },
    [fetchPage],
  )

  // Load more on scroll: the sentinel after the last row.
  useEffect(() => {
    const el = sentinel.current
    const cursor = pages.nextCursor
    if (!el || cursor === null || pages.status !== "idle") return
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) loadMore(cursor)
      },
      { rootMargin: "200px" },
    )
    observer.observe(el)
    return () => observer.disconnect()
  }, [pages.nextCursor, pages.status, loadMore])

  const open = (tx: Transaction) => void go(transactionsRoute, { search: { transactionId: tx.id, from: "history" } })
  const title = currency ? t("history.titleAsset", { currency: currency.toUpperCase() }) : t("history.title")
  const dayLabel = (key: string) =>
    key === dayKey(now)
      ? t("history.today")
      : key === dayKey(new Date(now.getTime() - 86_400_000))
        ? t("history.yesterday")
        : new Intl.DateTimeFormat(language, { dateStyle: "long" }).format(new Date(`${key}T12:00:00`))

  return (
    <Screen title={title}>
      {pages.status === "loading" ? (
        <List>
          <Section>
            <SkeletonList label={t("common.loading")} />
          </Section>
        </List>
      ) : pages.status === "restricted" ? (
        <Placeholder icon={<Icon name="alert" size={48} />} title={t("actions.restrictedTitle")} description={t("history.restricted")} />
      ) : pages.status === "error" && pages.items.length === 0 ? (
        <LoadError onRetry={onRetry} />
      ) : pages.items.length === 0 ? (
        <Placeholder icon={<Icon name="wallet" size={48} />} title={t("history.empty")} description={t("history.emptyText")} />
      ) : (
        <>
          <List>
            {groupByDay(pages.items, (tx) => new Date(tx.date)).map(([key, items]) => (
              <Section key={key} header={dayLabel(key)}>
                {items.map((tx) => (
                  <TransactionRow key={tx.id} tx={tx} onOpen={open} />
                ))}
              </Section>
            ))}
          </List>
          <div ref={sentinel} className={styles.sentinel} />
          {pages.status === "more" && <Spinner label={t("history.loadMore")} />}
          {pages.status === "error" && pages.nextCursor !== null && <LoadError onRetry={() => loadMore(pages.nextCursor!)} />}
          {pages.nextCursor === null && <p className={styles.listEnd}>{t("history.end")}</p>}
        </>
      )}
    </Screen>
  )
}
