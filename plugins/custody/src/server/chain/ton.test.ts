/**
 * The TON adapter's deposit scan on a scripted chain: paging back to the cursor, only final ok
 * actions to the address, jettons of known masters only, and a cursor that never passes an event
 * still in progress.
 */
import { Address } from "@ton/core"
import { Effect, Redacted } from "effect"
import { describe, expect, it } from "vitest"
import type { AccountEvent, ChainShape } from "@wallet/kernel/chain"
import { DEFAULT_FEES, type ChainSettingsShape } from "./config.ts"
import { makeTonAdapter } from "./ton.ts"

const USDT_MASTER = new Address(0, Buffer.alloc(32, 0xaa)).toRawString()
const SCAM_MASTER = new Address(0, Buffer.alloc(32, 0xbb)).toRawString()
const SENDER = new Address(0, Buffer.alloc(32, 0x01)).toRawString()

const settings: ChainSettingsShape = {
  enabled: true,
  masterSeed: Redacted.make(new Uint8Array(32).fill(3)),
  pollMs: 10,
  globalId: -239,
  devnetUrl: "http://127.0.0.1:1",
  devFaucet: false,
  fees: DEFAULT_FEES,
  withdrawalsSuspended: [],
  tonJettons: { USDT: USDT_MASTER },
  expiryGraceSeconds: 30,
}

const who = (address: string) => ({ address, is_scam: false, is_wallet: true })
const jetton = (master: string) => ({ address: master, name: "Tether USD", symbol: "USD₮", decimals: 6, image: "", verification: "whitelist" as const })
const preview = { name: "x", description: "x", accounts: [] }

const event = (lt: number, to: string, options: { inProgress?: boolean; actions?: ReadonlyArray<AccountEvent["actions"][number]> } = {}): AccountEvent => ({
  event_id: `e${lt}`,
  account: who(to),
  timestamp: lt,
  lt,
  is_scam: false,
  in_progress: options.inProgress ?? false,
  extra: 0n,
  actions: options.actions ?? [
    {
      type: "TonTransfer",
      status: "ok",
      TonTransfer: { sender: who(SENDER), recipient: who(to), amount: BigInt(lt) },
      simple_preview: preview,
      base_transactions: [],
    },
  ],
})

/** A chain whose events for one account are `events` (newest first), paged like tonapi. */
const chainWith = (events: () => ReadonlyArray<AccountEvent>, calls: { pages: number }): ChainShape =>
  ({
    getEvents: (_id: string, query: { limit: number; beforeLt?: number }) =>
      Effect.sync(() => {
        calls.pages++
        const older = events().filter((e) => query.beforeLt === undefined || e.lt < query.beforeLt)
        const page = older.slice(0, query.limit)
        return { events: page, next_from: page.length < query.limit ? 0 : page.at(-1)!.lt }
      }),
  }) as unknown as ChainShape

describe("TON deposit scan", () => {
  it("credits final ok transfers to the address, pages back to the cursor, never passes an in-progress event", async () => {
    let events: Array<AccountEvent> = []
    const calls = { pages: 0 }
    const adapter = makeTonAdapter(
      chainWith(() => events, calls),
      settings,
    )
    const address = await Effect.runPromise(adapter.deriveDepositAddress(1))
    const raw = Address.parse(address).toRawString()
    // 25 final events (pages of 10 then 100), one in progress at lt 30, one final above it.
    events = [event(31, raw), event(30, raw, { inProgress: true }), ...Array.from({ length: 25 }, (_, i) => event(25 - i, raw))]
    const first = await Effect.runPromise(adapter.watchDeposits({ addresses: [{ address, cursor: null }], cursor: null }))
    expect(first.deposits.map((d) => d.amount)).toEqual([31n, ...Array.from({ length: 25 }, (_, i) => BigInt(25 - i))])
    expect(first.deposits[0]).toMatchObject({ txHash: "e31:0", to: address, from: SENDER, currency: "TON" })
    expect(first.addressCursors.get(address)).toBe("29")

    // Nothing new: one small page; the in-progress event became final with its own lt.
    events = [event(31, raw), event(30, raw), ...events.slice(2)]
    calls.pages = 0
    const second = await Effect.runPromise(adapter.watchDeposits({ addresses: [{ address, cursor: "29" }], cursor: null }))
    expect(second.deposits.map((d) => d.txHash)).toEqual(["e31:0", "e30:0"])
    expect(second.addressCursors.get(address)).toBe("31")
    expect(calls.pages).toBe(1)
  })

  it("skips failed actions, other recipients and unknown jettons", async () => {
    const calls = { pages: 0 }
    let events: Array<AccountEvent> = []
    const adapter = makeTonAdapter(
      chainWith(() => events, calls),
      settings,
    )
    const address = await Effect.runPromise(adapter.deriveDepositAddress(2))
    const raw = Address.parse(address).toRawString()
    const jettonAction = (master: string, status: "ok" | "failed", recipient = raw) => ({
      type: "JettonTransfer",
      status,
      JettonTransfer: {
        sender: who(SENDER),
        recipient: who(recipient),
        senders_wallet: "0:1",
        recipients_wallet: "0:2",
        amount: 5_000_000n,
        jetton: jetton(master),
      },
      simple_preview: preview,
      base_transactions: [],
    })
    events = [
      event(5, raw, {
        actions: [
          jettonAction(USDT_MASTER, "ok"),
          jettonAction(USDT_MASTER, "failed"),
          jettonAction(SCAM_MASTER, "ok"),
          jettonAction(USDT_MASTER, "ok", SENDER),
          {
            type: "TonTransfer",
            status: "failed",
            TonTransfer: { sender: who(SENDER), recipient: who(raw), amount: 9n },
            simple_preview: preview,
            base_transactions: [],
          },
        ],
      }),
    ]
    const result = await Effect.runPromise(adapter.watchDeposits({ addresses: [{ address, cursor: null }], cursor: null }))
    expect(result.deposits).toEqual([{ txHash: "e5:0", to: address, from: SENDER, currency: "USDT", amount: 5_000_000n }])
  })
})
