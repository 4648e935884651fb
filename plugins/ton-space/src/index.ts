export { tonSpacePlugin } from "./manifest.ts"
