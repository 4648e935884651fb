import { describe, expect, it } from "vitest"
import type { AccountEvent, JettonOperations } from "@wallet/kernel/chain"
import { computePnl, fiatValue, fixedRate, formatBps, formatFiat, jettonFlows, priceFlows, tonFlows, type Flow } from "./pnl.ts"

const TON = 9
const ton = (whole: number) => BigInt(Math.round(whole * 1000)) * 1_000_000n
const usd = (whole: number) => fixedRate(whole)!
const flow = (time: number, amount: bigint, rate: number | undefined): Flow => ({ time, amount, rate: rate === undefined ? undefined : usd(rate) })

describe("fixed-point rates", () => {
  it("converts a float rate to fiat nanos per token exactly as its decimal text", () => {
    expect(fixedRate(3.2)).toBe(3_200_000_000n)
    expect(fixedRate(0.1 + 0.2)).toBe(300_000_000n)
    expect(fixedRate(0.000000001)).toBe(1n)
    expect(fixedRate(-1)).toBeUndefined()
    expect(fixedRate(Number.NaN)).toBeUndefined()
    expect(fixedRate(1e30)).toBeUndefined()
  })
  it("values minor units at a rate", () => {
    // 2.5 TON at 3.2 USD = 8 USD
    expect(fiatValue(ton(2.5), TON, usd(3.2))).toBe(8_000_000_000n)
    // 1.5 USDT (6 decimals) at 1 USD
    expect(fiatValue(1_500_000n, 6, usd(1))).toBe(1_500_000_000n)
  })
})

describe("average-cost PnL", () => {
  it("buys at two prices average the cost; the unrealised PnL is value minus cost", () => {
    // 10 TON at 2 USD + 10 TON at 4 USD = 60 USD for 20 TON (3 USD each); now 5 USD: value 100, PnL +40
    const pnl = computePnl({ flows: [flow(2, ton(10), 4), flow(1, ton(10), 2)], decimals: TON, balance: ton(20), currentRate: usd(5) })
    expect(pnl.tracked).toBe(ton(20))
    expect(pnl.costBasis).toBe(usd(60))
    expect(pnl.averageCost).toBe(usd(3))
    expect(pnl.marketValue).toBe(usd(100))
    expect(pnl.unrealised).toBe(usd(40))
    expect(pnl.unrealisedBps).toBe(6_666n)
    expect(pnl.realised).toBe(0n)
  })

  it("a transfer out removes its average cost and realises the difference", () => {
    // 20 TON for 60 USD (avg 3), send 5 TON when it is 4 USD: realised 5*(4-3) = 5; 15 TON left costing 45
    const pnl = computePnl({ flows: [flow(1, ton(10), 2), flow(2, ton(10), 4), flow(3, -ton(5), 4)], decimals: TON, balance: ton(15), currentRate: usd(2) })
    expect(pnl.realised).toBe(usd(5))
    expect(pnl.costBasis).toBe(usd(45))
    expect(pnl.tracked).toBe(ton(15))
    expect(pnl.unrealised).toBe(usd(30) - usd(45))
    expect(formatBps(pnl.unrealisedBps!)).toBe("-33.33")
  })

  it("order is by time, not by the given order (out before in would realise nothing)", () => {
    const a = computePnl({ flows: [flow(3, -ton(5), 4), flow(1, ton(10), 2)], decimals: TON, balance: ton(5), currentRate: usd(4) })
    expect(a.realised).toBe(usd(10))
    expect(a.costBasis).toBe(usd(10))
  })

  it("funds older than the history are untracked, not given a cost; outs beyond what is tracked cost nothing", () => {
    const pnl = computePnl({ flows: [flow(1, ton(2), 3), flow(2, -ton(5), 3)], decimals: TON, balance: ton(7), currentRate: usd(3) })
    expect(pnl.tracked).toBe(0n)
    expect(pnl.costBasis).toBe(0n)
    expect(pnl.untracked).toBe(ton(7))
    expect(pnl.unrealised).toBe(0n)
    expect(pnl.unrealisedBps).toBeUndefined()
  })

  it("a balance below what the history explains (fees) scales the cost down", () => {
    const pnl = computePnl({ flows: [flow(1, ton(10), 2)], decimals: TON, balance: ton(9.5), currentRate: usd(2) })
    expect(pnl.tracked).toBe(ton(9.5))
    expect(pnl.costBasis).toBe(usd(19))
    expect(pnl.unrealised).toBe(0n)
  })

  it("counts flows without a rate and leaves the unrealised PnL unknown without a current rate", () => {
    const pnl = computePnl({ flows: [flow(1, ton(1), undefined), flow(2, 0n, 1)], decimals: TON, balance: ton(1), currentRate: undefined })
    expect(pnl.unpriced).toBe(1)
    expect(pnl.unrealised).toBeUndefined()
    expect(pnl.marketValue).toBeUndefined()
  })
})

describe("formatting", () => {
  it("formats fiat nanos truncated to cents with the sign", () => {
    expect(formatFiat(usd(1234.567))).toBe("1 234.56")
    expect(formatFiat(-usd(0.129))).toBe("-0.12")
    expect(formatFiat(-1n)).toBe("0.00")
    expect(formatBps(1234n)).toBe("+12.34")
    expect(formatBps(-50n)).toBe("-0.50")
  })
})

describe("flows from the chain history", () => {
  const me = "0:aa"
  const other = "0:bb"
  const addr = (address: string) => ({ address, is_scam: false, is_wallet: true })
  const preview = { name: "", description: "", accounts: [] }
  const tonEvent = (timestamp: number, from: string, to: string, amount: bigint, status: "ok" | "failed" = "ok", inProgress = false): AccountEvent => ({
    event_id: `e${timestamp}`,
    account: addr(me),
    timestamp,
    actions: [
      { type: "TonTransfer", status, TonTransfer: { sender: addr(from), recipient: addr(to), amount }, simple_preview: preview, base_transactions: [] },
    ],
    is_scam: false,
    lt: timestamp,
    in_progress: inProgress,
    extra: 0n,
  })

  it("TON: in positive, out negative; failed and in-progress transfers left out", () => {
    const flows = tonFlows(
      [tonEvent(1, other, me, 5n), tonEvent(2, me, other, 2n), tonEvent(3, other, me, 9n, "failed"), tonEvent(4, other, me, 7n, "ok", true)],
      me,
    )
    expect(flows).toEqual([
      { time: 1, amount: 5n },
      { time: 2, amount: -2n },
    ])
  })

  it("jetton: transfers in and out, mints in, burns out", () => {
    const jetton = { address: "0:cc", name: "J", symbol: "J", decimals: 6, image: "", verification: "whitelist" as const }
    const op = (
      operation: "transfer" | "mint" | "burn",
      utime: number,
      amount: bigint,
      source?: string,
      destination?: string,
    ): JettonOperations["operations"][number] => ({
      operation,
      utime,
      lt: utime,
      transaction_hash: "",
      ...(source ? { source: addr(source) } : {}),
      ...(destination ? { destination: addr(destination) } : {}),
      amount,
      jetton,
      trace_id: "",
      query_id: "0",
    })
    const flows = jettonFlows(
      [
        op("mint", 1, 100n, undefined, me),
        op("transfer", 2, 30n, me, other),
        op("transfer", 3, 5n, other, me),
        op("burn", 4, 10n, me),
        op("transfer", 5, 1n, other, "0:dd"),
      ],
      me,
    )
    expect(flows.map((f) => [f.time, f.amount])).toEqual([
      [1, 100n],
      [2, -30n],
      [3, 5n],
      [4, -10n],
    ])
  })

  it("prices each flow at the chart's rate of its time", () => {
    const chart = [
      { time: 10, price: 2 },
      { time: 20, price: 4 },
    ]
    const priced = priceFlows(
      [
        { time: 15, amount: 1n },
        { time: 25, amount: 1n },
      ],
      chart,
    )
    expect(priced.map((f) => f.rate)).toEqual([usd(2), usd(4)])
    expect(priceFlows([{ time: 1, amount: 1n }], [])[0]!.rate).toBeUndefined()
  })
})
