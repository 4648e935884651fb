/**
 * The demo dApp by hand, next to a running development stack (`npm start`):
 *
 *   npx tsx tooling/demo-dapp/src/serve.ts [--bridge http://127.0.0.1:8090/bridge]
 *     [--link https://t.me/<bot>/<app>] [--port 8095]
 *
 * Open the printed URL, press "Connect Wallet", pick "Wallet (dev)", then "Desktop": the page opens
 * a `https://t.me/…?startapp=tonconnect-…` tab; that `startapp` value goes into the dev launch
 * page's "Start param" field (the QR code holds the same link).
 */
import { parseArgs } from "node:util"
import { startDemoDapp } from "../../harness/src/demo-dapp.ts"

const { values } = parseArgs({
  options: {
    bridge: { type: "string", default: "http://127.0.0.1:8090/bridge" },
    link: { type: "string", default: "https://t.me/wallet_dev_bot/start" },
    port: { type: "string", default: "8095" },
  },
})

const dapp = await startDemoDapp({ bridgeUrl: values.bridge, universalLink: values.link, port: Number(values.port) })
console.log(`demo dApp: ${dapp.url} (bridge ${values.bridge}, wallet link ${values.link})`)
process.on("SIGINT", () => void dapp.close().then(() => process.exit(0)))
