/* oxlint-disable typescript/no-explicit-any -- OpenAPI documents are walked as plain JSON */
// Contract test: every path of tonapi-v2-subset.yml the devnet serves is called and each 200 response
// is validated with ajv against the schema the OpenAPI document gives for it.
import fs from "node:fs"
import path from "node:path"
import { fileURLToPath } from "node:url"
import { Address, SendMode, beginCell, external, internal, storeMessage, storeMessageRelaxed, toNano } from "@ton/core"
import { WalletContractV5R1 } from "@ton/ton"
import Ajv from "ajv"
import YAML from "yaml"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type RunningDevnet, startDevnet } from "../src/index.ts"
import { Api, keyFor, open } from "./helpers.ts"

const here = path.dirname(fileURLToPath(import.meta.url))
const specFile = [path.resolve(here, "../../../../shared/data/tonapi-v2-subset.yml"), "/work/shared/data/tonapi-v2-subset.yml"].find((f) => fs.existsSync(f))!
const spec = YAML.parse(fs.readFileSync(specFile, "utf8")) as any

/** OpenAPI 3.0 -> JSON Schema: `nullable` becomes a null type, refs point at the registered document. */
const toJsonSchema = (node: any): any => {
  if (Array.isArray(node)) return node.map(toJsonSchema)
  if (!node || typeof node !== "object") return node
  const out: any = {}
  for (const [k, v] of Object.entries(node)) {
    if (k === "nullable" || k === "example" || k === "x-js-format" || k === "deprecated") continue
    if (k === "$ref" && typeof v === "string") out.$ref = v.replace(/^#\//, "tonapi#/")
    else out[k] = toJsonSchema(v)
  }
  if (node.nullable === true) {
    if (typeof out.type === "string") out.type = [out.type, "null"]
    else return { anyOf: [out, { type: "null" }] }
  }
  return out
}

const ajv = new Ajv({ strict: false, validateFormats: false, allErrors: true })
ajv.addSchema({ $id: "tonapi", components: toJsonSchema(spec.components) })
const responseSchema = (p: string, method: string, status = "200"): any => {
  const op = spec.paths[p][method]
  const res = op.responses[status]
  const resolved = res?.$ref ? spec.components.responses[res.$ref.split("/").pop()] : res
  const schema = resolved?.content?.["application/json"]?.schema
  return schema ? toJsonSchema(schema) : undefined
}

let dn: RunningDevnet
let api: Api
const key = keyFor("contract-alice")
const alice = WalletContractV5R1.create({ publicKey: key.publicKey, walletId: { networkGlobalId: -239 } })
const A = alice.address.toRawString()
const bob = new Address(0, Buffer.alloc(32, 0xb0))
const B = bob.toRawString()
let usdt = ""
let nft = ""
let eventId = ""

const signed = async (seqno: number, body = "contract") => {
  const transfer = alice.createTransfer({
    seqno,
    secretKey: key.secretKey,
    sendMode: SendMode.PAY_GAS_SEPARATELY,
    messages: [internal({ to: bob, value: toNano("0.2"), bounce: false, body })],
  })
  return beginCell()
    .store(storeMessage(external({ to: alice.address, body: transfer })))
    .endCell()
    .toBoc()
    .toString("base64")
}

beforeAll(async () => {
  dn = await startDevnet({ blockMs: 0 })
  api = new Api(dn.url)
  usdt = dn.jetton("usdt")
  const f = await dn.faucet({ address: A, ton: toNano("10"), jetton: "usdt", nft: true })
  nft = f.nft!
  await dn.faucet({ address: B, jetton: "scam", extraCurrency: { id: 100, amount: 12_345n } })
  await dn.stepBlock()
  const w = open(api, alice)
  await w.sendTransfer({
    seqno: 0,
    secretKey: key.secretKey,
    sendMode: SendMode.PAY_GAS_SEPARATELY,
    messages: [internal({ to: bob, value: toNano("1"), bounce: false, body: "hi" })],
  })
  await dn.stepBlock()
  const jw = (await api.get(`/v2/accounts/${A}/jettons/${usdt}`)).wallet_address.address
  const jBody = beginCell()
    .storeUint(0x0f8a7ea5, 32)
    .storeUint(0, 64)
    .storeCoins(5_000_000n)
    .storeAddress(bob)
    .storeAddress(alice.address)
    .storeMaybeRef(null)
    .storeCoins(1n)
    .storeBit(false)
    .endCell()
  await w.sendTransfer({
    seqno: 1,
    secretKey: key.secretKey,
    sendMode: SendMode.PAY_GAS_SEPARATELY,
    messages: [internal({ to: Address.parse(jw), value: toNano("0.1"), body: jBody })],
  })
  await dn.stepBlock()
  eventId = (await api.get(`/v2/accounts/${A}/events?limit=1`)).events[0].event_id
}, 60_000)
afterAll(async () => {
  await dn?.close()
})

type Call = { path: string; body?: () => Promise<unknown> | unknown }
const calls = (): Record<string, Call> => ({
  "get /v2/accounts/{account_id}": { path: `/v2/accounts/${A}` },
  "post /v2/accounts/_bulk": { path: "/v2/accounts/_bulk", body: () => ({ account_ids: [A, B, usdt, "faucet.ton"] }) },
  "get /v2/accounts/{account_id}/dns/backresolve": { path: `/v2/accounts/${dn.devnet.meta.faucet}/dns/backresolve` },
  "get /v2/accounts/{account_id}/nfts": { path: `/v2/accounts/${A}/nfts?limit=10&offset=0` },
  "get /v2/accounts/{account_id}/jettons": { path: `/v2/accounts/${A}/jettons?currencies=ton,usd,rub` },
  "get /v2/accounts/{account_id}/jettons/{jetton_id}": { path: `/v2/accounts/${A}/jettons/${usdt}?currencies=usd` },
  "get /v2/accounts/{account_id}/events": { path: `/v2/accounts/${A}/events?limit=10` },
  "get /v2/accounts/{account_id}/events/{event_id}": { path: `/v2/accounts/${A}/events/${eventId}` },
  "get /v2/accounts/{account_id}/jettons/history": { path: `/v2/accounts/${A}/jettons/history?limit=10` },
  "get /v2/jettons/{jetton_id}/accounts/{account_id}/history": { path: `/v2/jettons/${usdt}/accounts/${A}/history?limit=10` },
  "get /v2/wallet/{account_id}/seqno": { path: `/v2/wallet/${A}/seqno` },
  "post /v2/wallet/emulate": { path: "/v2/wallet/emulate", body: async () => ({ boc: await signed(2) }) },
  "post /v2/events/emulate": { path: "/v2/events/emulate", body: async () => ({ boc: await signed(2) }) },
  "post /v2/accounts/{account_id}/events/emulate": { path: `/v2/accounts/${A}/events/emulate`, body: async () => ({ boc: await signed(2) }) },
  "post /v2/blockchain/message": { path: "/v2/blockchain/message", body: async () => ({ boc: await signed(2, "sent by the contract test") }) },
  "get /v2/dns/{domain_name}/resolve": { path: "/v2/dns/faucet.ton/resolve" },
  "get /v2/blockchain/accounts/{account_id}/methods/{method_name}": { path: `/v2/blockchain/accounts/${usdt}/methods/get_wallet_address?args=${A}` },
  "post /v2/blockchain/accounts/{account_id}/methods/{method_name}": {
    path: `/v2/blockchain/accounts/${usdt}/methods/get_jetton_data`,
    body: () => ({ args: [] }),
  },
  "get /v2/blockchain/accounts/{account_id}": { path: `/v2/blockchain/accounts/${A}` },
  "get /v2/rates": { path: `/v2/rates?tokens=ton,${usdt}&currencies=ton,usd,rub` },
  "get /v2/rates/chart": { path: `/v2/rates/chart?token=ton&currency=usd&points_count=50` },
  "get /v2/jettons/{account_id}": { path: `/v2/jettons/${usdt}` },
  "get /v2/gasless/config": { path: "/v2/gasless/config" },
  "post /v2/gasless/estimate/{master_id}": {
    path: `/v2/gasless/estimate/${usdt}`,
    body: () => ({
      wallet_address: A,
      wallet_public_key: key.publicKey.toString("hex"),
      messages: [{ boc: beginCell().storeWritable(storeMessageRelaxedTo(bob)).endCell().toBoc().toString("hex") }],
    }),
  },
  "post /v2/gasless/send": { path: "/v2/gasless/send", body: async () => ({ wallet_public_key: key.publicKey.toString("hex"), boc: await gaslessBoc() }) },
  "get /v2/staking/pool/{account_id}": { path: `/v2/staking/pool/${dn.devnet.meta.pool}` },
  "get /v2/events/{event_id}": { path: `/v2/events/${eventId}` },
  "get /v2/traces/{trace_id}": { path: `/v2/traces/${eventId}` },
  "get /v2/nfts/{account_id}": { path: `/v2/nfts/${nft}` },
})

const storeMessageRelaxedTo = (to: Address) => storeMessageRelaxed(internal({ to, value: toNano("0.05"), body: "gasless" }))
const gaslessBoc = async () => {
  const seqno = (await api.get(`/v2/wallet/${A}/seqno`)).seqno as number
  const body = await alice.createTransfer({
    seqno,
    secretKey: key.secretKey,
    authType: "internal",
    sendMode: SendMode.PAY_GAS_SEPARATELY,
    messages: [internal({ to: bob, value: toNano("0.05"), bounce: false, body: "gasless" })],
  })
  return beginCell()
    .store(storeMessage(external({ to: alice.address, body })))
    .endCell()
    .toBoc()
    .toString("hex")
}

describe("tonapi v2 subset contract", { timeout: 60_000 }, () => {
  it("covers every path and method of the subset", () => {
    const inSpec = Object.entries(spec.paths).flatMap(([p, ops]: [string, any]) => Object.keys(ops).map((m) => `${m} ${p}`))
    expect(Object.keys(calls()).sort()).toEqual(inSpec.sort())
  })

  it("every response validates against its schema", async () => {
    const failures: string[] = []
    for (const [id, call] of Object.entries(calls())) {
      const [method, p] = id.split(" ") as [string, string]
      const body = call.body ? await call.body() : undefined
      const r = await api.req(method.toUpperCase(), call.path, body)
      if (r.status !== 200) {
        failures.push(`${id}: HTTP ${r.status} ${JSON.stringify(r.json)}`)
        continue
      }
      const schema = responseSchema(p, method)
      if (!schema) continue // 200 without a body (blockchain/message)
      const validate = ajv.compile(schema)
      if (!validate(r.json)) failures.push(`${id}: ${ajv.errorsText(validate.errors, { separator: "\n  " })}`)
    }
    expect(failures).toEqual([])
  })

  it("events after a block cover each action kind and validate", async () => {
    await dn.stepBlock()
    const validate = ajv.compile(responseSchema("/v2/accounts/{account_id}/events", "get"))
    for (const acc of [A, B, usdt, dn.devnet.meta.relay]) {
      const r = await api.get(`/v2/accounts/${acc}/events?limit=100`)
      expect(validate(r), `${acc}: ${ajv.errorsText(validate.errors)}`).toBe(true)
    }
    const types = new Set((await api.get(`/v2/accounts/${A}/events?limit=100`)).events.flatMap((e: any) => e.actions.map((a: any) => a.type)))
    expect([...types].sort()).toEqual(["ContractDeploy", "JettonMint", "JettonTransfer", "NftItemTransfer", "TonTransfer"])
  })

  it("errors use the Error schema", async () => {
    const validate = ajv.compile(responseSchema("/v2/accounts/{account_id}", "get", "default"))
    for (const p of ["/v2/accounts/not-an-address", "/v2/nfts/0:" + "00".repeat(32), "/v2/accounts/" + A + "/events"]) {
      const r = await api.req("GET", p)
      expect(r.status).toBeGreaterThanOrEqual(400)
      expect(validate(r.json)).toBe(true)
    }
  })
})
