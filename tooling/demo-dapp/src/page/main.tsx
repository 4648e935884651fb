import { TonConnect, TonConnectUIProvider, type UIWallet } from "@tonconnect/ui-react"
import { StrictMode } from "react"
import { createRoot } from "react-dom/client"
import { DEMO_PATHS, type DemoConfig } from "../config.ts"
import { App } from "./App.tsx"
import "./styles.css"

const config = (await (await fetch(DEMO_PATHS.config)).json()) as DemoConfig

// A connector of our own: the wallets list comes from the demo server and analytics stay off,
// so the page never reaches outside hosts.
const connector = new TonConnect({
  manifestUrl: config.manifestUrl,
  walletsListSource: config.walletsListUrl,
  analytics: { mode: "off" },
})
const wallet: UIWallet = { ...config.wallet, platforms: [...config.wallet.platforms] }

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <TonConnectUIProvider
      connector={connector}
      walletsListConfiguration={{ includeWallets: [wallet] }}
      // The request goes over the bridge; the wallet is already open in Telegram.
      actionsConfiguration={{ skipRedirectToWallet: "always", modals: ["before"], notifications: [] }}
    >
      <App config={config} />
    </TonConnectUIProvider>
  </StrictMode>,
)
