export { passcodePlugin, PasscodeRegionConfig } from "./manifest.ts"
export * from "./api.ts"
