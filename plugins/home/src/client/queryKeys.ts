/** The home plugin's query keys (decision 0320): one place, so invalidations name the same data. */
export const homeKeys = {
  all: ["home"] as const,
  /** Wallet main's accounts and frozen balances in one fiat. */
  main: (fiat: string) => ["home", "main", fiat] as const,
}
