/* oxlint-disable typescript/no-explicit-any -- JSON responses are explored loosely in tests */
import fs from "node:fs"
import os from "node:os"
import path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startDevnet, type RunningDevnet } from "../src/index.ts"
import { Api } from "./helpers.ts"

const TRON_A = "TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC"
const TRON_B = "TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf"
const ETH_A = "0x52908400098527886E0F7030069857D2E4169EE7"

describe("simulated networks", () => {
  let dn: RunningDevnet
  let api: Api
  beforeAll(async () => {
    dn = await startDevnet({ port: 0, blockMs: 0 })
    api = new Api(dn.url)
  })
  afterAll(async () => {
    await dn.close()
  })

  it("the faucet pays into a simulated network at the next block", async () => {
    const paid = await api.post("/v2/devnet/faucet", { address: TRON_A, network: "tron", asset: "USDT", amount: "25000000" })
    expect(paid.transfer).toMatchObject({ to: TRON_A, asset: "USDT", amount: "25000000", status: "pending" })
    expect((await api.get(`/v2/devnet/sim/tron/accounts/${TRON_A}`)).balances.USDT).toBe("0")
    await dn.stepBlock()
    expect((await api.get(`/v2/devnet/sim/tron/accounts/${TRON_A}`)).balances).toEqual({ TRX: "0", USDT: "25000000" })
    expect((await api.get(`/v2/devnet/sim/tron/transfers/${paid.message_hash}`)).status).toBe("confirmed")
    // 18 decimals survive as strings
    dn.simFaucet({ network: "ethereum", address: ETH_A, amount: 12_345_678_901_234_567_891n })
    await dn.stepBlock()
    expect((await api.get(`/v2/devnet/sim/ethereum/accounts/${ETH_A.toLowerCase()}`)).balances.ETH).toBe("12345678901234567891")
  })

  it("transfers move balances, replay by key, and fail without balance", async () => {
    const body = { from: TRON_A, to: TRON_B, asset: "USDT", amount: "5000000", memo: "hi", key: "w-1" }
    const first = await api.post("/v2/devnet/sim/tron/transfers", body)
    const again = await api.post("/v2/devnet/sim/tron/transfers", body)
    expect(again.id).toBe(first.id)
    expect((await api.get("/v2/devnet/sim/tron/keys/w-1")).id).toBe(first.id)
    expect((await api.req("POST", "/v2/devnet/sim/tron/transfers", { ...body, amount: "6" })).status).toBe(409)
    const tooMuch = await api.post("/v2/devnet/sim/tron/transfers", { from: TRON_B, to: TRON_A, asset: "USDT", amount: "999999999" })
    await dn.stepBlock()
    expect((await api.get(`/v2/devnet/sim/tron/transfers/${first.id}`)).status).toBe("confirmed")
    expect(await api.get(`/v2/devnet/sim/tron/transfers/${tooMuch.id}`)).toMatchObject({ status: "failed", reason: "insufficient balance" })
    expect((await api.get(`/v2/devnet/sim/tron/accounts/${TRON_B}`)).balances.USDT).toBe("5000000")
    expect((await api.get(`/v2/devnet/sim/tron/accounts/${TRON_A}`)).balances.USDT).toBe("20000000")
    const page = await api.get(`/v2/devnet/sim/tron/transfers?address=${TRON_B}&after_seq=0&limit=10`)
    expect(page.transfers.map((t: any) => t.id)).toEqual([first.id, tooMuch.id])
    const rest = await api.get(`/v2/devnet/sim/tron/transfers?after_seq=${first.seq}&limit=10`)
    expect(rest.transfers.map((t: any) => t.id)).toEqual([tooMuch.id])
  })

  it("refuses malformed addresses, unknown assets and networks", async () => {
    expect((await api.req("POST", "/v2/devnet/sim/tron/transfers", { from: TRON_A, to: "0xabc", asset: "USDT", amount: "1" })).status).toBe(400)
    expect((await api.req("POST", "/v2/devnet/sim/bitcoin/faucet", { address: "bc1qnotvalid!" })).status).toBe(400)
    expect((await api.req("POST", "/v2/devnet/sim/bitcoin/faucet", { address: TRON_A })).status).toBe(400)
    expect((await api.req("POST", "/v2/devnet/sim/tron/faucet", { address: TRON_A, asset: "BTC" })).status).toBe(400)
    expect((await api.req("GET", "/v2/devnet/sim/dogecoin")).status).toBe(404)
  })

  it("keeps simulated balances across a restart", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "devnet-sim-"))
    const first = await startDevnet({ dataDir: dir, blockMs: 0 })
    first.simFaucet({ network: "solana", address: "4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T", asset: "SOL", amount: 7n })
    await first.stepBlock()
    await first.close()
    const second = await startDevnet({ dataDir: dir, blockMs: 0 })
    expect(second.sim.balance("solana", "4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T", "SOL")).toBe(7n)
    await second.close()
  })
})
