import { NETWORK_DISPLAY_NAMES, type NetworkCode } from "../../currencies.ts"

const FULL_NAMES: Readonly<Record<NetworkCode, string>> = { ton: "TON", tron: "Tron", ethereum: "Ethereum", solana: "Solana", bitcoin: "Bitcoin" }

/** "Tron (TRC20)", "TON", "Bitcoin": the network's name with its display name when it has one (spec 1 §3). */
export const networkName = (network: string): string => {
  const code = network as NetworkCode
  const full = FULL_NAMES[code] ?? network
  const display = NETWORK_DISPLAY_NAMES[code]
  return display && display !== full ? `${full} (${display})` : full
}

/** Where choosing an asset leads for a flow type (receive by default; send opens the send form). */
export const afterAssetChosen = (type: string, asset: { readonly currency: string; readonly networks: ReadonlyArray<string> }): { to: string; search?: Record<string, string> } => {
  if (type === "send") return { to: "/assets/send", search: { assetCurrency: asset.currency } }
  if (asset.networks.length > 1) return { to: `/choose-network/${type}/${asset.currency}` }
  return { to: "/receive", search: { assetCurrency: asset.currency, ...(asset.networks[0] ? { assetNetwork: asset.networks[0] } : {}) } }
}
