/** The TON space's query keys (decision 0320): one place, so reads and invalidations agree. */
import type { Network } from "../core/assets.ts"

export const tonSpaceKeys = {
  all: ["tonSpace"] as const,
  account: (network: Network, raw: string) => ["tonSpace", network, raw, "account"] as const,
  jettons: (network: Network, raw: string) => ["tonSpace", network, raw, "jettons"] as const,
  events: (network: Network, raw: string) => ["tonSpace", network, raw, "events"] as const,
  extraCurrencies: (network: Network, raw: string) => ["tonSpace", network, raw, "extra"] as const,
  extraHistory: (network: Network, raw: string, id: number) => ["tonSpace", network, raw, "extra-history", id] as const,
  jettonHistory: (network: Network, raw: string, jetton: string) => ["tonSpace", network, raw, "jetton-history", jetton] as const,
  event: (network: Network, raw: string, eventId: string) => ["tonSpace", network, raw, "event", eventId] as const,
  nfts: (network: Network, raw: string) => ["tonSpace", network, raw, "nfts"] as const,
  nft: (network: Network, address: string) => ["tonSpace", network, "nft", address] as const,
  chart: (network: Network, token: string, fiat: string, period: string, target: number | undefined) =>
    ["tonSpace", network, "chart", token, fiat, period, target ?? null] as const,
  rate: (network: Network, token: string, fiat: string) => ["tonSpace", network, "rate", token, fiat] as const,
  /** A viewed (not owned) wallet's data. */
  viewer: (network: Network, raw: string, part: "account" | "jettons" | "events") => ["tonSpace", "viewer", network, raw, part] as const,
}
