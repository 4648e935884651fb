import { definePlugin, type StartHookModule } from "@wallet/kernel"
import type { StartHost } from "./listener.ts"
import { ConnectSearch, RequestSearch } from "./routes.ts"

export { ConnectSearch, RequestSearch } from "./routes.ts"

/**
 * The TON libraries read `globalThis.Buffer` when they are first evaluated, and the bundler may
 * evaluate them at the top of a screen's chunk, before any module in it runs. So the global goes in
 * first, from the `buffer` package alone, and the screen's chunk loads after.
 */
export const withBuffer =
  <T>(load: () => Promise<T>) =>
  (): Promise<T> =>
    import("buffer")
      .then(({ Buffer }) => {
        const scope = globalThis as { Buffer?: unknown }
        if (scope.Buffer === undefined) scope.Buffer = Buffer
      })
      .then(load)

const screen = {
  connect: withBuffer(() => import("./client/ConnectScreen.tsx")),
  request: withBuffer(() => import("./client/RequestScreen.tsx")),
  connectedApps: withBuffer(() => import("./client/ConnectedAppsScreen.tsx")),
}

/**
 * TonConnect v2 on the wallet side (spec 2; issue 8). Every screen is lazy; the engine (`./engine`)
 * and the bridge listener load with them, never on the first screen.
 */
export const tonconnectPlugin = definePlugin({
  id: "tonconnect",
  version: "0.1.0",
  kernel: "^0.1.0",
  // Signs with the self-custody wallet (`@wallet/plugin-ton-space/wallet-access`).
  dependsOn: ["ton-space"],
  routes: [
    { id: "connect", parent: "scw", path: "/tc/connect", search: ConnectSearch, component: screen.connect },
    { id: "connect-qr", parent: "scw", path: "/tc/connect/qr", search: ConnectSearch, component: screen.connect },
    { id: "request", parent: "scw", path: "/tc/request", search: RequestSearch, component: screen.request },
    { id: "connected-apps", parent: "scw", path: "/settings/connected-apps", component: screen.connectedApps },
  ],
  // Telegram start param `tonconnect-<packed query>` (the dApp SDK's encoding): the connect screen unpacks it.
  deepLinks: [{ prefix: "tonconnect-", to: "/scw/tc/connect", search: { startapp: "{rest}" } }],
  settings: [{ id: "connected-apps", section: "scw", labelKey: "settings.connectedApps", to: "/scw/settings/connected-apps", icon: "globe", order: 30 }],
  // After start: resume the bridge listener when this device holds sessions (dApp requests reach an open app).
  // Typed so the declaration build names the hook's module type instead of inlining `typeof import("./listener.ts")`.
  hooks: { afterStart: (): Promise<StartHookModule<StartHost>> => import("./listener.ts") },
  analytics: {
    events: [
      { name: "tonconnect.connect_approve", description: "The user approved a dApp's connect request" },
      { name: "tonconnect.connect_decline", description: "The user declined a dApp's connect request" },
    ],
  },
  i18n: {
    namespace: "tonconnect",
    bundles: {
      en: () => import("./i18n/en.json"),
      ru: () => import("./i18n/ru.json"),
      hi: () => import("./i18n/hi.json"),
      bn: () => import("./i18n/bn.json"),
      "zh-TW": () => import("./i18n/zh-TW.json"),
    },
  },
})
