import type { Layer } from "effect"
import type { ApiGroup, Migration } from "@wallet/kernel-server"
import { CustodyChainGroup } from "../../chain-api.ts"
import { chainHandlers } from "./handlers.ts"
import { chainMigrations } from "./store.ts"

export { NetworkAdapters, ChainUnavailable, HotWalletLow, type NetworkAdapter, type FinalDeposit, type WithdrawalOrder } from "./adapter.ts"
export { ChainSettings, readChainSettings, DEFAULT_FEES, DEV_MASTER_SEED, type ChainSettingsShape } from "./config.ts"
export { depositAddressesOf, creditDeposit, watchNetworkOnce, processNetworkOnce, chainRound } from "./service.ts"
export { tonHotWalletAddress } from "./ton.ts"
export { simHotAddress } from "./sim.ts"

/** The on-chain half of the custody server module (deposit addresses, watcher, withdrawals), merged by ../index.ts. */
export interface ChainPart {
  readonly migrations: ReadonlyArray<Migration>
  readonly groups: ReadonlyArray<ApiGroup>
  readonly handlers: Layer.Any
}

export const chainPart: ChainPart = { migrations: chainMigrations, groups: [CustodyChainGroup], handlers: chainHandlers }
