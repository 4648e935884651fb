import { defineConfig } from "vitest/config";

// Two projects: `unit` (beside the code; node or happy-dom per folder) and `e2e` (real Chromium).
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "unit",
          include: ["kernel/*/src/**/*.test.ts", "plugins/*/src/**/*.test.ts", "plugins/*/test/**/*.test.ts", "host/*/src/**/*.test.ts", "host/*/test/**/*.test.ts", "host/regions/*.test.ts", "tooling/*/src/**/*.test.ts"],
          environment: "node",
          // PGlite boots and devnet blocks take seconds on a loaded 2-core machine: limits against hangs, not timings.
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: "unit-dom",
          include: ["kernel/*/src/**/*.test.tsx", "plugins/*/src/**/*.test.tsx", "host/*/src/**/*.test.tsx"],
          environment: "happy-dom",
          testTimeout: 15_000,
        },
      },
      {
        test: {
          name: "e2e",
          include: ["tooling/e2e/**/*.e2e.ts"],
          environment: "node",
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
          // One retry absorbs a timing flake on a loaded 2-core machine; a real failure fails twice.
          retry: 1,
        },
      },
    ],
  },
});
