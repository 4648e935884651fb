import { defaultClientConditions, defaultServerConditions } from "vite";
import { defineConfig } from "vitest/config";
import { preactAliases, testingLibraryOnPreact } from "./host/app/src/build/renderer.ts";

// The workspace packages export built files (`import`/`types`) and their TypeScript under a `source`
// condition (decision 0110): tests resolve the sources (no build step), in Vite's transforms, in the
// workers (Vitest passes `ssr.resolve.conditions` as `--conditions`) and in the Node processes the
// tests spawn (NODE_OPTIONS, inherited: the API server, the devnet, the bridge children).
const source = {
  resolve: { conditions: ["source", ...defaultClientConditions] },
  ssr: { resolve: { conditions: ["source", ...defaultServerConditions] } },
};
const env = { NODE_OPTIONS: [process.env.NODE_OPTIONS, "--conditions=source"].filter(Boolean).join(" ") };

// Two projects: `unit` (beside the code; node or happy-dom per folder) and `e2e` (real Chromium).
export default defineConfig({
  test: {
    projects: [
      {
        ...source,
        test: {
          env,
          name: "unit",
          include: ["kernel/*/src/**/*.test.ts", "plugins/*/src/**/*.test.ts", "plugins/*/test/**/*.test.ts", "host/*/src/**/*.test.ts", "host/*/test/**/*.test.ts", "host/regions/*.test.ts", "tooling/*/src/**/*.test.ts"],
          environment: "node",
          // PGlite boots and devnet blocks take seconds on a loaded 2-core machine: limits against hangs, not timings.
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        ...source,
        // The DOM tests render with what the app ships: React's API on Preact (decision 0011).
        resolve: { ...source.resolve, alias: [...preactAliases(), ...testingLibraryOnPreact()] },
        test: {
          env,
          name: "unit-dom",
          // transformed, so that their own `react-dom` imports take the alias too
          server: { deps: { inline: ["@testing-library/react", "@testing-library/user-event", /@tanstack\/react-/, "react-i18next"] } },
          include: ["kernel/*/src/**/*.test.tsx", "plugins/*/src/**/*.test.tsx", "host/*/src/**/*.test.tsx"],
          environment: "happy-dom",
          testTimeout: 15_000,
        },
      },
      {
        ...source,
        test: {
          env,
          name: "e2e",
          include: ["tooling/e2e/**/*.e2e.ts", "plugins/*/test/**/*.e2e.ts"],
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
