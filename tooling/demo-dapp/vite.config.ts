import react from "@vitejs/plugin-react"
import { defineConfig, type Plugin } from "vite"

/**
 * @tonconnect/ui hard-codes three icons on a public host; the demo page must not reach the internet,
 * so they are rewritten to the demo server's `/tc-assets/` (served by tooling/harness/src/demo-dapp.ts).
 */
const localTonConnectAssets = (): Plugin => ({
  name: "demo-dapp-local-tonconnect-assets",
  transform(code) {
    const remote = "https://raw.githubusercontent.com/ton-connect/sdk/main/assets/"
    return code.includes(remote) ? { code: code.replaceAll(remote, "/tc-assets/"), map: null } : undefined
  },
})

export default defineConfig({
  root: import.meta.dirname,
  plugins: [react(), localTonConnectAssets()],
  // One test page: a single chunk is fine.
  build: { target: "es2022", sourcemap: false, outDir: "dist", emptyOutDir: true, chunkSizeWarningLimit: 2048 },
  logLevel: "warn",
})
