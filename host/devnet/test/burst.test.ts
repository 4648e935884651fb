/* oxlint-disable typescript/no-explicit-any -- JSON responses are explored loosely in tests */
// Many transfers in one block (decision 0106): each is checked by its contract at once, its in-progress
// events are built when a request needs them, the block executes and indexes them all, and the trace log
// holds each trace once.
import fs from "node:fs"
import os from "node:os"
import path from "node:path"
import { Cell, loadMessage } from "@ton/core"
import { afterAll, describe, expect, it } from "vitest"
import { loadWallet, signedTransfer, startDevnet } from "../src/index.ts"
import { messageHash } from "../src/render.ts"
import { Api } from "./helpers.ts"

const TON = 1_000_000_000n
const WALLETS = 6
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "devnet-burst-"))
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

/** Every event of an account, newest first, through the paging the wallet uses. */
const allEvents = async (api: Api, account: string, limit = 4): Promise<any[]> => {
  const out: any[] = []
  let page = await api.get(`/v2/accounts/${account}/events?limit=${limit}`)
  for (;;) {
    out.push(...page.events)
    if (!page.next_from) return out
    page = await api.get(`/v2/accounts/${account}/events?limit=${limit}&before_lt=${page.next_from}`)
  }
}

/** The transactions of a trace tree, flattened. */
const txsOf = (node: any): any[] => [node.transaction, ...(node.children ?? []).flatMap(txsOf)]

const extHashOf = (boc: string) => messageHash(loadMessage(Cell.fromBase64(boc).beginParse()))

describe("a burst of transfers in one block", () => {
  it("lists every event once in lt order, with account states that match the chain, and restarts to the same index", async () => {
    const dn = await startDevnet({ dataDir: dir, blockMs: 0 })
    const api = new Api(dn.url)
    const wallets = Array.from({ length: WALLETS }, (_, i) => loadWallet(5_000 + i))
    const sink = loadWallet(6_000)
    for (const w of wallets) await dn.faucet({ address: w.raw, ton: 10n * TON })
    await dn.stepBlock()

    const comments: string[] = []
    for (let round = 0; round < 2; round++) {
      const bocs = wallets.map((w, i) => signedTransfer(w, sink.address, TON / 10n, `burst ${round} from ${i}`))
      await Promise.all(bocs.map((boc) => api.post("/v2/blockchain/message", { boc })))
      comments.push(...wallets.map((_, i) => `burst ${round} from ${i}`))
      // the same message again is a duplicate, even before its events were built
      expect((await api.req("POST", "/v2/blockchain/message", { boc: bocs[0] })).status).toBe(400)
      // before the block: one in-progress event per sent message, for the recipient and for each sender
      const pending = await allEvents(api, sink.raw, 100)
      expect(pending.filter((e) => e.in_progress)).toHaveLength(WALLETS)
      expect(new Set(pending.filter((e) => e.in_progress).map((e) => e.ext_msg_hash))).toEqual(new Set(bocs.map(extHashOf)))
      for (const w of wallets) {
        const mine = (await api.get(`/v2/accounts/${w.raw}/events?limit=10`)).events
        expect(mine.filter((e: any) => e.in_progress)).toHaveLength(1)
      }
      await dn.stepBlock()
      for (const w of wallets) w.seqno += 1
    }

    // the recipient: one event per transfer, none in progress, each once, newest first by lt
    const events = await allEvents(api, sink.raw)
    expect(events).toHaveLength(2 * WALLETS)
    expect(events.every((e) => !e.in_progress && e.progress === 1)).toBe(true)
    expect(new Set(events.map((e) => e.event_id)).size).toBe(events.length)
    for (let i = 1; i < events.length; i++) expect(events[i].lt).toBeLessThan(events[i - 1].lt)
    expect(events.map((e) => e.actions[0].TonTransfer.comment).sort()).toEqual([...comments].sort())
    // a small page and a large one agree
    expect(await allEvents(api, sink.raw, 100)).toEqual(events)

    // each account's balance and last transaction are those of its newest indexed transaction
    for (const account of [sink.raw, ...wallets.map((w) => w.raw)]) {
      const newest = (await api.get(`/v2/accounts/${account}/events?limit=1`)).events[0]
      const trace = await api.get(`/v2/traces/${newest.event_id}`)
      const last = txsOf(trace)
        .filter((t) => t.account.address === account)
        .sort((a, b) => b.lt - a.lt)[0]
      const state = await api.get(`/v2/blockchain/accounts/${account}`)
      expect(state.last_transaction_lt).toBe(last.lt)
      expect(state.last_transaction_hash).toBe(last.hash)
      expect(state.balance).toBe(last.end_balance)
      expect((await api.get(`/v2/accounts/${account}`)).balance).toBe(last.end_balance)
    }
    for (const w of wallets) {
      const mine = await allEvents(api, w.raw)
      expect(mine).toHaveLength(3) // funded, then two transfers
      expect((await api.get(`/v2/wallet/${w.raw}/seqno`)).seqno).toBe(2)
    }
    await dn.close()

    // traces.jsonl holds each trace once (one append per block), and a restart rebuilds the same lists
    const lines = fs.readFileSync(path.join(dir, "traces.jsonl"), "utf8").split("\n").filter(Boolean)
    const ids = lines.map((l) => (JSON.parse(l) as { traceId: string }).traceId)
    expect(new Set(ids).size).toBe(ids.length)
    for (const e of events) expect(ids).toContain(e.event_id)
    const again = await startDevnet({ dataDir: dir, blockMs: 0 })
    expect(await allEvents(new Api(again.url), sink.raw)).toEqual(events)
    await again.close()
  }, 120_000)

  it("builds in-progress events on demand exactly as an emulation on the state the message was sent on", async () => {
    const dn = await startDevnet({ blockMs: 0 })
    const api = new Api(dn.url)
    // a chain time ahead of the clock (within the transfers' validity) pins `now` for the emulations and blocks below
    ;(dn.devnet as unknown as { blockTime: number }).blockTime = Math.floor(Date.now() / 1000) + 30
    const w = loadWallet(7_000)
    const to = loadWallet(7_001)
    await dn.faucet({ address: w.raw, ton: 5n * TON })
    await dn.stepBlock()
    for (let seqno = 0; seqno < 2; seqno++) {
      const boc = signedTransfer(w, to.address, TON / 10n, `on demand ${seqno}`)
      const emulated = await dn.devnet.emulate(Cell.fromBase64(boc), {})
      await api.post("/v2/blockchain/message", { boc })
      for (const account of [w.raw, to.raw]) {
        const expected = emulated.record.accountEvents.find((e) => e.account === account)!.event
        const shown = (await api.get(`/v2/accounts/${account}/events?limit=1`)).events[0]
        expect(shown).toEqual({ ...expected, in_progress: true, progress: 0 })
        expect(await api.get(`/v2/accounts/${account}/events/${shown.event_id}`)).toEqual(shown)
      }
      await dn.stepBlock()
      w.seqno += 1
      const final = (await api.get(`/v2/accounts/${to.raw}/events?limit=1`)).events[0]
      expect(final.in_progress).toBe(false)
      expect(final.actions).toEqual(emulated.record.accountEvents.find((e) => e.account === to.raw)!.event.actions)
    }
    // a message that no longer fits the state at block time is dropped there: the same seqno twice
    const a = signedTransfer(w, to.address, 1n, "first")
    const b = signedTransfer(w, to.address, 2n, "second")
    await api.post("/v2/blockchain/message", { boc: a })
    await api.post("/v2/blockchain/message", { boc: b })
    await dn.stepBlock()
    expect(dn.devnet.trace(extHashOf(a))).toBeDefined()
    expect(dn.devnet.trace(extHashOf(b))).toBeUndefined()
    expect((await api.get(`/v2/accounts/${to.raw}/events?limit=10`)).events.filter((e: any) => e.in_progress)).toHaveLength(0)
    await dn.close()
  }, 60_000)
})
