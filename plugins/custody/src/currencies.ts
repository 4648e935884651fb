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
/** The fixed fiat list with its countries (spec 1 §3, issue 23). */
export { FIATS, FIAT_CODES, isFiat, fiatOfCountry, countryOfFiat, type FiatInfo } from "./fiats.ts"

// --- stock market hours --------------------------------------------------------------------------

/**
 * Stock and ETF tokens trade while the US market is open: Monday to Friday, 9:30 to 16:00 in New York (no holidays
 * kept). New York's clock moves with daylight saving, so the hours are 13:30-20:00 UTC in summer and 14:30-21:00 UTC
 * in winter; the asset page's actions and the exchange both read these two functions, so they never disagree.
 */
export const STOCK_MARKET = { timeZone: "America/New_York", openMinute: 9 * 60 + 30, closeMinute: 16 * 60 } as const

const newYork = new Intl.DateTimeFormat("en-US", { timeZone: STOCK_MARKET.timeZone, weekday: "short", hour: "2-digit", minute: "2-digit", hourCycle: "h23" })
const WEEKDAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]

/** The weekday (0 = Sunday) and minute of the day in New York at `at`. */
const newYorkClock = (at: number): { readonly weekday: number; readonly minute: number } => {
  const parts = Object.fromEntries(newYork.formatToParts(new Date(at)).map((part) => [part.type, part.value]))
  return { weekday: WEEKDAYS.indexOf(parts.weekday ?? ""), minute: Number(parts.hour) * 60 + Number(parts.minute) }
}

export const stockMarketOpen = (at: Date | number): boolean => {
  const { weekday, minute } = newYorkClock(new Date(at).getTime())
  return weekday >= 1 && weekday <= 5 && minute >= STOCK_MARKET.openMinute && minute < STOCK_MARKET.closeMinute
}

/** The next opening at or after `at` (`at` itself while open). */
export const nextStockMarketOpening = (at: Date | number): Date => {
  const now = new Date(at).getTime()
  if (stockMarketOpen(now)) return new Date(now)
  const date = new Date(now)
  // 9:30 in New York is 13:30 or 14:30 UTC: the first such instant after now on a weekday there.
  for (let days = 0; days < 9; days++) {
    for (const hour of [13, 14]) {
      const candidate = Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate() + days, hour, 30)
      const clock = newYorkClock(candidate)
      if (candidate > now && clock.minute === STOCK_MARKET.openMinute && clock.weekday >= 1 && clock.weekday <= 5) return new Date(candidate)
    }
  }
  throw new Error("unreachable: a weekday opening comes within nine days")
}
