/**
 * The custodial currency table (spec 1 §3 "Asset", "Network display names", "Supported networks").
 * Amounts of a currency are integer minor units with `decimals` digits (the spec leaves the table
 * out; these are the chains' own decimals). Shared by the server (Ledger currencies, deposit
 * addresses, withdrawals) and the mini-app (formatting, choose network).
 */
export type NetworkCode = "ton" | "tron" | "ethereum" | "solana" | "bitcoin"
export type AssetCategory = "onchain" | "trading" | "stock" | "etf"

export interface CurrencyInfo {
  readonly code: string
  readonly name: string
  readonly decimals: number
  /** Networks deposits and withdrawals run on, the default first; none for stock tokens. */
  readonly networks: ReadonlyArray<NetworkCode>
  readonly category: AssetCategory
  /** In the main list's default pinned set (spec 1 §5). */
  readonly pinned?: boolean
  /** Pinned while the user holds none of it (spec 1 §5: BTC, ETH and XAUT). */
  readonly pinnedWithoutBalance?: boolean
  /** Recently listed: the 'new' badge shows while the user holds none and has not seen it (spec 1 §5). */
  readonly isNew?: boolean
  /**
   * Circulating supply in whole units, for the market capitalisation (price x supply). Reference
   * figures of the sandbox; a production feed would replace them.
   */
  readonly circulatingSupply?: bigint
}

export const NETWORK_DISPLAY_NAMES: Readonly<Record<NetworkCode, string | undefined>> = {
  ton: "TON",
  tron: "TRC20",
  ethereum: "ERC20",
  solana: "SOL",
  bitcoin: undefined,
}

export const CURRENCIES: ReadonlyArray<CurrencyInfo> = [
  { code: "TON", name: "Toncoin", decimals: 9, networks: ["ton"], category: "onchain", pinned: true, circulatingSupply: 2_540_000_000n },
  {
    code: "USDT",
    name: "Dollars",
    decimals: 6,
    networks: ["ton", "tron", "ethereum", "solana"],
    category: "onchain",
    pinned: true,
    circulatingSupply: 144_000_000_000n,
  },
  { code: "BTC", name: "Bitcoin", decimals: 8, networks: ["bitcoin"], category: "onchain", pinnedWithoutBalance: true, circulatingSupply: 19_800_000n },
  { code: "ETH", name: "Ethereum", decimals: 18, networks: ["ethereum"], category: "onchain", pinnedWithoutBalance: true, circulatingSupply: 120_700_000n },
  { code: "XAUT", name: "Gold", decimals: 6, networks: ["ethereum"], category: "onchain", pinnedWithoutBalance: true, circulatingSupply: 246_000n },
  { code: "SOL", name: "Solana", decimals: 9, networks: ["solana"], category: "onchain", circulatingSupply: 520_000_000n },
  { code: "NOT", name: "Notcoin", decimals: 9, networks: ["ton"], category: "onchain", circulatingSupply: 102_400_000_000n },
  { code: "DOGS", name: "Dogs", decimals: 9, networks: ["ton"], category: "onchain", circulatingSupply: 516_750_000_000n },
  { code: "HMSTR", name: "Hamster Kombat", decimals: 9, networks: ["ton"], category: "onchain", circulatingSupply: 64_375_000_000n },
  { code: "X", name: "X Empire", decimals: 9, networks: ["ton"], category: "onchain", circulatingSupply: 690_000_000_000n },
  { code: "MAJOR", name: "Major", decimals: 9, networks: ["ton"], category: "onchain", isNew: true, circulatingSupply: 80_000_000n },
  { code: "CATI", name: "Catizen", decimals: 9, networks: ["ton"], category: "onchain", isNew: true, circulatingSupply: 370_000_000n },
  { code: "TSLAx", name: "Tesla xStock", decimals: 8, networks: [], category: "stock" },
  { code: "SPYx", name: "SP500 xStock", decimals: 8, networks: [], category: "etf" },
]

const byCode = new Map(CURRENCIES.map((currency) => [currency.code, currency]))

export const currencyInfo = (code: string): CurrencyInfo | undefined => byCode.get(code)

/**
 * Exact decimal string ("1.5") to integer minor units with `decimals` digits (1_500_000_000n for 9);
 * undefined for a malformed value or one with more fractional digits than `decimals`. No floats.
 */
export const parseAmount = (value: string, decimals: number): bigint | undefined => {
  const match = /^(0|[1-9][0-9]*)(?:\.([0-9]+))?$/.exec(value.trim())
  if (match === null) return undefined
  const fraction = match[2] ?? ""
  if (fraction.length > decimals) {
    if (/[1-9]/.test(fraction.slice(decimals))) return undefined
  }
  const digits = fraction.slice(0, decimals).padEnd(decimals, "0")
  return BigInt(match[1]! + digits)
}

/** Integer minor units to the shortest exact decimal string ("1.5", "0", "-0.25"): the kernel's. */
export { formatAmount } from "@wallet/kernel"
