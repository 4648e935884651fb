/**
 * `@wallet/kernel/keyvault`: the self-custody key vault (lazy, TON side only; never imported by the
 * kernel's main entry). See README.md and docs/decisions/0600-0602.
 */
export * from "./crypto.ts"
export * from "./errors.ts"
export * from "./format.ts"
export * from "./ports.ts"
export * from "./recovery.ts"
export * from "./vault.ts"
export * from "./deviceId.ts"
export * from "./adapters.ts"
