// The end-to-end suite lives in test/sdk.test.ts (where the brief puts it), but the root `unit`
// project only collects plugins/*/src/**/*.test.ts. Importing it here runs it in CI until
// vitest.config.ts also includes plugins/*/test/**/*.test.ts; then this file goes.
// oxlint-disable-next-line import/no-unassigned-import -- imported for the suites it registers
import "../test/sdk.test.ts"
