/**
 * Every user flag and banner of the view settings (spec 1 §3) and who acts on it (decision 0360,
 * "View settings acted on"): the plugin whose screen reads it now (`actedOnBy`; `host` is the app
 * shell), the plugin still to come that will (`pendingPlugin`), or the server alone (`decidedBy`).
 * A plugin that starts reading a pending one moves it to `actedOnBy` here: viewSettingsUse.test.ts
 * fails while a pending key is read by a screen, or an acted one is read by none.
 */
export type ViewSettingUse =
  | { readonly actedOnBy: string; readonly where: string }
  | { readonly pendingPlugin: string }
  | { readonly decidedBy: "server"; readonly where: string }

export const VIEW_SETTINGS_USE: {
  readonly userFlags: Readonly<Record<string, ViewSettingUse>>
  readonly banners: Readonly<Record<string, ViewSettingUse>>
} = {
  userFlags: {
    expand_cryptocurrency: { actedOnBy: "home", where: "wallet main's low-balance toggle (expanded state, saved on toggle)" },
    display_scw: { actedOnBy: "home", where: "the TON tab of wallet main's crypto/TON switch; settings' switch saves it" },
    display_change_language_alert: { actedOnBy: "host", where: "the shell's language-suggestion dialog (shown once)" },
    display_change_language_tooltip: { actedOnBy: "host", where: "the shell's 2000 ms language tooltip (shown once)" },
    wallet_onboarding_finished: { actedOnBy: "custody", where: "custody's onboarding (and the shell fallback) saves it when finished" },
    send_onboarding_finished: { actedOnBy: "custody", where: "the intro on the send options screen before the first send" },
    p2p_onboarding_completed: { pendingPlugin: "p2p" },
    p2p_express_onboarding_completed: { pendingPlugin: "p2p" },
    is_custody_available: { decidedBy: "server", where: "the session's isCustodyAvailable; the client may not save it" },
  },
  banners: {
    display_terms_banner: { actedOnBy: "custody", where: "wallet main: 'Terms of service updated' (custody's main section)" },
    display_passcode_banner: { actedOnBy: "passcode", where: "wallet main: 'Protect your wallet with a passcode' while there is none" },
    display_trading_cell: { pendingPlugin: "trade" },
    display_kyc_banner: { pendingPlugin: "kyc" },
    display_earn_banner: { pendingPlugin: "earn" },
    display_stocks_waitlist_banner: { pendingPlugin: "stocks" },
    display_stocks_terms_banner: { pendingPlugin: "stocks" },
  },
}
