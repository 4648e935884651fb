// @wallet/kernel/chain: the tonapi v2 client (browser-safe, fetch + Effect Schema).
export * from "./client.ts"
export * from "./schemas.ts"
