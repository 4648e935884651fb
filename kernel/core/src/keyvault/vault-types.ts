/** The KeyVault service's option and status types (re-exported by vault.ts). */
import type { BlobV2 } from "./format.ts"

type Bytes = Uint8Array<ArrayBuffer>

export interface VaultStatus {
  /** 0: no blob; "corrupt": a value that is not a blob of a known version. */
  readonly version: 0 | 1 | 2 | "corrupt"
  readonly address?: string
  readonly externalId?: string
  readonly passcodeSlots: number
  readonly biometry: boolean
  /** A device-key-only slot (from the migration of plain credentials). */
  readonly server: boolean
  /** Plain (unencrypted) credentials are still stored. */
  readonly plain: boolean
}

export interface UnlockOptions {
  /** Keep the credentials in memory for this long (the passcode info's unlockDuration); 0 or less: not at all. */
  readonly rememberForMs?: number
}

export interface BiometryUnlockOptions extends UnlockOptions {
  /**
   * The BiometricManager token a prompt already released (the Passcode service's biometry proof):
   * the vault then opens without a second prompt (decision 0520). Absent: the vault prompts.
   */
  readonly token?: string
}

export interface KeyVaultOptions {
  /** Store key of the blob; default "keyvault.blob". */
  readonly blobKey?: string
  /** Store key of legacy plain credentials (JSON {address, mnemonic, privateKey}); default "keyvault.plain". */
  readonly plainKey?: string
  /**
   * Keep a device-key-only slot beside the passcode slot. Then a passcode reset by email keeps the
   * wallet unlockable, at the price of the passcode no longer being a factor of the key (a server
   * compromise alone then opens a copied blob). Default false (docs/decisions/0600).
   */
  readonly keepServerSlot?: boolean
  /** Prompt text of the biometric dialog. */
  readonly biometryReason?: string
}

/** An opened v2 blob: what a rewrite of its slots needs. */
export interface OpenedV2 {
  readonly blob: BlobV2
  readonly dataKey: Bytes
  readonly deviceKey: Bytes
}

/**
 * Spec 2 section 4 "Logout": a forced logout happens when an address exists but there are no
 * credentials and no server-side encryption (no blob of any kind and no plain credentials).
 */
export const needsForcedLogout = (status: VaultStatus, hasAddress: boolean): boolean => hasAddress && status.version === 0 && !status.plain
