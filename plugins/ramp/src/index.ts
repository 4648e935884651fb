export { rampPlugin } from "./manifest.ts"
export { RampApi, RampGroup, type RampTransaction, type Started, type Quote, type RampOptions } from "./api.ts"
