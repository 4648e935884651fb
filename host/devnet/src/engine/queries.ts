// Read-only views of the chain state: account info and the account, jetton and NFT bodies the
// HTTP server answers with.
import { Address, beginCell, type TupleItem } from "@ton/core"
import type { Blockchain } from "@ton/sandbox"
import type { AccountInfo, AccountStatus } from "../model.ts"
import { raw } from "../util.ts"
import { CODE, WALLET_INTERFACES, extraCurrencies, extraCurrencyPreview, jettonPreviewOf, type Meta } from "./catalog.ts"

/** What the queries read from the devnet. */
export interface ChainView {
  readonly bc: Blockchain
  parseRaw(id: string): string
  parseAccount(id: string): Address
  info(account: string): Promise<AccountInfo>
}

export interface NftItemJson {
  address: string
  index: bigint
  owner?: string
  collection?: string
}

export const accountInfo = async (meta: Meta, staticInfo: Map<string, Partial<AccountInfo>>, account: string, bc: Blockchain): Promise<AccountInfo> => {
  const address = Address.parse(account)
  const c = await bc.getContract(address)
  const st = c.accountState
  // the sandbox materialises unknown accounts as empty uninit ones: never touched means nonexist
  const untouched = c.balance === 0n && c.account.lastTransactionLt === 0n
  const status: AccountStatus =
    !st || (st.type === "uninit" && untouched) ? "nonexist" : st.type === "active" ? "active" : st.type === "frozen" ? "frozen" : "uninit"
  const name = meta.names[account] ?? meta.nftNames[account]
  const base = { address: account, status, isScam: meta.scam.includes(account), ...(name ? { name } : {}) }
  if (!st || st.type !== "active" || !st.state.code) return { ...base, isWallet: false, interfaces: [] }
  const codeHash = st.state.code.hash().toString("hex")
  const walletIface = WALLET_INTERFACES[codeHash]
  if (walletIface) return { ...base, isWallet: true, interfaces: [walletIface] }
  if (codeHash === CODE.jettonMinter) return { ...base, isWallet: false, interfaces: ["jetton_master"], jettonMaster: jettonPreviewOf(meta, account) }
  if (codeHash === CODE.nftCollection) return { ...base, isWallet: false, interfaces: ["nft_collection"], nftCollection: true }
  const cached = staticInfo.get(account)
  if (codeHash === CODE.jettonWallet) {
    let jw = cached?.jettonWallet
    if (!jw) {
      const r = (await bc.runGetMethod(address, "get_wallet_data")).stackReader
      r.readBigNumber()
      const owner = raw(r.readAddress())
      const master = raw(r.readAddress())
      jw = { owner, master }
      staticInfo.set(account, { jettonWallet: jw })
    }
    return { ...base, isWallet: false, interfaces: ["jetton_wallet"], jettonWallet: jw }
  }
  if (codeHash === CODE.nftItem) {
    let item = cached?.nftItem
    if (!item) {
      const r = (await bc.runGetMethod(address, "get_nft_data")).stackReader
      r.readBoolean()
      const index = r.readBigNumber()
      const col = r.readAddressOpt()
      item = { index, ...(col ? { collection: raw(col) } : {}) }
      staticInfo.set(account, { nftItem: item })
    }
    return { ...base, isWallet: false, interfaces: ["nft_item"], nftItem: item }
  }
  return { ...base, isWallet: false, interfaces: [] }
}

export const accountJson = async (v: ChainView, id: string, lastActivity: ReadonlyMap<string, number>) => {
  const a = v.parseRaw(id)
  const info = await v.info(a)
  const c = await v.bc.getContract(Address.parse(a))
  const extra = extraCurrencies(c.account.account?.storage.balance.other)
  return {
    address: a,
    balance: Number(c.balance),
    ...(extra.length ? { extra_balance: extra.map(([currency, amount]) => ({ amount: amount.toString(), preview: extraCurrencyPreview(currency) })) } : {}),
    last_activity: lastActivity.get(a) ?? 0,
    status: info.status,
    interfaces: [...info.interfaces],
    ...(info.name ? { name: info.name } : {}),
    is_scam: info.isScam,
    get_methods: info.isWallet
      ? ["seqno", "get_public_key"]
      : info.jettonWallet
        ? ["get_wallet_data"]
        : info.jettonMaster
          ? ["get_jetton_data", "get_wallet_address"]
          : info.nftItem
            ? ["get_nft_data"]
            : [],
    is_wallet: info.isWallet,
  }
}

export const rawAccountJson = async (v: ChainView, id: string) => {
  const a = v.parseRaw(id)
  const c = await v.bc.getContract(Address.parse(a))
  const info = await v.info(a)
  const st = c.accountState
  const storage = c.account.account?.storageStats
  const last = c.account.lastTransactionLt
  return {
    address: a,
    balance: Number(c.balance),
    ...(st?.type === "active" && st.state.code ? { code: st.state.code.toBoc().toString("hex") } : {}),
    ...(st?.type === "active" && st.state.data ? { data: st.state.data.toBoc().toString("hex") } : {}),
    last_transaction_lt: Number(last),
    last_transaction_hash: c.account.lastTransactionHash.toString(16).padStart(64, "0"),
    status: info.status,
    storage: {
      used_cells: Number(storage?.used.cells ?? 0n),
      used_bits: Number(storage?.used.bits ?? 0n),
      used_public_cells: 0,
      last_paid: storage?.lastPaid ?? 0,
      due_payment: Number(storage?.duePayment ?? 0n),
    },
  }
}

export const seqnoOf = async (v: ChainView, id: string): Promise<number> => {
  const a = v.parseAccount(id)
  const c = await v.bc.getContract(a)
  if (c.accountState?.type !== "active") return 0
  try {
    return (await v.bc.runGetMethod(a, "seqno")).stackReader.readNumber()
  } catch {
    return 0
  }
}

export const runGet = async (v: ChainView, id: string, method: string, args: TupleItem[]) => {
  const a = v.parseAccount(id)
  return v.bc.runGetMethod(a, method, args)
}

export const jettonWalletAddress = async (v: ChainView, master: string, owner: string): Promise<string> => {
  const r = await v.bc.runGetMethod(Address.parse(master), "get_wallet_address", [
    { type: "slice", cell: beginCell().storeAddress(Address.parse(owner)).endCell() },
  ])
  return raw(r.stackReader.readAddress())
}

export const jettonBalance = async (v: ChainView, master: string, owner: string): Promise<{ wallet: string; balance: bigint } | undefined> => {
  const wallet = await jettonWalletAddress(v, master, owner)
  const c = await v.bc.getContract(Address.parse(wallet))
  if (c.accountState?.type !== "active") return undefined
  const r = (await v.bc.runGetMethod(Address.parse(wallet), "get_wallet_data")).stackReader
  return { wallet, balance: r.readBigNumber() }
}

export const jettonData = async (v: ChainView, master: string) => {
  const r = (await v.bc.runGetMethod(Address.parse(master), "get_jetton_data")).stackReader
  const totalSupply = r.readBigNumber()
  const mintable = r.readBoolean()
  const admin = r.readAddressOpt()
  return { totalSupply, mintable, admin: admin ? raw(admin) : undefined }
}

export const nftItems = async (v: ChainView, names: Record<string, string>): Promise<NftItemJson[]> => {
  const out: NftItemJson[] = []
  for (const address of Object.keys(names)) {
    const item = await nftItem(v, address)
    if (item) out.push(item)
  }
  return out
}

export const nftItem = async (v: ChainView, address: string): Promise<NftItemJson | undefined> => {
  const a = Address.parse(address)
  const c = await v.bc.getContract(a)
  if (c.accountState?.type !== "active") return undefined
  try {
    const r = (await v.bc.runGetMethod(a, "get_nft_data")).stackReader
    r.readBoolean()
    const index = r.readBigNumber()
    const col = r.readAddressOpt()
    const owner = r.readAddressOpt()
    return { address: raw(a), index, ...(owner ? { owner: raw(owner) } : {}), ...(col ? { collection: raw(col) } : {}) }
  } catch {
    return undefined
  }
}
