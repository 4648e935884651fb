export { custodyPlugin } from "./manifest.ts"
