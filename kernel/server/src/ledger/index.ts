/**
 * `@wallet/kernel-server/ledger`: the double-entry ledger (see README.md in this folder).
 */
export { Ledger, makeLedger, type LedgerShape, type LedgerOptions } from "./Ledger.ts"
export { makeBatcher, type Batcher, type BatcherOptions } from "./batcher.ts"
export { ledgerModule, ledgerMigrationModule, ledgerMigrations } from "./migrations.ts"
export { runAudit, formatAuditReport, type AuditReport, type AuditViolation } from "./audit.ts"
export * from "./errors.ts"
export {
  System,
  systemAccount,
  userOwner,
  isSystemOwner,
  expireKey,
  along,
  parseAmount,
  formatAmount,
  type AccountRef,
  type Along,
  type AlongGroup,
  type Balance,
  type ConvertRequest,
  type Currency,
  type Entry,
  type HistoryEntry,
  type Hold,
  type HoldRequest,
  type HoldStatus,
  type Leg,
  type Metadata,
  type Movement,
  type MovementKind,
  type PendingHold,
  type PostHoldRequest,
  type TransferRequest,
  type VoidHoldRequest,
} from "./model.ts"
/** Tests only: a migrated PGlite or throwaway PostgreSQL with the Ledger on it. */
export { startTestLedger, type TestLedger } from "./testing.ts"
