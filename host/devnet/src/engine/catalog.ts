// The devnet's fixed catalog: demo jettons and extra currencies, known contract code hashes,
// the persisted chain metadata and the fake price table.
import type { Cell } from "@ton/core"
import { WalletContractV3R2, WalletContractV4, WalletContractV5R1 } from "@ton/ton"
import { TreasuryContract } from "@ton/sandbox"
import { JettonMinter } from "@ton-community/assets-sdk/dist/jetton/JettonMinter.js"
import { JettonWallet } from "@ton-community/assets-sdk/dist/jetton/JettonWallet.js"
import { NftCollection } from "@ton-community/assets-sdk/dist/nft/NftCollection.js"
import { NftItem } from "@ton-community/assets-sdk/dist/nft/NftItem.js"
import type { JettonPreviewJson } from "../model.ts"

export type GlobalId = -239 | -3

export interface JettonMeta {
  readonly key: string
  readonly name: string
  readonly symbol: string
  readonly decimals: number
  readonly verification: "whitelist" | "graylist" | "blacklist" | "none"
  readonly image: string
  readonly description: string
  readonly priceUsd: number
}

/** What the devnet persists next to the chain snapshot (`meta.json`). */
export interface Meta {
  version: 1
  globalId: GlobalId
  blockSeqno: number
  faucet: string
  faucetSubwallet: string
  relaySeed: string
  relay: string
  pool: string
  collection: string
  nextNftIndex: number
  jettons: Record<string, JettonMeta>
  nftNames: Record<string, string>
  names: Record<string, string>
  dns: Record<string, string>
  scam: string[]
}

export const CODE = {
  w5r1: WalletContractV5R1.create({ publicKey: Buffer.alloc(32) })
    .init.code.hash()
    .toString("hex"),
  v4r2: WalletContractV4.create({ workchain: 0, publicKey: Buffer.alloc(32) })
    .init.code.hash()
    .toString("hex"),
  v3r2: WalletContractV3R2.create({ workchain: 0, publicKey: Buffer.alloc(32) })
    .init.code.hash()
    .toString("hex"),
  treasury: TreasuryContract.code.hash().toString("hex"),
  jettonMinter: JettonMinter.code.hash().toString("hex"),
  jettonWallet: JettonWallet.code.hash().toString("hex"),
  nftItem: (NftItem as unknown as { nftCode: Cell }).nftCode.hash().toString("hex"),
  nftCollection: NftCollection.code.hash().toString("hex"),
}

export const WALLET_INTERFACES: Record<string, string> = {
  [CODE.w5r1]: "wallet_v5r1",
  [CODE.v4r2]: "wallet_v4r2",
  [CODE.v3r2]: "wallet_v3r2",
  [CODE.treasury]: "wallet",
}

export const isWalletCodeHash = (hash: string): boolean => WALLET_INTERFACES[hash] !== undefined

export const DEMO_JETTONS: readonly JettonMeta[] = [
  {
    key: "usdt",
    name: "Tether USD",
    symbol: "USD₮",
    decimals: 6,
    verification: "whitelist",
    image: "https://devnet.local/jettons/usdt.png",
    description: "USDT-like stablecoin on the devnet",
    priceUsd: 1,
  },
  {
    key: "dvc",
    name: "Devnet Coin",
    symbol: "DVC",
    decimals: 9,
    verification: "whitelist",
    image: "https://devnet.local/jettons/dvc.png",
    description: "A second verified jetton",
    priceUsd: 0.25,
  },
  {
    key: "scam",
    name: "Tether USD",
    symbol: "USDT",
    decimals: 6,
    verification: "blacklist",
    image: "https://devnet.local/jettons/scam.png",
    description: "Flagged as scam: imitates USDT",
    priceUsd: 0,
  },
]

export interface ExtraCurrencyMeta {
  readonly id: number
  readonly symbol: string
  readonly decimals: number
  readonly image: string
}

/** Extra currencies the devnet knows by name; any other id the faucet mints shows as `EC{id}` with 9 decimals. */
export const DEMO_EXTRA_CURRENCIES: readonly ExtraCurrencyMeta[] = [
  { id: 100, symbol: "DXC", decimals: 5, image: "https://devnet.local/extra/dxc.png" },
  { id: 239, symbol: "FMS", decimals: 9, image: "https://devnet.local/extra/fms.png" },
]

export const extraCurrencyPreview = (id: number): ExtraCurrencyMeta =>
  DEMO_EXTRA_CURRENCIES.find((c) => c.id === id) ?? { id, symbol: `EC${id}`, decimals: 9, image: "https://devnet.local/extra/unknown.png" }

/** An account's or a message's extra currencies (the `other` dictionary of a currency collection) as [id, amount] pairs. */
export const extraCurrencies = (other: { keys(): number[]; get(k: number): bigint | undefined } | null | undefined): Array<[number, bigint]> =>
  other
    ? other
        .keys()
        .map((k) => [k, other.get(k) ?? 0n] as [number, bigint])
        .sort((a, b) => a[0] - b[0])
    : []

/** The tonapi jetton preview of a master: the demo jetton's metadata, or "Unknown jetton". */
export const jettonPreviewOf = (meta: Meta, master: string): JettonPreviewJson => {
  const j = meta.jettons[master]
  if (!j)
    return {
      address: master,
      name: "Unknown jetton",
      symbol: "UKWN",
      decimals: 9,
      image: "https://devnet.local/jettons/unknown.png",
      verification: "none",
      score: 0,
    }
  return {
    address: master,
    name: j.name,
    symbol: j.symbol,
    decimals: j.decimals,
    image: j.image,
    verification: j.verification,
    score: j.verification === "whitelist" ? 100 : j.verification === "blacklist" ? -100 : 0,
    description: j.description,
  }
}

// ---------------------------------------------------------------- prices

export const TON_PRICE_USD = 3.2
export const USD_RATES: Record<string, number> = { usd: 1, eur: 0.92, rub: 92, gbp: 0.79 }

/** The tonapi `/v2/rates` body: each token's price in each currency, flat 24h/7d/30d change. */
export const ratesOf = (tokens: string[], currencies: string[], jettonUsd: (token: string) => number | undefined) => {
  const out: Record<string, unknown> = {}
  for (const t of tokens) {
    const key = t.trim()
    let usd: number | undefined
    if (key.toLowerCase() === "ton" || key.toLowerCase() === "gram") usd = TON_PRICE_USD
    else usd = jettonUsd(key)
    if (usd === undefined) continue
    const prices: Record<string, number> = {}
    const diff: Record<string, string> = {}
    for (const c of currencies) {
      const cur = c.trim().toLowerCase()
      const val = cur === "ton" || cur === "gram" ? usd / TON_PRICE_USD : USD_RATES[cur] !== undefined ? usd * USD_RATES[cur]! : undefined
      if (val === undefined) continue
      prices[cur.toUpperCase()] = val
      diff[cur.toUpperCase()] = "+0.00%"
    }
    out[key] = { prices, diff_24h: diff, diff_7d: diff, diff_30d: diff }
  }
  return out
}
