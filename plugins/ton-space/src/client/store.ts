/**
 * The self-custody wallet state on this device (spec 2 §3 "Self-custody wallet state", persisted
 * subset): public data only. The mnemonic and private key never enter this store.
 */
import { Effect, Schema } from "effect"
import { defineStore, type Storage } from "@wallet/kernel"
import { schemaCheck } from "@wallet/kernel/schema"
import { emptyPendingState, PendingState } from "../core/pending.ts"

export const WalletClassSchema = Schema.Literals(["v5r1", "v5beta", "v4r2", "v3r2", "v3r1"])
export const NetworkSchema = Schema.Literals(["mainnet", "testnet"])

export const WalletState = Schema.Struct({
  /** Friendly, non-bounceable (UQ… / 0Q…). */
  address: Schema.optionalKey(Schema.String),
  raw: Schema.optionalKey(Schema.String),
  /** Hex; lets the address be re-derived for another network or version without the secret. */
  publicKey: Schema.optionalKey(Schema.String),
  walletClass: WalletClassSchema,
  walletNetwork: NetworkSchema,
  setupComplete: Schema.Boolean,
  manualBackupComplete: Schema.Boolean,
  /** Addresses backed up manually on this device (kept across logout, spec 2 §4). */
  manualSetups: Schema.Array(Schema.String),
  pending: PendingState,
  riskChecked: Schema.Array(Schema.String),
  swapTooltipShown: Schema.Boolean,
  minorAssetsVisible: Schema.Boolean,
  /** Raw addresses the server lists as manually backed up (any device; `server-sync.ts`). */
  serverBackups: Schema.optionalKey(Schema.Array(Schema.String)),
})
export type WalletState = typeof WalletState.Type

export const initialWalletState: WalletState = {
  walletClass: "v5r1",
  walletNetwork: "mainnet",
  setupComplete: false,
  manualBackupComplete: false,
  manualSetups: [],
  pending: emptyPendingState,
  riskChecked: [],
  swapTooltipShown: false,
  minorAssetsVisible: false,
}

export const WalletStore = defineStore({ key: "tonSpace.wallet", version: 1, schema: schemaCheck(WalletState), initial: initialWalletState })

/**
 * Spec 2 §4 "Backup completeness": the backend flag, the local flag or a local manual setup for the
 * address. The backend flag is `backendFlag` when given, else the server's list last synced into
 * the state (so a reinstall on a new device keeps "backed up").
 */
export const isBackupComplete = (state: WalletState, backendFlag = false) =>
  backendFlag ||
  (state.raw !== undefined && (state.serverBackups ?? []).includes(state.raw)) ||
  state.manualBackupComplete ||
  (state.address !== undefined && state.manualSetups.includes(state.address))

/** A small observable over the kernel Storage so every screen sees one state. */
export const createWalletStateStore = (storage: Storage["Service"]) => {
  let current = Effect.runSync(storage.load(WalletStore))
  const listeners = new Set<() => void>()
  return {
    get: () => current,
    subscribe: (listener: () => void) => {
      listeners.add(listener)
      return () => void listeners.delete(listener)
    },
    update: (f: (state: WalletState) => WalletState) => {
      current = f(current)
      Effect.runSync(storage.save(WalletStore, current).pipe(Effect.ignore))
      listeners.forEach((l) => l())
      return current
    },
  }
}
export type WalletStateStore = ReturnType<typeof createWalletStateStore>
