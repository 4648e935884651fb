/** Wallet versions, newest first (the probe order, spec 2 §9). */
export const WALLET_CLASSES = ["v5r1", "v5beta", "v4r2", "v3r2", "v3r1"] as const
export type WalletClass = (typeof WALLET_CLASSES)[number]
export const DEFAULT_WALLET_CLASS: WalletClass = "v5r1"
/** Spec 2 §9: 255 messages for W5, 4 otherwise. */
export const maxMessages = (walletClass: WalletClass) => (walletClass === "v5r1" || walletClass === "v5beta" ? 255 : 4)

/**
 * Spec 2 §3: changing the version is allowed for the default class, the v5 beta and a third class.
 * The third is v4R2, the version most wallets made before W5 (decision 0621).
 */
export const CHANGEABLE_WALLET_CLASSES: ReadonlyArray<WalletClass> = ["v5r1", "v5beta", "v4r2"]

/** A wallet of this class may switch to another version. */
export const canChangeVersion = (current: WalletClass): boolean => CHANGEABLE_WALLET_CLASSES.includes(current)

/** Spec 2 §3: the v5 beta is shown only when its TON balance is above 0 (undefined: not probed yet). */
export const isV5BetaShown = (v5BetaBalance: bigint | undefined): boolean => v5BetaBalance !== undefined && v5BetaBalance > 0n

/**
 * The versions the version screen lists, newest first: the current one always (so one is checked);
 * the others only when the current may change, the v5 beta only with a TON balance.
 */
export const listedWalletClasses = (current: WalletClass, v5BetaBalance: bigint | undefined): ReadonlyArray<WalletClass> =>
  WALLET_CLASSES.filter((walletClass) => {
    if (walletClass === current) return true
    if (!canChangeVersion(current) || !CHANGEABLE_WALLET_CLASSES.includes(walletClass)) return false
    return walletClass !== "v5beta" || isV5BetaShown(v5BetaBalance)
  })
