/**
 * What other plugins (TonConnect) may use of the self-custody wallet: being built (issue 8).
 * Imported lazily only.
 */
export const WALLET_ACCESS_VERSION = 0
