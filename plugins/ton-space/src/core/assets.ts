/**
 * The asset list of the self-custody wallet from the Chain service's jetton balances, with the flag
 * rules of spec 2 §5 ("Jetton flags", "Asset lists"). Pure: amounts are bigint minor units.
 */
import type { AccountEvent, JettonBalance } from "@wallet/kernel/chain"
import { NANO, TON_DECIMALS } from "./amount.ts"

export type Network = "mainnet" | "testnet"

/** USDT's master on mainnet (raw form); other chains are recognised by the whitelisted symbol. */
export const USDT_MASTERS: ReadonlyArray<string> = ["0:b113a994b5024a16719f69139328eb759596c38a25f59028b146fecdc3621dfe"]
/** tonapi's symbol of the real USDT; a whitelisted jetton with it is USDT on any chain (devnet too). */
export const USDT_CHAIN_SYMBOL = "USD₮"

/** The product's own symbol and name for USDT (the custodial wallet calls it so). */
export interface ProductUsdt {
  readonly symbol: string
  readonly name: string
}
export const DEFAULT_PRODUCT_USDT: ProductUsdt = { symbol: "USDT", name: "Dollars" }

/** Spec 2 §5: the minimum TON value for a verified jetton to count is 0.01 TON. */
export const MIN_VERIFIED_TON_VALUE = NANO / 100n

export interface Asset {
  readonly kind: "ton" | "jetton"
  /** Jetton master (raw); "TON" for TON. */
  readonly address: string
  readonly currency: string
  readonly name: string
  readonly image?: string
  /** Shown balance (0 for scam). */
  readonly balance: bigint
  readonly rawBalance: bigint
  readonly decimals: number
  readonly lockedBalance: bigint
  /** Value in nanoTON; undefined when unknown or hidden (unverified on mainnet). */
  readonly tonValue?: bigint
  readonly verified: boolean
  readonly isScam: boolean
  readonly risky: boolean
  /** Counts in the main list (TON, verified jettons worth at least 0.01 TON). */
  readonly major: boolean
  readonly walletAddress?: string
  readonly customPayload: boolean
}

export interface FlagInput {
  readonly verification: "whitelist" | "graylist" | "blacklist" | "none"
  /** Flagged as scam (tonapi's `is_scam` on the jetton wallet). */
  readonly flaggedScam: boolean
  /** On the product's own whitelist (USDT). */
  readonly whitelisted: boolean
  readonly riskChecked: boolean
}

/** Spec 2 §5 jetton flags. */
export const jettonFlags = (input: FlagInput) => {
  const blacklisted = input.verification === "blacklist"
  const whitelisted = input.whitelisted
  const isScam = (input.flaggedScam && !whitelisted) || blacklisted
  const verified = input.verification === "whitelist" || whitelisted
  const risky = isScam || (!verified && !input.riskChecked)
  return { isScam, verified, risky }
}

export const isUsdt = (
  jetton: { readonly address: string; readonly symbol: string; readonly verification: string },
  masters: ReadonlyArray<string> = USDT_MASTERS,
) => masters.includes(jetton.address.toLowerCase()) || (jetton.verification === "whitelist" && jetton.symbol === USDT_CHAIN_SYMBOL)

/** nanoTON value of `balance` minor units at `priceTon` TON per whole token (a float quote; the result is an estimate for display). */
export const tonValueOf = (balance: bigint, decimals: number, priceTon: number | undefined): bigint | undefined => {
  if (priceTon === undefined || !Number.isFinite(priceTon) || priceTon < 0) return undefined
  const nanoPerToken = BigInt(Math.round(priceTon * 1e9))
  return (balance * nanoPerToken) / 10n ** BigInt(decimals)
}

export interface AssetListOptions {
  readonly network: Network
  readonly tonBalance: bigint
  readonly jettons: ReadonlyArray<JettonBalance>
  readonly riskChecked?: ReadonlySet<string>
  readonly usdtMasters?: ReadonlyArray<string>
  readonly productUsdt?: ProductUsdt
}

export const tonAsset = (balance: bigint): Asset => ({
  kind: "ton",
  address: "TON",
  currency: "TON",
  name: "Toncoin",
  balance,
  rawBalance: balance,
  decimals: TON_DECIMALS,
  lockedBalance: 0n,
  tonValue: balance,
  verified: true,
  isScam: false,
  risky: false,
  major: true,
  customPayload: false,
})

/** TON first, then jettons: major before minor, each by TON value (unknown last), then by name. */
export const buildAssetList = (options: AssetListOptions): ReadonlyArray<Asset> => {
  const product = options.productUsdt ?? DEFAULT_PRODUCT_USDT
  const jettons = options.jettons.map((entry): Asset => {
    const usdt = isUsdt(entry.jetton, options.usdtMasters)
    const flags = jettonFlags({
      verification: entry.jetton.verification,
      flaggedScam: entry.wallet_address.is_scam,
      whitelisted: usdt,
      riskChecked: options.riskChecked?.has(entry.jetton.address) ?? false,
    })
    const value = tonValueOf(entry.balance, entry.jetton.decimals, entry.price?.prices?.TON)
    const tonValue = flags.isScam || (options.network === "mainnet" && !flags.verified) ? undefined : value
    return {
      kind: "jetton",
      address: entry.jetton.address,
      currency: usdt ? product.symbol : entry.jetton.symbol,
      name: usdt ? product.name : entry.jetton.name,
      image: entry.jetton.image,
      balance: flags.isScam ? 0n : entry.balance,
      rawBalance: entry.balance,
      decimals: entry.jetton.decimals,
      lockedBalance: entry.lock?.amount ?? 0n,
      ...(tonValue !== undefined ? { tonValue } : {}),
      verified: flags.verified,
      isScam: flags.isScam,
      risky: flags.risky,
      major: flags.verified && !flags.isScam && (usdt ? entry.balance > 0n : (value ?? 0n) >= MIN_VERIFIED_TON_VALUE),
      walletAddress: entry.wallet_address.address,
      customPayload: entry.extensions?.includes("custom_payload") ?? false,
    }
  })
  const order = (a: Asset, b: Asset) =>
    Number(b.major) - Number(a.major) ||
    (a.tonValue === undefined ? 1 : 0) - (b.tonValue === undefined ? 1 : 0) ||
    (b.tonValue !== undefined && a.tonValue !== undefined ? (b.tonValue > a.tonValue ? 1 : b.tonValue < a.tonValue ? -1 : 0) : 0) ||
    a.name.localeCompare(b.name)
  return [tonAsset(options.tonBalance), ...jettons.sort(order)]
}

/** Listed tokens (tokenized stocks and some coins) cannot be used for payments (spec 2 §5). */
export const LISTED_SYMBOLS: ReadonlyArray<string> = ["BEAM", "PUMP", "WLFI"]
export const isListedToken = (symbol: string) => LISTED_SYMBOLS.includes(symbol.toUpperCase()) || /^[A-Z0-9]+x$/.test(symbol)

/**
 * Extra currencies (spec 2 "Extra-currency asset": extraCurrencyId, name, image, currency, balance,
 * rawBalance, decimals): native currencies of the chain held in the account's `extra_balance`,
 * moved by a plain internal message's currency dictionary (no contract). ADR 0630.
 */
export interface ExtraCurrencyEntry {
  /** Decimal string of minor units (tonapi's `amount`). */
  readonly amount: string
  readonly preview: { readonly id: number; readonly symbol: string; readonly decimals: number; readonly image: string }
}

export interface ExtraCurrencyAsset {
  readonly kind: "extra"
  readonly extraCurrencyId: number
  /** Route key: `/scw/assets/extra-currency/{id}`. */
  readonly address: string
  readonly name: string
  readonly currency: string
  readonly image?: string
  readonly balance: bigint
  readonly rawBalance: bigint
  readonly decimals: number
}

/** Decimals an extra currency may declare (the dictionary holds VarUInteger 32: up to 248 bits; 18 covers every real one). */
export const MAX_EXTRA_DECIMALS = 18
/** Used when the preview's decimals are missing or out of range (the chain's own default). */
export const DEFAULT_EXTRA_DECIMALS = 9
/** The chain's currency id is a uint32; 0 is TON itself. */
export const isExtraCurrencyId = (id: number) => Number.isInteger(id) && id > 0 && id <= 0xffff_ffff
/** A symbol for display: trimmed, at most 16 characters; `EC{id}` when the preview has none. */
export const extraCurrencySymbol = (id: number, symbol: string | undefined) => {
  const text = (symbol ?? "").trim().slice(0, 16)
  return text === "" ? `EC${id}` : text
}
/** Route key of an extra currency in the asset list (jettons use their master address, TON "TON"). */
export const extraCurrencyKey = (id: number) => `ec:${id}`

/**
 * The extra currencies of an account for the asset list: invalid ids and amounts dropped, zero
 * balances dropped (an account keeps an empty entry after sending everything), decimals bounded,
 * symbols given a fallback, one entry per id (the last wins), ordered by symbol then id.
 * They have no verification, no price and no TON value. Only the chain's configuration can create
 * one (no one can airdrop a fake), so the main list shows every held one after the major assets.
 */
export const buildExtraCurrencyAssets = (entries: ReadonlyArray<ExtraCurrencyEntry>): ReadonlyArray<ExtraCurrencyAsset> => {
  const byId = new Map<number, ExtraCurrencyAsset>()
  for (const entry of entries) {
    const id = entry.preview.id
    if (!isExtraCurrencyId(id) || !/^\d+$/.test(entry.amount)) continue
    const balance = BigInt(entry.amount)
    const decimals =
      Number.isInteger(entry.preview.decimals) && entry.preview.decimals >= 0 && entry.preview.decimals <= MAX_EXTRA_DECIMALS
        ? entry.preview.decimals
        : DEFAULT_EXTRA_DECIMALS
    const currency = extraCurrencySymbol(id, entry.preview.symbol)
    if (balance === 0n) {
      byId.delete(id)
      continue
    }
    byId.set(id, {
      kind: "extra",
      extraCurrencyId: id,
      address: extraCurrencyKey(id),
      name: currency,
      currency,
      ...(entry.preview.image ? { image: entry.preview.image } : {}),
      balance,
      rawBalance: balance,
      decimals,
    })
  }
  return [...byId.values()].sort((a, b) => a.currency.localeCompare(b.currency) || a.extraCurrencyId - b.extraCurrencyId)
}

const isAssetAction = (a: AccountEvent["actions"][number], address: string) =>
  address === "TON"
    ? a.type === "TonTransfer"
    : [a.JettonTransfer?.jetton.address, a.JettonMint?.jetton.address, a.JettonBurn?.jetton.address].some(
        (m) => m !== undefined && m.toLowerCase() === address.toLowerCase(),
      )

/**
 * Events of the asset, each cut down to the asset's actions (TON transfers for TON; the jetton's
 * transfers, mints and burns for a jetton), so a row shows the asset's amount even when the event
 * also moved something else (a faucet sends TON, a jetton and an extra currency at once).
 */
export const eventsOfAsset = (events: ReadonlyArray<AccountEvent>, address: string): ReadonlyArray<AccountEvent> =>
  events.flatMap((event) => {
    const actions = event.actions.filter((a) => isAssetAction(a, address))
    return actions.length === 0 ? [] : [{ ...event, actions }]
  })
