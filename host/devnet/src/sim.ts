// Simulated networks (tron, ethereum, solana, bitcoin): a plain ledger of balances and transfers per
// network, with each network's address format, blocks that confirm what is pending, and a faucet.
// No signatures and no fees: the custody server's network adapters talk to it like to a node's API.
// Served outside the tonapi paths under /v2/devnet/sim/{network}/... (see server.ts and README.md).
import { createHash, randomBytes } from "node:crypto"
import fs from "node:fs"
import path from "node:path"
import { ApiError } from "./util.ts"

export const SIM_NETWORKS = ["tron", "ethereum", "solana", "bitcoin"] as const
export type SimNetwork = (typeof SIM_NETWORKS)[number]

export const isSimNetwork = (s: string): s is SimNetwork => (SIM_NETWORKS as ReadonlyArray<string>).includes(s)

interface SimAsset {
  readonly symbol: string
  readonly decimals: number
}

/** The assets each network carries (native coin first), with the chains' own decimals. */
export const SIM_ASSETS: Readonly<Record<SimNetwork, ReadonlyArray<SimAsset>>> = {
  tron: [
    { symbol: "TRX", decimals: 6 },
    { symbol: "USDT", decimals: 6 },
  ],
  ethereum: [
    { symbol: "ETH", decimals: 18 },
    { symbol: "USDT", decimals: 6 },
    { symbol: "XAUT", decimals: 6 },
  ],
  solana: [
    { symbol: "SOL", decimals: 9 },
    { symbol: "USDT", decimals: 6 },
  ],
  bitcoin: [{ symbol: "BTC", decimals: 8 }],
}

/** Where faucet transfers come from (valid shapes of each format; nobody holds their keys). */
export const SIM_FAUCETS: Readonly<Record<SimNetwork, string>> = {
  tron: "TDevnetFaucet111111111111111111111",
  ethereum: "0x000000000000000000000000000000000000fa11",
  solana: "DevnetFaucet1111111111111111111111111111111",
  bitcoin: "bc1qdevnetfaucetqqqqqqqqqqqqqqqqqqqqqqqqqq",
}

const BASE58 = "[1-9A-HJ-NP-Za-km-z]"
/** Format checks only (the custody server checks checksums): what a node would refuse outright. */
const FORMATS: Readonly<Record<SimNetwork, RegExp>> = {
  tron: new RegExp(`^T${BASE58}{33}$`),
  ethereum: /^0x[0-9a-fA-F]{40}$/,
  solana: new RegExp(`^${BASE58}{32,44}$`),
  bitcoin: new RegExp(`^(bc1[02-9ac-hj-np-z]{11,87}|[13]${BASE58}{25,34})$`),
}

/** The key balances are kept under: EVM addresses are case-insensitive, bech32 is lower case. */
export const normalizeSimAddress = (network: SimNetwork, address: string): string => {
  const a = address.trim()
  const lowered = network === "ethereum" || (network === "bitcoin" && /^bc1/i.test(a)) ? a.toLowerCase() : a
  if (!FORMATS[network].test(lowered)) throw new ApiError(400, `not a ${network} address`)
  return lowered
}

export type SimTransferStatus = "pending" | "confirmed" | "failed"

export interface SimTransfer {
  readonly id: string
  /** Order of acceptance on this network (1, 2, ...): page with after_seq. */
  readonly seq: number
  readonly network: SimNetwork
  readonly from: string
  readonly to: string
  readonly asset: string
  readonly amount: bigint
  readonly memo: string | null
  /** Client idempotency key: the same key with the same body returns the first transfer. */
  readonly key: string | null
  status: SimTransferStatus
  reason: string | null
  block: number | null
  readonly createdAt: number
  confirmedAt: number | null
}

interface NetworkState {
  height: number
  seq: number
  readonly balances: Map<string, Map<string, bigint>>
  readonly transfers: SimTransfer[]
  readonly byId: Map<string, SimTransfer>
  readonly byKey: Map<string, SimTransfer>
}

export interface SimTransferRequest {
  readonly from: string
  readonly to: string
  readonly asset: string
  readonly amount: bigint
  readonly memo?: string | null
  readonly key?: string | null
}

const nowSec = () => Math.floor(Date.now() / 1000)

/** Transaction ids in each network's usual look: 0x-prefixed hex (ethereum), base58 (solana), hex otherwise. */
const txId = (network: SimNetwork, seed: string): string => {
  const digest = createHash("sha256").update(seed).digest()
  if (network === "ethereum") return `0x${digest.toString("hex")}`
  if (network === "solana") {
    const alphabet = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
    let n = BigInt(`0x${Buffer.concat([digest, createHash("sha256").update(digest).digest()]).toString("hex")}`)
    let out = ""
    while (n > 0n) {
      out = alphabet[Number(n % 58n)] + out
      n /= 58n
    }
    return out
  }
  return digest.toString("hex")
}

type SavedSim = Partial<Record<string, { height: number; transfers: Array<ReturnType<typeof simTransferJson> & { key?: string | null }> }>>

const emptyState = (): NetworkState => ({ height: 0, seq: 0, balances: new Map(), transfers: [], byId: new Map(), byKey: new Map() })

/** JSON form of a transfer (amounts as decimal strings: 18-decimal values do not fit a double). */
export const simTransferJson = (t: SimTransfer) => ({
  id: t.id,
  seq: t.seq,
  network: t.network,
  from: t.from,
  to: t.to,
  asset: t.asset,
  amount: t.amount.toString(),
  memo: t.memo,
  status: t.status,
  reason: t.reason,
  block: t.block,
  created_at: t.createdAt,
  confirmed_at: t.confirmedAt,
})

export class SimNetworks {
  private readonly state = new Map<SimNetwork, NetworkState>(SIM_NETWORKS.map((n) => [n, emptyState()]))
  private dirty = false

  private constructor(private readonly file: string | undefined) {}

  /** In memory, or persisted to `<dataDir>/sim.json` (loaded at start, written after each block). */
  static open(dataDir: string | undefined): SimNetworks {
    const sim = new SimNetworks(dataDir ? path.join(dataDir, "sim.json") : undefined)
    if (sim.file && fs.existsSync(sim.file)) sim.load(JSON.parse(fs.readFileSync(sim.file, "utf8")) as SavedSim)
    return sim
  }

  private net(network: SimNetwork): NetworkState {
    return this.state.get(network)!
  }

  assetOf(network: SimNetwork, symbol: string): SimAsset {
    const asset = SIM_ASSETS[network].find((a) => a.symbol === symbol.toUpperCase())
    if (!asset) throw new ApiError(400, `${network} has no asset ${symbol}`)
    return asset
  }

  height(network: SimNetwork): number {
    return this.net(network).height
  }

  pendingCount(): number {
    let n = 0
    for (const s of this.state.values()) n += s.transfers.filter((t) => t.status === "pending").length
    return n
  }

  balance(network: SimNetwork, address: string, asset: string): bigint {
    return this.net(network).balances.get(normalizeSimAddress(network, address))?.get(asset.toUpperCase()) ?? 0n
  }

  balances(network: SimNetwork, address: string): Record<string, string> {
    const a = normalizeSimAddress(network, address)
    const held = this.net(network).balances.get(a)
    return Object.fromEntries(SIM_ASSETS[network].map((asset) => [asset.symbol, (held?.get(asset.symbol) ?? 0n).toString()]))
  }

  /** Queues a transfer; it confirms (or fails for want of balance) at the next block. */
  submit(network: SimNetwork, req: SimTransferRequest): SimTransfer {
    const s = this.net(network)
    const asset = this.assetOf(network, req.asset).symbol
    const from = normalizeSimAddress(network, req.from)
    const to = normalizeSimAddress(network, req.to)
    if (typeof req.amount !== "bigint" || req.amount <= 0n) throw new ApiError(400, "amount must be a positive integer")
    if (from === to) throw new ApiError(400, "from and to are the same address")
    const memo = req.memo ?? null
    if (memo !== null && memo.length > 256) throw new ApiError(400, "memo is at most 256 characters")
    const key = req.key ?? null
    if (key !== null) {
      const existing = s.byKey.get(key)
      if (existing) {
        if (existing.from !== from || existing.to !== to || existing.asset !== asset || existing.amount !== req.amount || existing.memo !== memo) {
          throw new ApiError(409, "this key was used for another transfer")
        }
        return existing
      }
    }
    s.seq += 1
    const transfer: SimTransfer = {
      id: txId(network, `${network}:${s.seq}:${from}:${to}:${asset}:${req.amount}:${randomBytes(8).toString("hex")}`),
      seq: s.seq,
      network,
      from,
      to,
      asset,
      amount: req.amount,
      memo,
      key,
      status: "pending",
      reason: null,
      block: null,
      createdAt: nowSec(),
      confirmedAt: null,
    }
    s.transfers.push(transfer)
    s.byId.set(transfer.id, transfer)
    if (key !== null) s.byKey.set(key, transfer)
    this.dirty = true
    return transfer
  }

  /** Faucet: mints `amount` (default 1000 whole units of the asset) to the address at the next block. */
  faucet(network: SimNetwork, address: string, assetSymbol?: string, amount?: bigint): SimTransfer {
    const asset = this.assetOf(network, assetSymbol ?? SIM_ASSETS[network][0]!.symbol)
    return this.submit(network, { from: SIM_FAUCETS[network], to: address, asset: asset.symbol, amount: amount ?? 1000n * 10n ** BigInt(asset.decimals) })
  }

  byKey(network: SimNetwork, key: string): SimTransfer | undefined {
    return this.net(network).byKey.get(key)
  }

  transfer(network: SimNetwork, id: string): SimTransfer | undefined {
    return this.net(network).byId.get(id.trim()) ?? this.net(network).byId.get(id.trim().toLowerCase())
  }

  /** Transfers in acceptance order after `afterSeq`, optionally only those touching `address`. */
  list(network: SimNetwork, opts: { afterSeq?: number; limit: number; address?: string }): { transfers: SimTransfer[]; nextSeq: number } {
    const s = this.net(network)
    const address = opts.address !== undefined ? normalizeSimAddress(network, opts.address) : undefined
    const after = opts.afterSeq ?? 0
    const out: SimTransfer[] = []
    // seq is the index + 1, so start right after the cursor.
    for (let i = Math.max(0, after); i < s.transfers.length && out.length < opts.limit; i++) {
      const t = s.transfers[i]!
      if (address !== undefined && t.from !== address && t.to !== address) continue
      out.push(t)
    }
    const last = out.at(-1)
    return { transfers: out, nextSeq: last ? last.seq : after }
  }

  /** One block on every network: pending transfers apply in order, or fail for want of balance. */
  step(): void {
    const now = nowSec()
    for (const network of SIM_NETWORKS) {
      const s = this.net(network)
      const pending = s.transfers.filter((t) => t.status === "pending")
      s.height += 1
      if (pending.length === 0) continue
      for (const t of pending) {
        const faucet = t.from === SIM_FAUCETS[network]
        const fromBalances = s.balances.get(t.from) ?? new Map<string, bigint>()
        const have = fromBalances.get(t.asset) ?? 0n
        if (!faucet && have < t.amount) {
          t.status = "failed"
          t.reason = "insufficient balance"
        } else {
          if (!faucet) {
            fromBalances.set(t.asset, have - t.amount)
            s.balances.set(t.from, fromBalances)
          }
          const toBalances = s.balances.get(t.to) ?? new Map<string, bigint>()
          toBalances.set(t.asset, (toBalances.get(t.asset) ?? 0n) + t.amount)
          s.balances.set(t.to, toBalances)
          t.status = "confirmed"
        }
        t.block = s.height
        t.confirmedAt = now
      }
      this.dirty = true
    }
    this.flush()
  }

  flush(): void {
    if (!this.file || !this.dirty) return
    const out: Record<string, unknown> = {}
    for (const [network, s] of this.state) out[network] = { height: s.height, transfers: s.transfers.map((t) => ({ ...simTransferJson(t), key: t.key })) }
    fs.mkdirSync(path.dirname(this.file), { recursive: true })
    fs.writeFileSync(`${this.file}.tmp`, JSON.stringify(out))
    fs.renameSync(`${this.file}.tmp`, this.file)
    this.dirty = false
  }

  /** Rebuilds balances by replaying the confirmed transfers. */
  private load(saved: SavedSim): void {
    for (const network of SIM_NETWORKS) {
      const entry = saved[network]
      if (!entry) continue
      const s = emptyState()
      s.height = entry.height
      for (const j of entry.transfers) {
        const t: SimTransfer = {
          id: j.id,
          seq: j.seq,
          network,
          from: j.from,
          to: j.to,
          asset: j.asset,
          amount: BigInt(j.amount),
          memo: j.memo,
          key: j.key ?? null,
          status: j.status,
          reason: j.reason,
          block: j.block,
          createdAt: j.created_at,
          confirmedAt: j.confirmed_at,
        }
        s.transfers.push(t)
        s.byId.set(t.id, t)
        if (t.key !== null) s.byKey.set(t.key, t)
        s.seq = Math.max(s.seq, t.seq)
        if (t.status !== "confirmed") continue
        if (t.from !== SIM_FAUCETS[network]) {
          const fb = s.balances.get(t.from) ?? new Map<string, bigint>()
          fb.set(t.asset, (fb.get(t.asset) ?? 0n) - t.amount)
          s.balances.set(t.from, fb)
        }
        const tb = s.balances.get(t.to) ?? new Map<string, bigint>()
        tb.set(t.asset, (tb.get(t.asset) ?? 0n) + t.amount)
        s.balances.set(t.to, tb)
      }
      this.state.set(network, s)
    }
  }
}
