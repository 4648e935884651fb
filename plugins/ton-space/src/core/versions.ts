/** Wallet versions, newest first (the probe order, spec 2 §9). */
export const WALLET_CLASSES = ["v5r1", "v5beta", "v4r2", "v3r2", "v3r1"] as const
export type WalletClass = (typeof WALLET_CLASSES)[number]
export const DEFAULT_WALLET_CLASS: WalletClass = "v5r1"
/** Spec 2 §9: 255 messages for W5, 4 otherwise. */
export const maxMessages = (walletClass: WalletClass) => (walletClass === "v5r1" || walletClass === "v5beta" ? 255 : 4)
