import { Layer } from "effect"
import type { ApiGroup, Migration } from "@wallet/kernel-server"

/** The on-chain half of the custody server module (deposit addresses, watcher, withdrawals), merged by ../index.ts. */
export interface ChainPart {
  readonly migrations: ReadonlyArray<Migration>
  readonly groups: ReadonlyArray<ApiGroup>
  readonly handlers: Layer.Any
}

export const chainPart: ChainPart = { migrations: [], groups: [], handlers: Layer.empty }
