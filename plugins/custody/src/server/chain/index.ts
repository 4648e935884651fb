import type { Layer } from "effect"
import type { ApiGroup } from "@wallet/kernel-server"
import { CustodyChainGroup } from "../../api.ts"
import { chainHandlers } from "./handlers.ts"

export { NetworkAdapters, ChainUnavailable, HotWalletLow, type NetworkAdapter, type FinalDeposit, type WithdrawalOrder } from "./adapter.ts"
export { ChainSettings, readChainSettings, DEFAULT_FEES, DEV_MASTER_SEED, type ChainSettingsShape } from "./config.ts"
export { depositAddressesOf, creditDeposit, watchNetworkOnce, processNetworkOnce, chainRound } from "./service.ts"
export { tonHotWalletAddress } from "./ton.ts"
export { simHotAddress } from "./sim.ts"

/**
 * The on-chain half of the custody server module (deposit addresses, watcher, withdrawals), merged
 * by ../index.ts. Its tables are in the plugin's one migration list (../migrations.ts).
 */
export interface ChainPart {
  readonly groups: ReadonlyArray<ApiGroup>
  readonly handlers: Layer.Any
}

export const chainPart: ChainPart = { groups: [CustodyChainGroup], handlers: chainHandlers }
