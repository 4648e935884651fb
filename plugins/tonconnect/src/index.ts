export { tonconnectPlugin } from "./manifest.ts"
