/**
 * Profit and loss of one asset (route /scw/pnl/$address) by the average-cost method (ADR 0631): each
 * transfer in adds its amount at the rate of its time to the cost basis; each transfer out removes
 * the average cost of what leaves and realises the difference to its rate. Unrealised PnL is the
 * holding at today's rate minus its cost basis.
 *
 * Money stays integer: amounts are minor units of the asset (bigint); fiat values are "fiat nanos"
 * (10^-9 of the fiat unit, bigint). Chart rates are floats from the API; each one is converted once to
 * a fixed-point rate (fiat nanos per whole token) before any multiplication.
 */
import type { AccountEvent, JettonOperations } from "@wallet/kernel/chain"
import { rateAt, type ChartPoint } from "./chart.ts"

/** Fiat values are integers in 10^-9 of the fiat unit. */
export const FIAT_SCALE = 1_000_000_000n
export const FIAT_SCALE_DIGITS = 9

/** A float rate (fiat per whole token) as fiat nanos per whole token; undefined when not a finite non-negative number. */
export const fixedRate = (rate: number | undefined): bigint | undefined => {
  if (rate === undefined || !Number.isFinite(rate) || rate < 0) return undefined
  // toFixed keeps up to 9 decimals exactly as text; no float multiplication by 1e9 (3.2 * 1e9 is fine, 0.1 + 0.2 is not).
  const text = rate.toFixed(FIAT_SCALE_DIGITS)
  if (text.includes("e")) return undefined
  const [whole = "0", fraction = ""] = text.split(".")
  return BigInt(whole) * FIAT_SCALE + BigInt(fraction.padEnd(FIAT_SCALE_DIGITS, "0").slice(0, FIAT_SCALE_DIGITS))
}

/** Fiat nanos of `amount` minor units at `rate` fiat nanos per whole token (truncated). */
export const fiatValue = (amount: bigint, decimals: number, rate: bigint): bigint => (amount * rate) / 10n ** BigInt(decimals)

export interface Flow {
  /** Unix seconds. */
  readonly time: number
  /** Minor units; positive in, negative out. Zero flows are ignored. */
  readonly amount: bigint
  /** Fiat nanos per whole token at the flow's time; undefined when no rate is known. */
  readonly rate: bigint | undefined
}

export interface Pnl {
  /** Minor units the history explains (in minus out, never below 0). */
  readonly tracked: bigint
  /** Fiat nanos paid for `tracked` (average cost). */
  readonly costBasis: bigint
  /** Fiat nanos realised by transfers out (their value minus their average cost). */
  readonly realised: bigint
  /** Value of `tracked` at the current rate minus its cost basis; undefined without a current rate. */
  readonly unrealised: bigint | undefined
  /** Value of `tracked` at the current rate. */
  readonly marketValue: bigint | undefined
  /** Unrealised PnL in basis points of the cost basis (display only); undefined at zero cost. */
  readonly unrealisedBps: bigint | undefined
  /** Average cost in fiat nanos per whole token; undefined with nothing held. */
  readonly averageCost: bigint | undefined
  /** Minor units of the current balance the history does not explain (older than the loaded history): no cost, left out. */
  readonly untracked: bigint
  /** Flows that had no rate and were counted at cost 0 (in) or value 0 (out). */
  readonly unpriced: number
}

/**
 * Average-cost PnL. `flows` in any order (they are sorted by time); `balance` is the current balance
 * in minor units (what the history does not explain is reported as `untracked`, not guessed);
 * `currentRate` is today's fixed-point rate.
 */
export const computePnl = (input: {
  readonly flows: ReadonlyArray<Flow>
  readonly decimals: number
  readonly balance: bigint
  readonly currentRate: bigint | undefined
}): Pnl => {
  const flows = input.flows
    .filter((f) => f.amount !== 0n)
    .slice()
    .sort((a, b) => a.time - b.time)
  let held = 0n
  let cost = 0n
  let realised = 0n
  let unpriced = 0
  for (const flow of flows) {
    if (flow.rate === undefined) unpriced += 1
    const rate = flow.rate ?? 0n
    if (flow.amount > 0n) {
      held += flow.amount
      cost += fiatValue(flow.amount, input.decimals, rate)
      continue
    }
    // Out: only what the history shows as held has a cost; more than that left from untracked funds.
    const out = -flow.amount
    const covered = out > held ? held : out
    if (covered === 0n) continue
    const removed = held === 0n ? 0n : (cost * covered) / held
    realised += fiatValue(covered, input.decimals, rate) - removed
    cost -= removed
    held -= covered
  }
  // The current balance can be below what the history explains (fees paid in TON, failed history pages): scale down.
  if (input.balance < held) {
    const keep = input.balance < 0n ? 0n : input.balance
    cost = held === 0n ? 0n : (cost * keep) / held
    held = keep
  }
  const untracked = input.balance > held ? input.balance - held : 0n
  const marketValue = input.currentRate === undefined ? undefined : fiatValue(held, input.decimals, input.currentRate)
  const unrealised = marketValue === undefined ? undefined : marketValue - cost
  return {
    tracked: held,
    costBasis: cost,
    realised,
    unrealised,
    marketValue,
    unrealisedBps: unrealised === undefined || cost === 0n ? undefined : (unrealised * 10_000n) / cost,
    averageCost: held === 0n ? undefined : (cost * 10n ** BigInt(input.decimals)) / held,
    untracked,
    unpriced,
  }
}

/** Fiat nanos as a decimal string with `digits` fraction digits, truncated toward zero, with its sign. */
export const formatFiat = (nanos: bigint, digits = 2): string => {
  const negative = nanos < 0n
  const abs = negative ? -nanos : nanos
  const whole = abs / FIAT_SCALE
  const fraction = (abs % FIAT_SCALE).toString().padStart(FIAT_SCALE_DIGITS, "0").slice(0, digits)
  const wholeText = whole.toString().replace(/\B(?=(\d{3})+(?!\d))/g, " ")
  const text = `${wholeText}${digits > 0 ? `.${fraction}` : ""}`
  return negative && /[1-9]/.test(text) ? `-${text}` : text
}

/** Basis points as a signed percent with 2 decimals ("+12.34", "-0.50"). */
export const formatBps = (bps: bigint): string => {
  const negative = bps < 0n
  const abs = negative ? -bps : bps
  return `${negative ? "-" : "+"}${abs / 100n}.${(abs % 100n).toString().padStart(2, "0")}`
}

/** TON flows of the account's events: transfers in (+) and out (−), final and ok only. */
export const tonFlows = (events: ReadonlyArray<AccountEvent>, raw: string): ReadonlyArray<Omit<Flow, "rate">> =>
  events.flatMap((event) =>
    event.in_progress
      ? []
      : event.actions.flatMap((a) => {
          const transfer = a.TonTransfer
          if (!transfer || a.status !== "ok") return []
          const incoming = transfer.recipient.address.toLowerCase() === raw.toLowerCase()
          const outgoing = transfer.sender.address.toLowerCase() === raw.toLowerCase()
          if (incoming === outgoing) return []
          return [{ time: event.timestamp, amount: incoming ? transfer.amount : -transfer.amount }]
        }),
  )

/** Jetton flows of the account's jetton history: transfers in and out, mints in, burns out. */
export const jettonFlows = (operations: JettonOperations["operations"], raw: string): ReadonlyArray<Omit<Flow, "rate">> =>
  operations.flatMap((op) => {
    const to = op.destination?.address.toLowerCase() === raw.toLowerCase()
    const from = op.source?.address.toLowerCase() === raw.toLowerCase()
    if (op.operation === "mint") return to ? [{ time: op.utime, amount: op.amount }] : []
    if (op.operation === "burn") return from ? [{ time: op.utime, amount: -op.amount }] : []
    if (to === from) return []
    return [{ time: op.utime, amount: to ? op.amount : -op.amount }]
  })

/** Prices each flow at the chart's rate of its time. */
export const priceFlows = (flows: ReadonlyArray<Omit<Flow, "rate">>, chart: ReadonlyArray<ChartPoint>): ReadonlyArray<Flow> =>
  flows.map((f) => ({ ...f, rate: fixedRate(rateAt(chart, f.time)) }))
