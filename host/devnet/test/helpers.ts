/* oxlint-disable typescript/no-explicit-any -- JSON responses are explored loosely in tests */
// Test helpers: a @ton/core ContractProvider over the devnet's tonapi HTTP API, so @ton/ton wallet
// classes sign and send real externals exactly as they would against tonapi.io.
import {
  Address,
  type Cell,
  type Contract,
  type ContractProvider,
  type ContractState,
  type OpenedContract,
  type StateInit,
  type TupleItem,
  TupleReader,
  beginCell,
  external,
  openContract,
  storeMessage,
} from "@ton/core"
import { keyPairFromSeed, type KeyPair } from "@ton/crypto"

export const keyFor = (name: string): KeyPair => {
  const seed = Buffer.alloc(32)
  Buffer.from(name).copy(seed)
  return keyPairFromSeed(seed)
}

export class Api {
  constructor(readonly url: string) {}
  async req<T = unknown>(method: string, path: string, body?: unknown): Promise<{ status: number; json: T }> {
    const res = await fetch(this.url + path, {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body, (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v)) }),
    })
    const text = await res.text()
    return { status: res.status, json: (text ? JSON.parse(text) : undefined) as T }
  }
  async get<T = any>(path: string): Promise<T> {
    const r = await this.req<T>("GET", path)
    if (r.status !== 200) throw new Error(`GET ${path} -> ${r.status} ${JSON.stringify(r.json)}`)
    return r.json
  }
  async post<T = any>(path: string, body: unknown): Promise<T> {
    const r = await this.req<T>("POST", path, body)
    if (r.status !== 200) throw new Error(`POST ${path} -> ${r.status} ${JSON.stringify(r.json)}`)
    return r.json
  }
}

/** A ContractProvider that reads state and sends externals through the tonapi paths. */
export const httpProvider = (api: Api, address: Address, init: StateInit | null, sent: Cell[]): ContractProvider => ({
  async getState(): Promise<ContractState> {
    const a = await api.get<{ balance: number; status: string; code?: string; data?: string; last_transaction_lt: number; last_transaction_hash?: string }>(
      `/v2/blockchain/accounts/${address.toRawString()}`,
    )
    const state: ContractState["state"] =
      a.status === "active"
        ? { type: "active", code: a.code ? Buffer.from(a.code, "hex") : null, data: a.data ? Buffer.from(a.data, "hex") : null }
        : a.status === "frozen"
          ? { type: "frozen", stateHash: Buffer.alloc(32) }
          : { type: "uninit" }
    return { balance: BigInt(a.balance), extracurrency: null, last: null, state }
  },
  async get(name: string, args: TupleItem[]) {
    const r = await api.post<{ success: boolean; exit_code: number; stack: Array<{ type: string; num?: string }> }>(
      `/v2/blockchain/accounts/${address.toRawString()}/methods/${name}`,
      { args: args.map((a) => (a.type === "int" ? { type: "int257", value: `0x${a.value.toString(16)}` } : { type: "null", value: "" })) },
    )
    if (r.exit_code !== 0 && r.exit_code !== 1) throw new Error(`get ${name} exit ${r.exit_code}`)
    return { stack: new TupleReader(r.stack.map((s) => (s.type === "num" ? { type: "int" as const, value: BigInt(s.num!) } : { type: "null" as const }))) }
  },
  async external(message: Cell) {
    const state = await this.getState()
    const withInit = init && state.state.type !== "active" ? init : null
    const ext = beginCell()
      .store(storeMessage(external({ to: address, body: message, ...(withInit ? { init: withInit } : {}) })))
      .endCell()
    sent.push(ext)
    await api.post("/v2/blockchain/message", { boc: ext.toBoc().toString("base64") })
  },
  async internal() {
    throw new Error("internal sends are not possible over HTTP")
  },
  open<T extends Contract>(contract: T): OpenedContract<T> {
    return openContract(contract, (p) => httpProvider(api, p.address, p.init ?? null, sent))
  },
  async getTransactions() {
    return []
  },
})

export const open = <T extends Contract>(api: Api, contract: T, sent: Cell[] = []): OpenedContract<T> =>
  openContract(contract, (p) => httpProvider(api, p.address, p.init ?? null, sent))

export const rawOf = (a: Address): string => a.toRawString()
