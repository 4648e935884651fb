export { kycPlugin } from "./manifest.ts"
export { KycApi, KycGroup, type StepResponse, type VerificationStatus } from "./api.ts"
export * from "./domain.ts"
