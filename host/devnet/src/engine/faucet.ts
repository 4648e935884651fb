// The faucet: the genesis transfer that deploys the demo contracts, and the messages a faucet
// request turns into (TON, a demo jetton mint, an NFT mint, an extra currency).
import { Address, type Cell, beginCell, internal, toNano } from "@ton/core"
import { type Blockchain, TreasuryContract } from "@ton/sandbox"
import { JettonMinter } from "@ton-community/assets-sdk/dist/jetton/JettonMinter.js"
import { NftCollection } from "@ton-community/assets-sdk/dist/nft/NftCollection.js"
import { ApiError, raw } from "../util.ts"
import { DEMO_JETTONS, type Meta } from "./catalog.ts"

type Msg = ReturnType<typeof internal>

export interface FaucetRequest {
  address: string
  ton?: bigint
  jetton?: string
  amount?: bigint
  nft?: boolean
  name?: string
  extraCurrency?: { id: number; amount: bigint }
}

/** What the faucet reads from the devnet. */
export interface FaucetView {
  readonly bc: Blockchain
  readonly meta: Meta
  readonly processed: { readonly messages: number }
  parseRaw(id: string): string
  parseAccount(id: string): Address
  jettonByKey(key: string): string | undefined
}

/** Fills `meta` with the demo contracts (jettons, NFT collection, relay, staking pool, .ton names) and returns the messages deploying them. */
export const genesisMessages = (meta: Meta, relay: { readonly address: Address; readonly init: { code: Cell; data: Cell } }): Msg[] => {
  const admin = Address.parse(meta.faucet)
  const msgs: Msg[] = []
  for (const j of DEMO_JETTONS) {
    const content = beginCell().storeUint(1, 8).storeStringTail(`https://devnet.local/jettons/${j.key}.json`).endCell()
    const minter = JettonMinter.createFromConfig({ admin, content })
    const a = raw(minter.address)
    meta.jettons[a] = j
    meta.names[a] = j.name
    if (j.verification === "blacklist") meta.scam.push(a)
    msgs.push(internal({ to: minter.address, value: toNano("0.1"), bounce: false, init: minter.init! }))
  }
  const collection = NftCollection.createFromConfig({
    admin,
    content: beginCell().storeUint(1, 8).storeStringTail("https://devnet.local/nft/collection.json").endCell(),
    royalty: { numerator: 0n, denominator: 100n, recipient: admin },
  })
  meta.collection = raw(collection.address)
  meta.names[meta.collection] = "Devnet Punks"
  msgs.push(internal({ to: collection.address, value: toNano("0.1"), bounce: false, init: collection.init! }))
  meta.relay = raw(relay.address)
  meta.names[meta.relay] = "Gasless relay"
  msgs.push(internal({ to: relay.address, value: toNano("1000"), bounce: false, init: relay.init }))
  const pool = new TreasuryContract(0, 0xbeefn)
  meta.pool = raw(pool.address)
  meta.names[meta.pool] = "Tonstakers (devnet)"
  msgs.push(internal({ to: pool.address, value: toNano("10000"), bounce: false, init: pool.init }))
  meta.dns = {
    "faucet.ton": meta.faucet,
    "usdt.ton": Object.keys(meta.jettons)[0]!,
    "punks.ton": meta.collection,
    "relay.ton": meta.relay,
    "stake.ton": meta.pool,
  }
  return msgs
}

/** The messages one faucet request sends from the faucet wallet, the NFT it mints and the extra currency to mint first. */
export const faucetMessages = async (d: FaucetView, req: FaucetRequest): Promise<{ msgs: Msg[]; nft?: string; mint?: { id: number; amount: bigint } }> => {
  const to = d.parseAccount(req.address)
  const msgs: Msg[] = []
  let nft: string | undefined
  const stamp = `devnet faucet #${d.processed.messages}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`
  if (req.ton !== undefined && req.ton > 0n) {
    msgs.push(internal({ to, value: req.ton, bounce: false, body: beginCell().storeUint(0, 32).storeStringTail(stamp).endCell() }))
  }
  if (req.jetton) {
    const master = d.jettonByKey(req.jetton) ?? (d.meta.jettons[d.parseRaw(req.jetton)] ? d.parseRaw(req.jetton) : undefined)
    if (!master) throw new ApiError(400, `unknown jetton ${req.jetton}`)
    const meta = d.meta.jettons[master]!
    const amount = req.amount ?? 1000n * 10n ** BigInt(meta.decimals)
    const captured: { body?: Cell; value?: bigint } = {}
    const provider = { internal: async (_via: unknown, args: { body?: Cell; value: bigint }) => void Object.assign(captured, args) }
    await JettonMinter.createFromAddress(Address.parse(master)).sendMint(provider as never, { address: Address.parse(d.meta.faucet) } as never, to, amount, {
      queryId: BigInt(Date.now()),
    })
    msgs.push(internal({ to: Address.parse(master), value: toNano("0.1"), bounce: true, body: captured.body! }))
  }
  if (req.nft) {
    const index = BigInt(d.meta.nextNftIndex++)
    const col = NftCollection.createFromAddress(Address.parse(d.meta.collection))
    const captured: { body?: Cell } = {}
    const provider = { internal: async (_via: unknown, args: { body?: Cell }) => void Object.assign(captured, args) }
    const name = req.name ?? `Devnet Punk #${index}`
    await col.sendMint(
      provider as never,
      { address: Address.parse(d.meta.faucet) } as never,
      { index, owner: to, individualContent: `${index}.json` },
      { queryId: index },
    )
    msgs.push(internal({ to: Address.parse(d.meta.collection), value: toNano("0.1"), bounce: true, body: captured.body! }))
    const itemAddr = (
      await d.bc.runGetMethod(Address.parse(d.meta.collection), "get_nft_address_by_index", [{ type: "int", value: index }])
    ).stackReader.readAddress()
    nft = raw(itemAddr)
    d.meta.nftNames[nft] = name
  }
  let mint: { id: number; amount: bigint } | undefined
  if (req.extraCurrency) {
    const { id, amount } = req.extraCurrency
    if (!Number.isInteger(id) || id <= 0 || id > 0xffffffff) throw new ApiError(400, "extraCurrency.id must be an integer from 1 to 2^32-1")
    if (amount <= 0n) throw new ApiError(400, "extraCurrency.amount must be positive")
    // Minted onto the faucet when the block runs this message, then carried by a plain message
    // (no TON value: an extra-currency transfer on its own, like a wallet sends one).
    mint = { id, amount }
    msgs.push(internal({ to, value: 0n, bounce: false, extracurrency: { [id]: amount } }))
  }
  if (msgs.length === 0) throw new ApiError(400, "nothing to fund: give ton, jetton, nft or extraCurrency")
  return { msgs, ...(nft ? { nft } : {}), ...(mint ? { mint } : {}) }
}
