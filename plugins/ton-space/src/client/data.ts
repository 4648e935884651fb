/** The wallet main's data: account, jettons, events, and the pending watcher (every 5 s). */
import { useEffect, useRef, useState } from "react"
import { Effect, Schema } from "effect"
import { PreferencesStore } from "@wallet/kernel"
import { Chain, type AccountEvent, type ChainShape } from "@wallet/kernel/chain"
import { runEffect, useKernel, type Kernel } from "@wallet/kernel-react"
import { buildExtraCurrencyAssets, type ExtraCurrencyAsset, type Network } from "../core/assets.ts"
import { chartWindow, downsample, normalizePoints, type ChartPeriod, type ChartPoint } from "../core/chart.ts"
import { HISTORY_PAGE_SIZE } from "../core/history.ts"
import { applyObservation, observe, PENDING_CHECK_INTERVAL_MS } from "../core/pending.ts"
import { tonSpaceConfig } from "../config.ts"
import { chainFor, useChainQuery, useWallet, type Loaded } from "./hooks.ts"
import { tonSpaceKeys } from "./queryKeys.ts"

export const loadAccount = (chain: ChainShape, raw: string) =>
  chain.getAccount(raw).pipe(
    Effect.catchIf(
      (e) => e.status === 404,
      () => Effect.succeed({ address: raw, balance: 0n, status: "nonexist" as const, last_activity: 0, get_methods: [], is_wallet: true }),
    ),
  )

export function useWalletData(raw: string | undefined) {
  const kernel = useKernel()
  const [state] = useWallet()
  const chain = chainFor(kernel, state.walletNetwork)
  const network = state.walletNetwork
  const account = useChainQuery(raw ? tonSpaceKeys.account(network, raw) : null, () => loadAccount(chain, raw!))
  const jettons = useChainQuery(raw ? tonSpaceKeys.jettons(network, raw) : null, () => chain.getJettonBalances(raw!, { currencies: ["ton", "usd"] }))
  const events = useChainQuery(raw ? tonSpaceKeys.events(network, raw) : null, () =>
    chain.getEvents(raw!, { limit: HISTORY_PAGE_SIZE }).pipe(Effect.map((r): ReadonlyArray<AccountEvent> => r.events)),
  )
  return { account, jettons, events }
}

/** Checks each pending item every 5 s; after a finalization calls `onFinalized` (the refresh). */
export function usePendingWatcher(onFinalized: () => void) {
  const kernel = useKernel()
  const [state, update] = useWallet()
  const callback = useRef(onFinalized)
  useEffect(() => {
    callback.current = onFinalized
  })
  const hasPending = state.pending.pending.length > 0
  const network = state.walletNetwork
  useEffect(() => {
    if (!hasPending) return
    const chain = chainFor(kernel, network)
    let running = false
    const tick = async () => {
      if (running) return
      running = true
      try {
        for (const tx of update((s) => s).pending.pending) {
          const observation = await Effect.runPromise(observe(tx).pipe(Effect.provideService(Chain, chain)))
          let refresh = false
          update((s) => {
            const transition = applyObservation(s.pending, tx.key, observation, Date.now())
            refresh = transition.refresh
            return { ...s, pending: transition.state }
          })
          if (refresh) callback.current()
        }
      } finally {
        running = false
      }
    }
    const first = setTimeout(() => void tick(), 1_000)
    const timer = setInterval(() => void tick(), PENDING_CHECK_INTERVAL_MS)
    return () => {
      clearTimeout(first)
      clearInterval(timer)
    }
  }, [kernel, hasPending, network, update])
}

// ---------------------------------------------------------------- assets: extra currencies, rates, chart

/** The chain API base of a network (the same rule as `chainFor`: region config, else the page origin). */
export const chainBaseUrl = (kernel: Kernel, network: Network): string => {
  const config = tonSpaceConfig(kernel)
  return ((network === "testnet" ? config?.testnetChainApiUrl : config?.chainApiUrl) ?? window.location.origin).replace(/\/+$/, "")
}

const EcPreview = Schema.Struct({ id: Schema.Number, symbol: Schema.String, decimals: Schema.Number, image: Schema.optionalKey(Schema.String) })
const ExtraBalanceBody = Schema.Struct({
  extra_balance: Schema.optionalKey(Schema.Array(Schema.Struct({ amount: Schema.String, preview: EcPreview }))),
})
const AccountAddressBody = Schema.Struct({ address: Schema.String })
const ExtraEventsBody = Schema.Struct({
  events: Schema.Array(
    Schema.Struct({
      event_id: Schema.String,
      timestamp: Schema.Number,
      in_progress: Schema.Boolean,
      actions: Schema.Array(
        Schema.Struct({
          type: Schema.String,
          status: Schema.String,
          ExtraCurrencyTransfer: Schema.optionalKey(
            Schema.Struct({
              sender: AccountAddressBody,
              recipient: AccountAddressBody,
              amount: Schema.String,
              comment: Schema.optionalKey(Schema.String),
              currency: EcPreview,
            }),
          ),
        }),
      ),
    }),
  ),
})

class ChainReadError extends Schema.TaggedError<ChainReadError>()("ChainReadError", { message: Schema.String, status: Schema.optionalKey(Schema.Number) }) {}

/**
 * GET on the chain API decoded with `schema`. The kernel's Chain service does not decode
 * `extra_balance` nor `ExtraCurrencyTransfer` yet (its structs drop unknown keys), so these two reads
 * go straight to the same endpoint, without credentials, exactly like the Chain client does.
 */
const chainGet = <A, I>(schema: Schema.Codec<A, I>, url: string) =>
  Effect.gen(function* () {
    const response = yield* Effect.tryPromise({
      try: (signal) => fetch(url, { signal, headers: { accept: "application/json" } }),
      catch: () => new ChainReadError({ message: "network error" }),
    })
    if (!response.ok) return yield* new ChainReadError({ message: `HTTP ${response.status}`, status: response.status })
    const json = yield* Effect.tryPromise({ try: () => response.json() as Promise<unknown>, catch: () => new ChainReadError({ message: "not JSON" }) })
    return yield* Schema.decodeUnknownEffect(schema)(json).pipe(Effect.mapError((e) => new ChainReadError({ message: e.message })))
  })

/** The account's extra currencies as assets (a 404 account holds none). */
export const loadExtraCurrencies = (base: string, raw: string) =>
  chainGet(ExtraBalanceBody, `${base}/v2/accounts/${encodeURIComponent(raw)}`).pipe(
    Effect.map((body) =>
      buildExtraCurrencyAssets((body.extra_balance ?? []).map((e) => ({ amount: e.amount, preview: { ...e.preview, image: e.preview.image ?? "" } }))),
    ),
    Effect.catchIf(
      (e) => e.status === 404,
      () => Effect.succeed([] as ReadonlyArray<ExtraCurrencyAsset>),
    ),
  )

export function useExtraCurrencies(raw: string | undefined) {
  const kernel = useKernel()
  const [state] = useWallet()
  const base = chainBaseUrl(kernel, state.walletNetwork)
  return useChainQuery(raw ? tonSpaceKeys.extraCurrencies(state.walletNetwork, raw) : null, () => loadExtraCurrencies(base, raw!))
}

export interface ExtraTransferRow {
  readonly eventId: string
  readonly timestamp: number
  readonly inProgress: boolean
  readonly incoming: boolean
  readonly amount: bigint
  readonly counterparty: string
  readonly comment?: string
  readonly failed: boolean
}

/** The extra-currency transfers of one currency in the account's latest events (page of 100). */
export const loadExtraHistory = (base: string, raw: string, id: number) =>
  chainGet(ExtraEventsBody, `${base}/v2/accounts/${encodeURIComponent(raw)}/events?limit=${HISTORY_PAGE_SIZE}`).pipe(
    Effect.map((body) =>
      body.events.flatMap((event) =>
        event.actions.flatMap((action): ReadonlyArray<ExtraTransferRow> => {
          const transfer = action.ExtraCurrencyTransfer
          if (action.type !== "ExtraCurrencyTransfer" || !transfer || transfer.currency.id !== id || !/^\d+$/.test(transfer.amount)) return []
          const incoming = transfer.recipient.address.toLowerCase() === raw.toLowerCase()
          return [
            {
              eventId: event.event_id,
              timestamp: event.timestamp,
              inProgress: event.in_progress,
              incoming,
              amount: BigInt(transfer.amount),
              counterparty: incoming ? transfer.sender.address : transfer.recipient.address,
              ...(transfer.comment ? { comment: transfer.comment } : {}),
              failed: action.status !== "ok",
            },
          ]
        }),
      ),
    ),
  )

export function useExtraHistory(raw: string | undefined, id: number) {
  const kernel = useKernel()
  const [state] = useWallet()
  const base = chainBaseUrl(kernel, state.walletNetwork)
  return useChainQuery(raw ? tonSpaceKeys.extraHistory(state.walletNetwork, raw, id) : null, () => loadExtraHistory(base, raw!, id))
}

/** The user's fiat currency (kernel preferences; USD when unknown). */
export function useFiat(): string {
  const kernel = useKernel()
  const [fiat, setFiat] = useState("USD")
  useEffect(() => {
    let alive = true
    void runEffect(kernel, kernel.storage.load(PreferencesStore)).then(
      (p) => alive && setFiat(p.fiatCurrency),
      () => undefined,
    )
    return () => {
      alive = false
    }
  }, [kernel])
  return fiat
}

/** Chart token of an asset: "ton" or the jetton master. */
export const chartToken = (address: string) => (address === "TON" ? "ton" : address)

/** The price series of `token` in `fiat` over `period`, ascending and downsampled (core/chart.ts). */
export function useChart(token: string | undefined, fiat: string, period: ChartPeriod, target?: number): Loaded<ReadonlyArray<ChartPoint>> {
  const kernel = useKernel()
  const [state] = useWallet()
  const chain = chainFor(kernel, state.walletNetwork)
  const key = token ? `${token}:${fiat}:${period}:${target ?? ""}` : null
  const loaded = useChainQuery(token ? tonSpaceKeys.chart(state.walletNetwork, token, fiat, period, target) : null, () => {
    const span = chartWindow(period, Date.now() / 1000)
    return chain
      .getChart(token!, { currency: fiat.toLowerCase(), startDate: span.startDate, endDate: span.endDate, pointsCount: span.pointsCount })
      .pipe(Effect.map((raw) => ({ key, points: target === undefined ? downsample(normalizePoints(raw)) : downsample(normalizePoints(raw), target) })))
  })
  // Only this key's series counts (a guard kept from the hand-written loader: never another period's points).
  return { ...loaded, data: loaded.data?.key === key ? loaded.data.points : undefined }
}

/** Today's rate of `token` in `fiat` (a float for display and fixed-point conversion only). */
export function useRate(token: string | undefined, fiat: string) {
  const kernel = useKernel()
  const [state] = useWallet()
  const chain = chainFor(kernel, state.walletNetwork)
  return useChainQuery(token ? tonSpaceKeys.rate(state.walletNetwork, token, fiat) : null, () =>
    chain.getRates([token!], [fiat.toLowerCase()]).pipe(Effect.map((rates): number | undefined => Object.values(rates)[0]?.prices?.[fiat.toUpperCase()])),
  )
}
