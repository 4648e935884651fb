export { kycPlugin } from "./manifest.ts"
export { KycApi, KycGroup, type Note, type Notes } from "./api.ts"
