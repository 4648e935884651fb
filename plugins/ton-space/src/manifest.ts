import { definePlugin } from "@wallet/kernel"
import { TonSpaceConfigSchema } from "./config.ts"
import { AssetSearch, BackupSearch, CollectibleSendSearch, ConfirmSearch, MainSearch, SendSearch, SettingsSearch, TxSearch, ViewerSearch } from "./routes.ts"

/** Region config of the TON space (./config.ts, where the screens read it). */
export { TonSpaceConfigSchema, type TonSpaceConfig } from "./config.ts"

export { AssetSearch, BackupSearch, CollectibleSendSearch, ConfirmSearch, MainSearch, SendSearch, SettingsSearch, TxSearch, ViewerSearch } from "./routes.ts"

const screen = {
  main: () => import("./client/MainScreen.tsx"),
  onboarding: () => import("./client/OnboardingScreen.tsx"),
  backup: () => import("./client/BackupScreens.tsx").then((m) => ({ default: m.BackupWordsScreen })),
  backupTest: () => import("./client/BackupScreens.tsx").then((m) => ({ default: m.BackupTestScreen })),
  backupSuccess: () => import("./client/BackupScreens.tsx").then((m) => ({ default: m.BackupSuccessScreen })),
  importMnemonic: () => import("./client/ImportScreens.tsx").then((m) => ({ default: m.ImportMnemonicScreen })),
  importSuccess: () => import("./client/ImportScreens.tsx").then((m) => ({ default: m.ImportSuccessScreen })),
  receive: () => import("./client/ReceiveScreen.tsx"),
  send: () => import("./client/SendScreens.tsx").then((m) => ({ default: m.SendScreen })),
  confirm: () => import("./client/SendScreens.tsx").then((m) => ({ default: m.ConfirmScreen })),
  sendSuccess: () => import("./client/SendScreens.tsx").then((m) => ({ default: m.SendSuccessScreen })),
  tx: () => import("./client/TxScreen.tsx"),
  settings: () => import("./client/SettingsScreens.tsx").then((m) => ({ default: m.ScwSettingsScreen })),
  recovery: () => import("./client/SettingsScreens.tsx").then((m) => ({ default: m.RecoveryScreen })),
  logout: () => import("./client/SettingsScreens.tsx").then((m) => ({ default: m.LogoutScreen })),
  versionNetwork: () => import("./client/SettingsScreens.tsx").then((m) => ({ default: m.VersionNetworkScreen })),
  collectibles: () => import("./client/CollectibleScreens.tsx").then((m) => ({ default: m.CollectiblesScreen })),
  collectible: () => import("./client/CollectibleScreens.tsx").then((m) => ({ default: m.CollectibleScreen })),
  collectibleReceiver: () => import("./client/CollectibleScreens.tsx").then((m) => ({ default: m.CollectibleReceiverScreen })),
  collectibleSend: () => import("./client/CollectibleScreens.tsx").then((m) => ({ default: m.CollectibleSendScreen })),
  collectibleSuccess: () => import("./client/CollectibleScreens.tsx").then((m) => ({ default: m.CollectibleSendSuccessScreen })),
  asset: () => import("./client/AssetScreens.tsx").then((m) => ({ default: m.AssetScreen })),
  extraCurrency: () => import("./client/AssetScreens.tsx").then((m) => ({ default: m.ExtraCurrencyScreen })),
  pnl: () => import("./client/AssetScreens.tsx").then((m) => ({ default: m.PnlScreen })),
  viewer: () => import("./client/ViewerScreen.tsx"),
  swap: () => import("./client/TabPlaceholders.tsx").then((m) => ({ default: m.SwapTabScreen })),
  earn: () => import("./client/TabPlaceholders.tsx").then((m) => ({ default: m.EarnTabScreen })),
}

/** The self-custody TON wallet (spec 2; issue 6). Every route is lazy: TON code never loads on the first screen. */
export const tonSpacePlugin = definePlugin({
  id: "ton-space",
  version: "0.1.0",
  kernel: "^0.1.0",
  // Imports custody's chart geometry (client) and passcode's device-key records (server).
  dependsOn: ["custody", "passcode"],
  routes: [
    { id: "main", parent: "scw", path: "/", search: MainSearch, component: screen.main },
    { id: "onboarding", parent: "scw", path: "/onboarding", component: screen.onboarding },
    { id: "backup-manual", parent: "scw", path: "/backup/manual", search: BackupSearch, component: screen.backup },
    { id: "backup-test", parent: "scw", path: "/backup/test", component: screen.backupTest },
    { id: "backup-success", parent: "scw", path: "/backup/success", component: screen.backupSuccess },
    { id: "import-mnemonic", parent: "scw", path: "/import/mnemonic", component: screen.importMnemonic },
    { id: "import-success", parent: "scw", path: "/import/success", component: screen.importSuccess },
    { id: "qr", parent: "scw", path: "/qr", component: screen.receive },
    { id: "receive-options", parent: "scw", path: "/receive-options", redirectTo: "/scw/qr" },
    { id: "send", parent: "scw", path: "/send", search: SendSearch, component: screen.send },
    { id: "send-ton-confirmation", parent: "scw", path: "/send-ton-confirmation", search: ConfirmSearch, component: screen.confirm },
    { id: "send-jetton-confirmation", parent: "scw", path: "/send-jetton-confirmation", search: ConfirmSearch, component: screen.confirm },
    { id: "send-extra-currency-confirmation", parent: "scw", path: "/send-extra-currency-confirmation", search: ConfirmSearch, component: screen.confirm },
    { id: "send-success", parent: "scw", path: "/send-success", component: screen.sendSuccess },
    { id: "tx", parent: "scw", path: "/tx/$eventId", search: TxSearch, component: screen.tx },
    { id: "settings", parent: "scw", path: "/settings", search: SettingsSearch, component: screen.settings },
    { id: "settings-recovery", parent: "scw", path: "/settings/recovery", component: screen.recovery },
    { id: "settings-logout", parent: "scw", path: "/settings/logout", component: screen.logout },
    { id: "settings-version-network", parent: "scw", path: "/settings/version-network", component: screen.versionNetwork },
    { id: "collectibles", parent: "scw", path: "/collectibles", component: screen.collectibles },
    { id: "collectible", parent: "scw", path: "/collectible/$address", component: screen.collectible },
    { id: "collectible-receiver", parent: "scw", path: "/collectible/$address/receiver-search", component: screen.collectibleReceiver },
    {
      id: "collectible-send",
      parent: "scw",
      path: "/collectible/$address/send/$recipientAddress",
      search: CollectibleSendSearch,
      component: screen.collectibleSend,
    },
    { id: "collectible-send-success", parent: "scw", path: "/collectible/$address/send/$recipientAddress/success", component: screen.collectibleSuccess },
    { id: "asset", parent: "scw", path: "/assets/$address", search: AssetSearch, component: screen.asset },
    { id: "asset-extra-currency", parent: "scw", path: "/assets/extra-currency/$id", component: screen.extraCurrency },
    { id: "pnl", parent: "scw", path: "/pnl/$address", component: screen.pnl },
    { id: "viewer", parent: "scw", path: "/viewer", search: ViewerSearch, component: screen.viewer },
    { id: "swap", parent: "scw", path: "/swap", component: screen.swap },
    { id: "earn", parent: "scw", path: "/earn", component: screen.earn },
  ],
  // Spec 1 §2 start params of the TON space (decision 0380; the table test in host/regions lists them all).
  deepLinks: [
    { prefix: "tonwallet_main", exact: true, to: "/scw" },
    // The Open League campaign has no screen of its own yet: its link lands on the TON space main.
    { prefix: "tonwallet_openleague", exact: true, to: "/scw" },
    { prefix: "tonwallet_onboarding", exact: true, to: "/scw/onboarding" },
    { prefix: "tonwallet_viewer", exact: true, to: "/scw/viewer" },
    { prefix: "tonwallet_deposit", exact: true, to: "/scw/qr" },
    { prefix: "tonwallet_swap", exact: true, to: "/scw/swap" },
    { prefix: "tonwallet_staking", exact: true, to: "/scw/earn" },
    { prefix: "tonwallet_settings", exact: true, to: "/scw/settings" },
    { prefix: "collectible_", to: "/scw/collectible/$address", params: { address: "{rest}" } },
    // The send-link rule: address and value (nano) open the TON confirmation; anything less the form.
    { prefix: "tonwallet_send", exact: true, to: "/scw/send" },
    {
      prefix: "tonwallet_send_",
      pattern: "(?<address>[\\w-]{48})_(?<value>\\d{1,30})",
      to: "/scw/send-ton-confirmation",
      search: { asset: "TON", to: "{address}", amount: "{value}" },
    },
    { prefix: "tonwallet_send_", pattern: "[\\w-]{48}", to: "/scw/send", search: { to: "{rest}" } },
    {
      prefix: "tonwallet_collectible_send_confirm_",
      pattern: "(?<address>[\\w-]{48})_(?<recipient>[\\w-]{48})",
      to: "/scw/collectible/$address/send/$recipientAddress",
      params: { address: "{address}", recipientAddress: "{recipient}" },
    },
  ],
  tabs: [
    { id: "main", bar: "ton", to: "/scw", labelKey: "tabs.main", icon: "ton", order: 10 },
    { id: "swap", bar: "ton", to: "/scw/swap", labelKey: "tabs.swap", icon: "currency", order: 20, tooltip: { textKey: "tabs.swapTooltip", priority: 10 } },
    { id: "earn", bar: "ton", to: "/scw/earn", labelKey: "tabs.earn", icon: "globe", order: 30 },
  ],
  settings: [
    { id: "recovery", section: "scw", labelKey: "settings.recovery", to: "/scw/settings/recovery", icon: "wallet", order: 10 },
    { id: "version-network", section: "scw", labelKey: "settings.versionNetwork", to: "/scw/settings/version-network", icon: "globe", order: 20 },
    { id: "logout", section: "scw", labelKey: "settings.logout", to: "/scw/settings/logout", icon: "alert", order: 90 },
  ],
  config: TonSpaceConfigSchema,
  hooks: { beforePasscodeChange: () => import("./client/rekey.ts") },
  analytics: { events: [{ name: "ton-space.send_confirm", description: "The TON space send confirm button was pressed (`asset`: the asset kind)" }] },
  i18n: {
    namespace: "tonSpace",
    bundles: {
      en: () => import("./i18n/en.json"),
      ru: () => import("./i18n/ru.json"),
      hi: () => import("./i18n/hi.json"),
      bn: () => import("./i18n/bn.json"),
      "zh-TW": () => import("./i18n/zh-TW.json"),
    },
  },
})
