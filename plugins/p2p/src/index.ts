export { p2pPlugin } from "./manifest.ts"
export * from "./api.ts"
export * from "./domain.ts"
