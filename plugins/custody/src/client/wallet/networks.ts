import { targetOf, type RouteTarget } from "@wallet/kernel"
import { NETWORK_DISPLAY_NAMES, type NetworkCode } from "../../currencies.ts"
import { chooseNetworkRoute, NETWORKS, receiveRoute, sendRoute } from "../../routes.ts"

const FULL_NAMES: Readonly<Record<NetworkCode, string>> = { ton: "TON", tron: "Tron", ethereum: "Ethereum", solana: "Solana", bitcoin: "Bitcoin" }

/** "Tron (TRC20)", "TON", "Bitcoin": the network's name with its display name when it has one (spec 1 §3). */
export const networkName = (network: string): string => {
  const code = network as NetworkCode
  const full = FULL_NAMES[code] ?? network
  const display = NETWORK_DISPLAY_NAMES[code]
  return display && display !== full ? `${full} (${display})` : full
}

/** Where choosing an asset leads for a flow type (receive by default; send opens the send form). */
export const afterAssetChosen = (type: string, asset: { readonly currency: string; readonly networks: ReadonlyArray<string> }): RouteTarget => {
  if (type === "send") return targetOf(sendRoute, { search: { assetCurrency: asset.currency } })
  if (asset.networks.length > 1) return targetOf(chooseNetworkRoute, { params: { type, assetCurrency: asset.currency } })
  // The receive route drops a network it does not know; so does this.
  const network = asset.networks[0]
  return targetOf(receiveRoute, { search: { assetCurrency: asset.currency, assetNetwork: network !== undefined && isNetwork(network) ? network : undefined } })
}

const isNetwork = (network: string): network is (typeof NETWORKS)[number] => (NETWORKS as ReadonlyArray<string>).includes(network)
