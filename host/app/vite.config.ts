import react from "@vitejs/plugin-react"
import { resolve } from "node:path"
import { defaultClientConditions, defineConfig } from "vite"
import { preactAliases } from "./src/build/renderer.ts"
import { securityHeadersPlugin } from "./src/server/security-headers.ts"
import { walletPlugins } from "./src/build/plugins-vite.ts"
import { bootPaint } from "./src/build/boot-paint.ts"
import { FIRST_BALANCE_REQUESTS, FIRST_BALANCE_ROOTS, rootsFor } from "./src/build/first-balance-roots.ts"
import { firstBalanceChunks } from "./src/build/first-balance-chunks.ts"
import { LANGUAGES } from "../../kernel/core/src/i18n.ts"

const apiTarget = process.env.WALLET_API_URL ?? "http://127.0.0.1:8090"
// The chain API (tonapi v2 paths): the local devnet by default; the self-custody wallet reads it same-origin.
const chainTarget = process.env.CHAIN_API_URL ?? "http://127.0.0.1:8091"
const proxy = { "/api": apiTarget, "/bridge": apiTarget, "/v2": chainTarget }

export default defineConfig({
  plugins: [
    react(),
    // The theme before the first paint, and the first balance's modules and their CSS preloaded by the
    // HTML (decision 0007): the list the size bench counts, with the English strings.
    // Before the security headers: their HTML hook (also "post") hashes the inline script this one adds.
    // On a cold start the HTML also signs in and sends the first balance's requests (decision 0010).
    bootPaint({ modules: rootsFor("en").map((root) => root.module), requests: FIRST_BALANCE_REQUESTS }),
    // The entry's static imports in one chunk, the first balance's code in another, its strings per language (decision 0012).
    firstBalanceChunks({ entry: "host/app/index.html", roots: FIRST_BALANCE_ROOTS, languages: LANGUAGES }),
    // CSP, nosniff and referrer policy on every answer of the dev and preview servers (decision 0207).
    securityHeadersPlugin({ proxied: Object.keys(proxy) }),
    // virtual:wallet-plugins: the manifests of the packages the region files name, checked (decision 0120).
    walletPlugins({ regionsEntry: resolve(import.meta.dirname, "../regions/index.ts") }),
  ],
  // Workspace packages resolve to their TypeScript sources, never to a stale dist/ (decision 0110).
  // React's API on Preact's renderer (decision 0011).
  resolve: { conditions: ["source", ...defaultClientConditions], alias: preactAliases() },
  define: {
    // Parent frames the app may talk to besides Telegram Web and its own origin (the dev launch page
    // hosts the app from the same origin): comma-separated origins; never "*" (decision 0207).
    "import.meta.env.VITE_TELEGRAM_PARENT_ORIGINS": JSON.stringify(process.env.VITE_TELEGRAM_PARENT_ORIGINS ?? ""),
    "import.meta.env.VITE_REGION": JSON.stringify(process.env.REGION ?? "default"),
  },
  build: {
    target: "es2022",
    sourcemap: false,
    rollupOptions: {
      input: { app: resolve(import.meta.dirname, "index.html"), launch: resolve(import.meta.dirname, "launch.html") },
    },
  },
  // The API server also serves the TonConnect bridge (SSE) at /bridge.
  server: { host: "127.0.0.1", port: 5173, strictPort: true, proxy },
  preview: { host: "127.0.0.1", port: 5173, strictPort: true, proxy },
})
