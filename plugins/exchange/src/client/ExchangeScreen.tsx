import { useEffect, useState } from "react"
import { useSearch } from "@tanstack/react-router"
import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query"
import { useGo, useGoTo, useKernel, useT } from "@wallet/kernel-react"
import { AmountInput, Banner, BottomSheet, Button, Cell, IconButton, List, Section, SkeletonList } from "@wallet/kernel-react/ui"
import type { Quote } from "../api.ts"
import type { ExchangeMode } from "../domain.ts"
import { assetRoute, exchangeConfirmationRoute, exchangeRoute, exchangeSearchRoute } from "../routes.ts"
import { errorBody, errorCode, exchangeKeys, loadBalances, loadQuote, loadSettings, requestQuote } from "./api.ts"
import { alertStyle, hintStyle, LoadError, padStyle, pageStyle, RegionSheet, titleStyle, TradingHoursSheet, usePlatform } from "./parts.tsx"
import { apiAmount, errorKey, marketClosedFor, parseUnits, pickPair, shortRate, successTarget, swapped, type ExchangeCurrency } from "./view.ts"

/** The search of /exchange as its route's check left it (see routes.ts). */
interface Search {
  readonly payCurrency?: string
  readonly receiveCurrency?: string
  readonly currenciesLocked?: boolean
  readonly exchangeMode?: ExchangeMode
  readonly tradingMode?: "buy" | "sell"
  readonly successRedirect?: string
  readonly successButtonI18nKey?: string
  readonly payValue?: string
  readonly receiveValue?: string
  readonly confirmExchangeUid?: string
  readonly showSuccessBottomsheet?: boolean
}

/** The value after it stopped changing for `ms` (the quote follows the typing without a call per key). */
function useSettled<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value)
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms)
    return () => clearTimeout(timer)
  }, [value, ms])
  return settled
}

const SwapIcon = () => (
  <svg width="24" height="24" viewBox="0 0 24 24" aria-hidden="true" fill="currentColor">
    <path d="M7 4 3 8l4 4V9h9V7H7V4Zm10 8v3H8v2h9v3l4-4-4-4Z" />
  </svg>
)

/** The success bottom sheet of an executed quote (showSuccessBottomsheet + confirmExchangeUid). */
function SuccessSheet({ uid, onDone, buttonKey }: { readonly uid: string; readonly onDone: (quote: Quote | undefined) => void; readonly buttonKey?: string }) {
  const kernel = useKernel()
  const t = useT("exchange")
  const [open, setOpen] = useState(true)
  const quote = useQuery({ queryKey: exchangeKeys.byUid(uid), queryFn: () => loadQuote(kernel, uid) })
  const executed = quote.data?.status === "EXECUTED" ? quote.data : undefined
  return (
    <BottomSheet
      open={open}
      onClose={() => setOpen(false)}
      onClosed={() => onDone(executed)}
      title={t("success.title")}
      closeLabel={t("close")}
      footer={
        <Button look="primary" size="l" stretched data-testid="exchange-success-done" onClick={() => setOpen(false)}>
          {buttonKey !== undefined ? t(buttonKey, { defaultValue: t("success.done") }) : t("success.done")}
        </Button>
      }
    >
      <div data-testid="exchange-success" style={{ padding: "0 16px 8px" }}>
        {executed === undefined ? (
          <SkeletonList rows={1} before={false} label={t("loading")} />
        ) : (
          <p style={{ margin: 0 }} data-testid="exchange-success-text">
            {t("success.text", { pay: `${executed.payAmount} ${executed.payCurrency}`, receive: `${executed.receiveAmount} ${executed.receiveCurrency}` })}
          </p>
        )}
      </div>
    </BottomSheet>
  )
}

/** One side of the form: the currency (a button to the search unless locked), the amount, the balance. */
function Side({
  label,
  testId,
  currency,
  value,
  onChange,
  onChoose,
  locked,
  note,
  invalid,
}: {
  readonly label: string
  readonly testId: "pay" | "receive"
  readonly currency: ExchangeCurrency
  readonly value: string
  readonly onChange: (value: string) => void
  readonly onChoose: () => void
  readonly locked: boolean
  readonly note?: string | undefined
  readonly invalid?: boolean
}) {
  const t = useT("exchange")
  return (
    <Section header={label}>
      <div style={{ padding: "8px 16px", display: "flex", flexDirection: "column", gap: 8 }}>
        <div style={{ display: "flex", alignItems: "center", gap: 8 }}>
          <div style={{ flex: 1, minWidth: 0 }}>
            <AmountInput
              aria-label={t("amountLabel", { side: label, currency: currency.code })}
              data-testid={`exchange-${testId}-input`}
              value={value}
              onChange={onChange}
              decimals={currency.decimals}
              size="l"
              placeholder="0"
              invalid={invalid}
            />
          </div>
          <Button
            look="secondary"
            size="s"
            data-testid={`exchange-${testId}-currency`}
            disabled={locked}
            aria-label={t("chooseCurrency", { side: label, currency: currency.code })}
            onClick={onChoose}
          >
            {currency.code}
          </Button>
        </div>
        {note !== undefined && (
          <span style={hintStyle} data-testid={`exchange-${testId}-note`}>
            {note}
          </span>
        )}
      </div>
    </Section>
  )
}

/**
 * /exchange (spec 1 §2): pay and receive inputs, typing in one computes the other from a quote (priced by
 * the server, debounced), the swap of sides, the currency search, min/max and balance messages, the
 * trading-hours modal for stock tokens outside market hours, and Continue to the quote's confirmation.
 * Back from a confirmed quote it shows the success sheet, then goes to successRedirect or the asset.
 */
export default function ExchangeScreen() {
  const kernel = useKernel()
  const t = useT("exchange")
  const go = useGo()
  const queries = useQueryClient()
  const platform = usePlatform()
  const goTo = useGoTo()
  const search = useSearch({ strict: false }) as Search

  const settings = useQuery({ queryKey: exchangeKeys.settings, queryFn: () => loadSettings(kernel), staleTime: 30_000 })
  const balances = useQuery({ queryKey: exchangeKeys.balances, queryFn: () => loadBalances(kernel), staleTime: 10_000 })

  const mode: ExchangeMode = search.exchangeMode === "receive" ? "receive" : "pay"
  const initialText = (mode === "pay" ? search.payValue : search.receiveValue) ?? ""
  const [text, setText] = useState<string>(initialText)
  // The sheets open from what the screen knows and stay closed once dismissed for that pair / request.
  const [tradingDismissed, setTradingDismissed] = useState<string | null>(null)
  const [regionDismissed, setRegionDismissed] = useState<string | null>(null)

  const currencies = settings.data?.currencies ?? []
  const pair =
    currencies.length < 2 ? null : pickPair(currencies, { pay: search.payCurrency, receive: search.receiveCurrency, tradingMode: search.tradingMode })
  const payInfo = currencies.find((c) => c.code === pair?.pay)
  const receiveInfo = currencies.find((c) => c.code === pair?.receive)
  const typedInfo = mode === "pay" ? payInfo : receiveInfo
  const typed = typedInfo === undefined ? null : parseUnits(text, typedInfo.decimals)
  const request =
    pair !== null && typed !== null && typed > 0n
      ? { payCurrency: pair.pay as never, receiveCurrency: pair.receive as never, exchangeMode: mode, amount: apiAmount(text), platform }
      : null
  const requestText = request === null ? null : JSON.stringify(request)
  const settledText = useSettled(requestText, 350)
  const settled = settledText === null ? null : (JSON.parse(settledText) as NonNullable<typeof request>)
  const closed = settings.data !== undefined && pair !== null && marketClosedFor(settings.data, pair.pay, pair.receive)
  const quote = useQuery({
    queryKey: exchangeKeys.quote(settled ?? { payCurrency: "USDT", receiveCurrency: "TON", exchangeMode: "pay", amount: "0" }),
    queryFn: () => requestQuote(kernel, settled!),
    enabled: settled !== null && !closed,
    placeholderData: keepPreviousData,
    staleTime: 5_000,
    retry: false,
  })
  const current = settledText !== null && settledText === requestText && !quote.isPlaceholderData
  const shown = current ? quote.data : undefined
  const code = current && quote.isError ? errorCode(quote.error) : undefined

  // The trading-hours modal: a stock pair outside market hours (by the server's clock), or the server saying so.
  const pairKey = pair === null ? "" : `${pair.pay}/${pair.receive}`
  const tradingSheet = (closed || code === "trading_closed") && tradingDismissed !== pairKey
  const regionSheet = code === "region_restricted" && regionDismissed !== settledText

  if (settings.status === "error" || balances.status === "error") {
    return (
      <main style={pageStyle}>
        <LoadError
          retry={() => {
            void settings.refetch()
            void balances.refetch()
          }}
        />
      </main>
    )
  }
  if (settings.data === undefined || balances.data === undefined || pair === null || payInfo === undefined || receiveInfo === undefined) {
    return (
      <main style={pageStyle}>
        <SkeletonList rows={4} label={t("loading")} />
      </main>
    )
  }

  const keep = { ...search } as Record<string, unknown>
  const navigate = (next: Record<string, unknown>) => void go(exchangeRoute, { search: { ...keep, ...next } as never, replace: true })
  const setSide = (side: ExchangeMode, value: string) => {
    setText(value)
    if (side !== mode) navigate({ exchangeMode: side, confirmExchangeUid: undefined, showSuccessBottomsheet: undefined })
  }
  const swap = () => {
    const next = swapped({ pay: pair.pay, receive: pair.receive, mode, text })
    navigate({
      payCurrency: next.pay,
      receiveCurrency: next.receive,
      exchangeMode: next.mode,
      prevPayValue: shown?.payAmount,
      prevReceiveValue: shown?.receiveAmount,
      payValue: next.mode === "pay" ? text : undefined,
      receiveValue: next.mode === "receive" ? text : undefined,
    })
  }
  const choose = (searchBy: ExchangeMode) =>
    void go(exchangeSearchRoute, {
      search: {
        searchBy,
        payCurrency: pair.pay,
        receiveCurrency: pair.receive,
        exchangeMode: mode,
        ...(search.tradingMode !== undefined ? { tradingMode: search.tradingMode } : {}),
        ...(search.successRedirect !== undefined ? { successRedirect: search.successRedirect } : {}),
        ...(search.successButtonI18nKey !== undefined ? { successButtonI18nKey: search.successButtonI18nKey } : {}),
        ...(mode === "pay" ? { payValue: text } : { receiveValue: text }),
      },
    })
  const proceed = (q: Quote) => {
    queries.setQueryData(exchangeKeys.byUid(q.uid), q)
    navigate({ payValue: q.payAmount, receiveValue: q.receiveAmount, confirmExchangeUid: q.uid })
    void go(exchangeConfirmationRoute, {
      search: {
        uid: q.uid,
        ...(search.successRedirect !== undefined ? { successRedirect: search.successRedirect } : {}),
        ...(search.successButtonI18nKey !== undefined ? { successButtonI18nKey: search.successButtonI18nKey } : {}),
      },
    })
  }
  const finish = (executed: Quote | undefined) => {
    const target = successTarget(search.successRedirect, executed?.receiveCurrency ?? pair.receive)
    if ("path" in target) void goTo({ to: target.path })
    else void go(assetRoute, { params: { assetCurrency: target.asset } })
  }

  const balance = balances.data.get(pair.pay) ?? "0"
  const payText = mode === "pay" ? text : (shown?.payAmount ?? "")
  const receiveText = mode === "receive" ? text : (shown?.receiveAmount ?? "")
  const overBalance = shown?.insufficientBalance === true || (mode === "pay" && typed !== null && typed > (parseUnits(balance, payInfo.decimals) ?? 0n))
  const body = code === undefined ? {} : errorBody(quote.error)
  const limit = typeof body.limit === "string" ? body.limit : undefined
  const limitCurrency = mode === "pay" ? pair.pay : pair.receive
  const problem =
    code === "amount_too_small" && limit !== undefined
      ? t("error.min", { amount: `${limit} ${limitCurrency}` })
      : code === "amount_too_large" && limit !== undefined
        ? t("error.max", { amount: `${limit} ${limitCurrency}` })
        : code === "insufficient_liquidity" && limit !== undefined
          ? t("error.liquidityLimit", { amount: `${limit} ${pair.receive}` })
          : code !== undefined && code !== "region_restricted"
            ? t(errorKey(code))
            : overBalance
              ? t("error.insufficient_balance")
              : null
  const pending = request !== null && (!current || quote.isFetching) && code === undefined && !closed
  const locked = search.currenciesLocked === true

  return (
    <main style={pageStyle} data-testid="exchange" data-mode={mode}>
      <h1 style={titleStyle}>{t(search.tradingMode === "buy" ? "titleBuy" : search.tradingMode === "sell" ? "titleSell" : "title")}</h1>
      <List>
        <Side
          label={t("youPay")}
          testId="pay"
          currency={payInfo}
          value={payText}
          onChange={(value) => setSide("pay", value)}
          onChoose={() => choose("pay")}
          locked={locked}
          note={t("balance", { amount: `${balance} ${pair.pay}` })}
          invalid={overBalance}
        />
        <div style={{ display: "flex", justifyContent: "center", margin: "-8px 0" }}>
          <IconButton aria-label={t("swap")} data-testid="exchange-swap" look="secondary" onClick={swap} disabled={locked}>
            <SwapIcon />
          </IconButton>
        </div>
        <Side
          label={t("youReceive")}
          testId="receive"
          currency={receiveInfo}
          value={receiveText}
          onChange={(value) => setSide("receive", value)}
          onChoose={() => choose("receive")}
          locked={locked}
        />
        {shown !== undefined && (
          <Section>
            <Cell
              title={t("rate")}
              after={<span data-testid="exchange-rate">{`1 ${shown.payCurrency} ≈ ${shortRate(shown.rate)} ${shown.receiveCurrency}`}</span>}
            />
            <Cell title={t("fee")} after={<span data-testid="exchange-fee">{`${shown.fee} ${shown.payCurrency}`}</span>} />
          </Section>
        )}
      </List>
      <div style={padStyle} aria-live="polite">
        {shown?.sandbox === true && <Banner tone="info" data-testid="exchange-sandbox" title={t("sandbox")} />}
        {problem !== null && (
          <span role="alert" style={alertStyle} data-testid="exchange-problem" data-code={code ?? (overBalance ? "insufficient_balance" : "")}>
            {problem}
          </span>
        )}
        {pending && <span style={hintStyle}>{t("pricing")}</span>}
        <Button
          look="primary"
          size="l"
          stretched
          data-testid="exchange-continue"
          disabled={shown === undefined || overBalance || closed}
          onClick={() => shown !== undefined && proceed(shown)}
        >
          {t("continue")}
        </Button>
        <p style={{ ...hintStyle, margin: 0 }}>
          {t("limits", {
            min: (settings.data.minUsdCents / 100).toLocaleString(kernel.i18n.language(), { minimumFractionDigits: 2, maximumFractionDigits: 2 }),
            max: (settings.data.maxUsdCents / 100).toLocaleString(kernel.i18n.language(), { maximumFractionDigits: 0 }),
          })}
        </p>
      </div>
      <TradingHoursSheet open={tradingSheet} nextOpening={settings.data.nextMarketOpening} onClose={() => setTradingDismissed(pairKey)} />
      <RegionSheet open={regionSheet} onClose={() => setRegionDismissed(settledText)} />
      {search.showSuccessBottomsheet === true && typeof search.confirmExchangeUid === "string" && (
        <SuccessSheet uid={search.confirmExchangeUid} buttonKey={search.successButtonI18nKey} onDone={finish} />
      )}
    </main>
  )
}
