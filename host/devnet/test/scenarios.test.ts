/* oxlint-disable typescript/no-explicit-any -- JSON responses are explored loosely in tests */
import { Address, type Cell, SendMode, beginCell, external, internal, storeMessage, toNano } from "@ton/core"
import { WalletContractV4, WalletContractV5R1 } from "@ton/ton"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type RunningDevnet, startDevnet } from "../src/index.ts"
import { Api, keyFor, open, rawOf } from "./helpers.ts"

let dn: RunningDevnet
let api: Api
const aliceKey = keyFor("alice")
const bobKey = keyFor("bob")
const alice = WalletContractV5R1.create({ publicKey: aliceKey.publicKey, walletId: { networkGlobalId: -239 } })
const bob = WalletContractV4.create({ workchain: 0, publicKey: bobKey.publicKey })
const A = rawOf(alice.address)
const B = rawOf(bob.address)
const sent: Cell[] = []
const aliceW = () => open(api, alice, sent)
const bobW = () => open(api, bob, sent)

const events = (acc: string, q = "") => api.get(`/v2/accounts/${acc}/events?limit=20${q}`)
const seqno = async (acc: string) => (await api.get(`/v2/wallet/${acc}/seqno`)).seqno as number
const balance = async (acc: string) => BigInt((await api.get(`/v2/accounts/${acc}`)).balance)
const actionTypes = (ev: any) => ev.actions.map((a: any) => a.type)

const jettonTransferBody = (amount: bigint, to: Address, response: Address, comment: string) =>
  beginCell()
    .storeUint(0x0f8a7ea5, 32)
    .storeUint(7, 64)
    .storeCoins(amount)
    .storeAddress(to)
    .storeAddress(response)
    .storeMaybeRef(null)
    .storeCoins(1n)
    .storeBit(true)
    .storeRef(beginCell().storeUint(0, 32).storeStringTail(comment).endCell())
    .endCell()

beforeAll(async () => {
  dn = await startDevnet({ blockMs: 0 })
  api = new Api(dn.url)
  await dn.faucet({ address: alice.address.toString(), ton: toNano("20"), jetton: "usdt", amount: 100_000_000n, nft: true })
  await dn.faucet({ address: B, ton: toNano("5") })
  await dn.stepBlock()
}, 60_000)
afterAll(async () => {
  await dn?.close()
})

describe("devnet scenarios", { timeout: 60_000 }, () => {
  it("faucet funds show up as TonTransfer, JettonMint and an NFT mint", async () => {
    const ev = await events(A)
    const types = ev.events.flatMap(actionTypes)
    expect(types).toContain("TonTransfer")
    expect(types).toContain("JettonMint")
    expect(types).toContain("NftItemTransfer")
    expect(await balance(A)).toBeGreaterThanOrEqual(toNano("20"))
    const j = await api.get(`/v2/accounts/${A}/jettons?currencies=usd`)
    expect(j.balances).toHaveLength(1)
    expect(j.balances[0].balance).toBe("100000000")
    expect(j.balances[0].jetton.symbol).toBe("USD₮")
    expect(j.balances[0].jetton.decimals).toBe(6)
    expect(j.balances[0].jetton.verification).toBe("whitelist")
    expect(j.balances[0].price.prices.USD).toBe(1)
  })

  it("W5R1 sends TON with a comment: pending until the block, then both parties see it", async () => {
    const before = await balance(B)
    await aliceW().sendTransfer({
      seqno: 0,
      secretKey: aliceKey.secretKey,
      sendMode: SendMode.PAY_GAS_SEPARATELY,
      messages: [internal({ to: bob.address, value: toNano("1.5"), bounce: false, body: "hello bob" })],
    })
    const pending = await events(A)
    expect(pending.events[0].in_progress).toBe(true)
    expect(await seqno(A)).toBe(0)
    await dn.stepBlock()
    const evA = (await events(A)).events[0]
    expect(evA.in_progress).toBe(false)
    expect(actionTypes(evA)).toEqual(["ContractDeploy", "TonTransfer"])
    const t = evA.actions[1].TonTransfer
    expect(t.comment).toBe("hello bob")
    expect(t.amount).toBe(1_500_000_000)
    expect(t.sender.address).toBe(A)
    expect(t.recipient.address).toBe(B)
    expect(evA.extra).toBeLessThan(0) // fees
    const evB = (await events(B)).events[0]
    expect(evB.event_id).toBe(evA.event_id)
    expect(actionTypes(evB)).toEqual(["TonTransfer"])
    expect(evB.actions[0].TonTransfer.comment).toBe("hello bob")
    expect(await seqno(A)).toBe(1)
    const gained = (await balance(B)) - before
    expect(gained).toBeLessThanOrEqual(toNano("1.5"))
    expect(gained).toBeGreaterThan(toNano("1.5") - 10_000n) // minus storage fees
    const acc = await api.get(`/v2/accounts/${A}`)
    expect(acc.status).toBe("active")
    expect(acc.is_wallet).toBe(true)
    expect(acc.interfaces).toEqual(["wallet_v5r1"])
  })

  it("v4R2 deploys on its first transfer and pays back", async () => {
    await bobW().sendTransfer({ seqno: 0, secretKey: bobKey.secretKey, messages: [internal({ to: alice.address, value: toNano("0.5"), body: "thanks" })] })
    await dn.stepBlock()
    const evB = (await events(B)).events[0]
    expect(actionTypes(evB)).toEqual(["ContractDeploy", "TonTransfer"])
    const evA = (await events(A)).events[0]
    expect(evA.actions[0].TonTransfer.comment).toBe("thanks")
    expect(await seqno(B)).toBe(1)
    expect((await api.get(`/v2/accounts/${B}`)).interfaces).toEqual(["wallet_v4r2"])
  })

  it("sends a jetton: JettonTransfer for both owners, balances move", async () => {
    const usdt = dn.jetton("usdt")
    const aliceJw = (await api.get(`/v2/accounts/${A}/jettons/${usdt}`)).wallet_address.address
    await aliceW().sendTransfer({
      seqno: await seqno(A),
      secretKey: aliceKey.secretKey,
      sendMode: SendMode.PAY_GAS_SEPARATELY,
      messages: [
        internal({ to: Address.parse(aliceJw), value: toNano("0.1"), body: jettonTransferBody(25_000_000n, bob.address, alice.address, "for coffee") }),
      ],
    })
    await dn.stepBlock()
    const evA = (await events(A)).events[0]
    expect(actionTypes(evA)).toEqual(["JettonTransfer"])
    const jt = evA.actions[0].JettonTransfer
    expect(jt.amount).toBe("25000000")
    expect(jt.comment).toBe("for coffee")
    expect(jt.sender.address).toBe(A)
    expect(jt.recipient.address).toBe(B)
    expect(jt.senders_wallet).toBe(aliceJw)
    expect(evA.actions[0].status).toBe("ok")
    const evB = (await events(B)).events[0]
    expect(evB.event_id).toBe(evA.event_id)
    expect(actionTypes(evB)).toEqual(["JettonTransfer"])
    expect((await api.get(`/v2/accounts/${A}/jettons/${usdt}`)).balance).toBe("75000000")
    expect((await api.get(`/v2/accounts/${B}/jettons/${usdt}`)).balance).toBe("25000000")
    const hist = await api.get(`/v2/accounts/${B}/jettons/history?limit=10`)
    expect(hist.operations[0].operation).toBe("transfer")
    expect(hist.operations[0].amount).toBe("25000000")
    // subject_only keeps the owner's action and drops it for the jetton wallet itself
    expect((await events(aliceJw, "&subject_only=true")).events.filter((e: any) => e.event_id === evA.event_id)).toHaveLength(0)
    expect((await events(aliceJw)).events.some((e: any) => e.event_id === evA.event_id)).toBe(true)
  })

  it("transfers an NFT: NftItemTransfer for both parties and ownership moves", async () => {
    const nfts = await api.get(`/v2/accounts/${A}/nfts`)
    expect(nfts.nft_items).toHaveLength(1)
    const item = nfts.nft_items[0].address
    const body = beginCell()
      .storeUint(0x5fcc3d14, 32)
      .storeUint(1, 64)
      .storeAddress(bob.address)
      .storeAddress(alice.address)
      .storeMaybeRef(null)
      .storeCoins(1n)
      .storeBit(false)
      .endCell()
    await aliceW().sendTransfer({
      seqno: await seqno(A),
      secretKey: aliceKey.secretKey,
      sendMode: SendMode.PAY_GAS_SEPARATELY,
      messages: [internal({ to: Address.parse(item), value: toNano("0.1"), body })],
    })
    await dn.stepBlock()
    const evA = (await events(A)).events[0]
    expect(actionTypes(evA)).toEqual(["NftItemTransfer"])
    expect(evA.actions[0].NftItemTransfer.nft).toBe(item)
    expect(evA.actions[0].NftItemTransfer.recipient.address).toBe(B)
    const evB = (await events(B)).events[0]
    expect(actionTypes(evB)).toEqual(["NftItemTransfer"])
    expect((await api.get(`/v2/accounts/${B}/nfts`)).nft_items.map((n: any) => n.address)).toEqual([item])
    expect((await api.get(`/v2/accounts/${A}/nfts`)).nft_items).toHaveLength(0)
    expect((await api.get(`/v2/nfts/${item}`)).owner.address).toBe(B)
  })

  it("emulate predicts the event and risk without changing state", async () => {
    const s = await seqno(A)
    const bal = await balance(A)
    const transfer = alice.createTransfer({
      seqno: s,
      secretKey: aliceKey.secretKey,
      sendMode: SendMode.PAY_GAS_SEPARATELY,
      messages: [internal({ to: bob.address, value: toNano("0.3"), bounce: false, body: "predicted" })],
    })
    const boc = beginCell()
      .store(storeMessage(external({ to: alice.address, body: transfer })))
      .endCell()
      .toBoc()
      .toString("base64")
    const em = await api.post("/v2/wallet/emulate", { boc })
    expect(actionTypes(em.event)).toEqual(["TonTransfer"])
    expect(em.event.actions[0].TonTransfer.comment).toBe("predicted")
    expect(em.risk.gram).toBe(300_000_000)
    expect(em.risk.ton).toBe(300_000_000)
    expect(em.risk.transfer_all_remaining_balance).toBe(false)
    expect(em.trace.transaction.account.address).toBe(A)
    expect(em.trace.emulated).toBe(true)
    expect(await seqno(A)).toBe(s)
    expect(await balance(A)).toBe(bal)
    // the real send yields the same actions
    await api.post("/v2/blockchain/message", { boc })
    await dn.stepBlock()
    const real = (await events(A)).events[0]
    expect(real.actions.map((a: any) => [a.type, a.TonTransfer?.amount, a.TonTransfer?.comment])).toEqual(
      em.event.actions.map((a: any) => [a.type, a.TonTransfer?.amount, a.TonTransfer?.comment]),
    )
    // fees match up to storage fees, which depend on the second the block runs in
    expect(Math.abs(real.extra - em.event.extra)).toBeLessThan(1000)
    // send-all mode is flagged in the risk
    const all = alice.createTransfer({
      seqno: s + 1,
      secretKey: aliceKey.secretKey,
      sendMode: SendMode.CARRY_ALL_REMAINING_BALANCE,
      messages: [internal({ to: bob.address, value: 0n })],
    })
    const em2 = await api.post("/v2/wallet/emulate", {
      boc: beginCell()
        .store(storeMessage(external({ to: alice.address, body: all })))
        .endCell()
        .toBoc()
        .toString("base64"),
    })
    expect(em2.risk.transfer_all_remaining_balance).toBe(true)
    expect(await balance(A)).toBeGreaterThan(0n)
  })

  it("emulate risk counts jettons and NFTs leaving the wallet", async () => {
    const usdt = dn.jetton("usdt")
    const bobJw = (await api.get(`/v2/accounts/${B}/jettons/${usdt}`)).wallet_address.address
    const item = (await api.get(`/v2/accounts/${B}/nfts`)).nft_items[0].address
    const nftBody = beginCell()
      .storeUint(0x5fcc3d14, 32)
      .storeUint(2, 64)
      .storeAddress(alice.address)
      .storeAddress(bob.address)
      .storeMaybeRef(null)
      .storeCoins(0n)
      .storeBit(false)
      .endCell()
    const transfer = bob.createTransfer({
      seqno: await seqno(B),
      secretKey: bobKey.secretKey,
      messages: [
        internal({ to: Address.parse(bobJw), value: toNano("0.1"), body: jettonTransferBody(5_000_000n, alice.address, bob.address, "back") }),
        internal({ to: Address.parse(item), value: toNano("0.1"), body: nftBody }),
      ],
    })
    const boc = beginCell()
      .store(storeMessage(external({ to: bob.address, body: transfer })))
      .endCell()
      .toBoc()
      .toString("base64")
    const em = await api.post("/v2/wallet/emulate", { boc })
    expect(em.risk.gram).toBe(200_000_000)
    expect(em.risk.jettons.map((j: any) => [j.quantity, j.jetton.symbol])).toEqual([["5000000", "USD₮"]])
    expect(em.risk.nfts.map((n: any) => n.address)).toEqual([item])
    expect(actionTypes(em.event)).toEqual(["JettonTransfer", "NftItemTransfer"])
    expect((await api.get(`/v2/nfts/${item}`)).owner.address).toBe(B)
  })

  it("rejects a duplicate BoC within a minute with 400", async () => {
    const transfer = alice.createTransfer({
      seqno: await seqno(A),
      secretKey: aliceKey.secretKey,
      sendMode: SendMode.PAY_GAS_SEPARATELY,
      messages: [internal({ to: bob.address, value: toNano("0.01"), bounce: false })],
    })
    const boc = beginCell()
      .store(storeMessage(external({ to: alice.address, body: transfer })))
      .endCell()
      .toBoc()
      .toString("base64")
    expect((await api.req("POST", "/v2/blockchain/message", { boc })).status).toBe(200)
    const dup = await api.req<any>("POST", "/v2/blockchain/message", { boc })
    expect(dup.status).toBe(400)
    expect(dup.json.error).toMatch(/duplicate/)
    await dn.stepBlock()
  })

  it("rejects a bad signature: the W5 contract exits with 135", async () => {
    const s = await seqno(A)
    const forged = alice.createTransfer({
      seqno: s,
      secretKey: bobKey.secretKey,
      sendMode: SendMode.PAY_GAS_SEPARATELY,
      messages: [internal({ to: bob.address, value: toNano("1"), bounce: false })],
    })
    const boc = beginCell()
      .store(storeMessage(external({ to: alice.address, body: forged })))
      .endCell()
      .toBoc()
      .toString("base64")
    const r = await api.req<any>("POST", "/v2/blockchain/message", { boc })
    expect(r.status).toBe(400)
    expect(r.json.error_code).toBe(135)
    await dn.stepBlock()
    expect(await seqno(A)).toBe(s)
  })

  it("sends 255 messages in one W5 external", async () => {
    const targets = Array.from({ length: 255 }, (_, i) => new Address(0, Buffer.alloc(32, i + 1)))
    const before = await balance(A)
    await aliceW().sendTransfer({
      seqno: await seqno(A),
      secretKey: aliceKey.secretKey,
      sendMode: SendMode.PAY_GAS_SEPARATELY,
      messages: targets.map((to, i) => internal({ to, value: toNano("0.01"), bounce: false, body: `n${i}` })),
    })
    await dn.stepBlock()
    const ev = (await events(A)).events[0]
    expect(ev.actions).toHaveLength(255)
    expect(new Set(actionTypes(ev))).toEqual(new Set(["TonTransfer"]))
    const last = targets[254]!.toRawString()
    const evLast = (await events(last)).events[0]
    expect(evLast.event_id).toBe(ev.event_id)
    expect(evLast.actions[0].TonTransfer.comment).toBe("n254")
    expect(await balance(last)).toBe(toNano("0.01"))
    expect(await balance(A)).toBeLessThan(before - toNano("2.55"))
  })

  it("pages events by before_lt with next_from", async () => {
    const first = await events(A, "&limit=2".replace("&limit=2", ""))
    const page1 = await api.get(`/v2/accounts/${A}/events?limit=2`)
    expect(page1.events).toHaveLength(2)
    expect(page1.next_from).toBe(page1.events[1].lt)
    const page2 = await api.get(`/v2/accounts/${A}/events?limit=2&before_lt=${page1.next_from}`)
    expect(page2.events[0].lt).toBeLessThan(page1.events[1].lt)
    expect(page2.events[0].event_id).toBe(first.events[2].event_id)
    const all = await api.get(`/v2/accounts/${A}/events?limit=100`)
    expect(all.next_from).toBe(0)
    // initiator=true keeps only the traces Bob's wallet started (its one transfer back to Alice)
    const bobs = await api.get(`/v2/accounts/${B}/events?limit=100&initiator=true`)
    expect(bobs.events.map((e: any) => e.actions.map((a: any) => a.type))).toEqual([["ContractDeploy", "TonTransfer"]])
  })
})
