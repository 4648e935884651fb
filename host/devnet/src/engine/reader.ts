// The devnet's read side: address parsing, account info, the indexer's queries and prices.
// Devnet (../devnet.ts) extends it with the write side: faucet, mempool, blocks, persistence.
import { Address, type TupleItem } from "@ton/core"
import type { Blockchain } from "@ton/sandbox"
import type { AccountAddressJson, AccountEventJson, AccountInfo, JettonPreviewJson, TraceRecord } from "../model.ts"
import { ApiError, raw } from "../util.ts"
import { type Meta, TON_PRICE_USD, USD_RATES, jettonPreviewOf, ratesOf } from "./catalog.ts"
import * as queries from "./queries.ts"
import { TraceIndex } from "./trace-index.ts"

export class ChainReader {
  protected readonly indexer = new TraceIndex()
  protected readonly staticInfo = new Map<string, Partial<AccountInfo>>()
  protected readonly walletCache = new Map<string, boolean>()

  constructor(
    readonly bc: Blockchain,
    readonly meta: Meta,
  ) {}

  jettonByKey(key: string): string | undefined {
    return Object.entries(this.meta.jettons).find(([, j]) => j.key === key)?.[0]
  }

  parseRaw(id: string): string {
    return raw(this.parseAccount(id))
  }

  parseAccount(id: string): Address {
    const s = decodeURIComponent(id).trim()
    const dns = this.meta.dns[s.toLowerCase()]
    if (dns) return Address.parse(dns)
    try {
      return Address.parse(s)
    } catch {
      throw new ApiError(400, `can't decode address ${s}`)
    }
  }

  friendly(a: string, opts: { bounceable?: boolean } = {}): string {
    return Address.parse(a).toString({ urlSafe: true, bounceable: opts.bounceable ?? true, testOnly: this.meta.globalId === -3 })
  }

  info(account: string, bc: Blockchain = this.bc): Promise<AccountInfo> {
    return queries.accountInfo(this.meta, this.staticInfo, account, bc)
  }

  jettonPreview(master: string): JettonPreviewJson {
    return jettonPreviewOf(this.meta, master)
  }

  accountAddress = (a: string): AccountAddressJson => {
    const name = this.meta.names[a] ?? this.meta.nftNames[a]
    return { address: a, is_scam: this.meta.scam.includes(a), is_wallet: this.walletCache.get(a) ?? false, ...(name ? { name } : {}) }
  }

  // ---------------------------------------------------------------- queries

  account(id: string) {
    return queries.accountJson(this, id, this.indexer.lastActivity)
  }
  rawAccount(id: string) {
    return queries.rawAccountJson(this, id)
  }
  seqno(id: string): Promise<number> {
    return queries.seqnoOf(this, id)
  }
  runGet(id: string, method: string, args: TupleItem[]) {
    return queries.runGet(this, id, method, args)
  }
  jettonWalletAddress(master: string, owner: string): Promise<string> {
    return queries.jettonWalletAddress(this, master, owner)
  }
  jettonBalance(master: string, owner: string): Promise<{ wallet: string; balance: bigint } | undefined> {
    return queries.jettonBalance(this, master, owner)
  }
  jettonMasters(): string[] {
    return Object.keys(this.meta.jettons)
  }
  jettonData(master: string) {
    return queries.jettonData(this, master)
  }
  holdersCount(master: string): number {
    return this.indexer.holdersCount(master)
  }
  nftItems(): Promise<queries.NftItemJson[]> {
    return queries.nftItems(this, this.meta.nftNames)
  }
  nftItem(address: string): Promise<queries.NftItemJson | undefined> {
    return queries.nftItem(this, address)
  }
  listEvents(account: string, opts: Parameters<TraceIndex["listEvents"]>[1]): { events: AccountEventJson[]; next_from: number } {
    return this.indexer.listEvents(account, opts)
  }
  accountEvent(account: string, eventId: string, subjectOnly: boolean): AccountEventJson | undefined {
    return this.indexer.accountEvent(account, eventId, subjectOnly)
  }
  normalizeId(id: string): string {
    return this.indexer.normalizeId(id)
  }
  trace(id: string): TraceRecord | undefined {
    return this.indexer.trace(id)
  }
  jettonHistory(account: string, opts: Parameters<TraceIndex["jettonHistory"]>[1]) {
    return this.indexer.jettonHistory(account, opts)
  }

  // ---------------------------------------------------------------- relay and prices

  relayAddress(): string {
    return this.meta.relay
  }

  protected jettonUsd = (token: string): number | undefined => {
    try {
      return this.meta.jettons[this.parseRaw(token)]?.priceUsd
    } catch {
      return undefined
    }
  }

  rates(tokens: string[], currencies: string[]) {
    return ratesOf(tokens, currencies, this.jettonUsd)
  }

  priceUsd(token: string): number | undefined {
    const k = token.toLowerCase()
    if (k === "ton" || k === "gram") return TON_PRICE_USD
    return this.jettonUsd(token)
  }

  fiatRate(currency: string): number | undefined {
    return USD_RATES[currency.toLowerCase()]
  }
}
