// Runs this package's tests (src and test/) on their own: `npx vitest run --config plugins/tonconnect/vitest.config.ts`.
import { fileURLToPath } from "node:url"
import { defineConfig } from "vitest/config"

export default defineConfig({
  root: fileURLToPath(new URL("../..", import.meta.url)),
  test: { include: ["plugins/tonconnect/src/**/*.test.ts", "plugins/tonconnect/test/**/*.test.ts"], environment: "node" },
})
