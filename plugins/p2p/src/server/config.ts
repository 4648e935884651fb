/** The market's region config (`pluginConfig.p2p`): fees, caps and the restricted countries. */
import { Effect } from "effect"
import { ServerConfig } from "@wallet/kernel-server"

export interface MarketConfig {
  /** Basis points of an order's amount the maker pays (the offer's owner); default 0.9 %. */
  readonly makerFeeBps: number
  readonly takerFeeBps: number
  /** Open orders one offer may have at once (spec 3: open_orders_per_offer_cap_reached). */
  readonly maxOpenOrdersPerOffer: number
  /** Countries (ISO alpha-2, by the user's IP country) the market is closed to (spec 3 §4.1). */
  readonly restrictedCountries: ReadonlyArray<string>
  /** A floating price may differ from the one the taker saw by this much (bps) and the order keeps the seen one. */
  readonly floatingToleranceBps: number
}

export const DEFAULT_MARKET: MarketConfig = {
  makerFeeBps: 90,
  takerFeeBps: 0,
  maxOpenOrdersPerOffer: 10,
  restrictedCountries: ["RU"],
  floatingToleranceBps: 50,
}

const num = (value: unknown, fallback: number, max: number) =>
  typeof value === "number" && Number.isInteger(value) && value >= 0 && value <= max ? value : fallback

export const readMarketConfig = (raw: unknown): MarketConfig => {
  const c = (raw ?? {}) as Record<string, unknown>
  return {
    makerFeeBps: num(c.makerFeeBps, DEFAULT_MARKET.makerFeeBps, 1000),
    takerFeeBps: num(c.takerFeeBps, DEFAULT_MARKET.takerFeeBps, 1000),
    maxOpenOrdersPerOffer: num(c.maxOpenOrdersPerOffer, DEFAULT_MARKET.maxOpenOrdersPerOffer, 1000),
    restrictedCountries: Array.isArray(c.restrictedCountries)
      ? c.restrictedCountries.filter((x): x is string => typeof x === "string")
      : DEFAULT_MARKET.restrictedCountries,
    floatingToleranceBps: num(c.floatingToleranceBps, DEFAULT_MARKET.floatingToleranceBps, 1000),
  }
}

export const marketConfig = Effect.map(ServerConfig, (config) => readMarketConfig(config.pluginConfig.p2p))
