export { tradePlugin } from "./manifest.ts"
export * from "./api.ts"
export * from "./rules.ts"
