import { booleanParam, enumParam, routeRef, searchParams, stringParam } from "@wallet/kernel"

/**
 * The TON space's routes as typed references (decision 0170), with the search checks the
 * manifest's routes use, so a reference and its route cannot drift apart. Other plugins that
 * depend on the TON space (TonConnect) open its screens through these.
 */

export const MainSearch = searchParams({ onboardingBackPath: stringParam, walletUpgraded: stringParam })
export const SendSearch = searchParams({ asset: stringParam, to: stringParam })
export const ConfirmSearch = searchParams({ asset: stringParam, to: stringParam, amount: stringParam, comment: stringParam })
export const TxSearch = searchParams({ walletAddress: stringParam })
export const SettingsSearch = searchParams({ showMnemonic: booleanParam })
export const CollectibleSendSearch = searchParams({ inputtedRecipientAddress: stringParam })
export const AssetSearch = searchParams({ source: stringParam })
export const ViewerSearch = searchParams({ address: stringParam })
export const BackupSearch = searchParams({ intent: enumParam(["confirming", "none"], "none"), backPath: stringParam })

export const mainRoute = routeRef("/scw", MainSearch)
export const onboardingRoute = routeRef("/scw/onboarding")
export const backupManualRoute = routeRef("/scw/backup/manual", BackupSearch)
export const backupTestRoute = routeRef("/scw/backup/test")
export const backupSuccessRoute = routeRef("/scw/backup/success")
export const importMnemonicRoute = routeRef("/scw/import/mnemonic")
export const importSuccessRoute = routeRef("/scw/import/success")
export const qrRoute = routeRef("/scw/qr")
export const sendRoute = routeRef("/scw/send", SendSearch)
export const sendTonConfirmationRoute = routeRef("/scw/send-ton-confirmation", ConfirmSearch)
export const sendJettonConfirmationRoute = routeRef("/scw/send-jetton-confirmation", ConfirmSearch)
export const sendExtraCurrencyConfirmationRoute = routeRef("/scw/send-extra-currency-confirmation", ConfirmSearch)
export const sendSuccessRoute = routeRef("/scw/send-success")
export const txRoute = routeRef("/scw/tx/$eventId", TxSearch)
export const settingsRoute = routeRef("/scw/settings", SettingsSearch)
export const settingsRecoveryRoute = routeRef("/scw/settings/recovery")
export const settingsLogoutRoute = routeRef("/scw/settings/logout")
export const settingsVersionNetworkRoute = routeRef("/scw/settings/version-network")
export const collectiblesRoute = routeRef("/scw/collectibles")
export const collectibleRoute = routeRef("/scw/collectible/$address")
export const collectibleReceiverRoute = routeRef("/scw/collectible/$address/receiver-search")
export const collectibleSendRoute = routeRef("/scw/collectible/$address/send/$recipientAddress", CollectibleSendSearch)
export const collectibleSendSuccessRoute = routeRef("/scw/collectible/$address/send/$recipientAddress/success")
export const assetRoute = routeRef("/scw/assets/$address", AssetSearch)
export const extraCurrencyRoute = routeRef("/scw/assets/extra-currency/$id")
export const pnlRoute = routeRef("/scw/pnl/$address")
export const viewerRoute = routeRef("/scw/viewer", ViewerSearch)
export const swapRoute = routeRef("/scw/swap")
export const earnRoute = routeRef("/scw/earn")

// Public paths of plugins the TON space does not depend on (the route-reference test checks they exist).
/** The settings screen (the settings plugin), opened on its TON tab. */
export const walletSettingsRoute = routeRef("/settings", searchParams({ tab: enumParam(["cw", "scw"], "cw") }))

/** Every reference of this plugin (the route-reference test checks them against the composed tree). */
export const routeRefs = [
  mainRoute,
  onboardingRoute,
  backupManualRoute,
  backupTestRoute,
  backupSuccessRoute,
  importMnemonicRoute,
  importSuccessRoute,
  qrRoute,
  sendRoute,
  sendTonConfirmationRoute,
  sendJettonConfirmationRoute,
  sendExtraCurrencyConfirmationRoute,
  sendSuccessRoute,
  txRoute,
  settingsRoute,
  settingsRecoveryRoute,
  settingsLogoutRoute,
  settingsVersionNetworkRoute,
  collectiblesRoute,
  collectibleRoute,
  collectibleReceiverRoute,
  collectibleSendRoute,
  collectibleSendSuccessRoute,
  assetRoute,
  extraCurrencyRoute,
  pnlRoute,
  viewerRoute,
  swapRoute,
  earnRoute,
  walletSettingsRoute,
]
