export { homePlugin, MainSearch } from "./manifest.ts"
