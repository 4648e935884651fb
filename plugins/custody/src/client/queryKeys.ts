/** The custody plugin's query keys (decision 0320): one place, so reads, prefetches and invalidations agree. */
export const custodyKeys = {
  all: ["custody"] as const,
  /** The user's fiat (the device preference). */
  fiat: () => ["custody", "fiat"] as const,
  /** The accounts (assets, balances, actions, access flags) in one fiat; "" is the server's default fiat. */
  accounts: (fiat: string) => ["custody", "accounts", fiat] as const,
  /** The last transactions of one currency on its asset page. */
  lastTransactions: (currency: string, limit: number) => ["custody", "transactions", "last", currency, limit] as const,
  /** One transaction's details. */
  transaction: (id: string) => ["custody", "transaction", id] as const,
  /** An asset's price chart in one fiat for one period. */
  chart: (crypto: string, fiat: string, period: string) => ["custody", "chart", crypto, fiat, period] as const,
  /** The user's deposit address of one currency on one network (got or created). */
  depositAddress: (currency: string, network: string) => ["custody", "deposit-address", currency, network] as const,
  /** Transfers waiting for the user to accept them. */
  incomingTransfers: () => ["custody", "transfers", "incoming"] as const,
  /** One custody transfer. */
  transfer: (id: string) => ["custody", "transfer", id] as const,
  /** A withdrawal's limits on one network (the send form). */
  withdrawLimits: (currency: string, network: string) => ["custody", "withdraw-limits", currency, network] as const,
  /** An address checked for one currency and network (the send form). */
  addressCheck: (currency: string, network: string, address: string) => ["custody", "address-check", currency, network, address] as const,
  /** Receivers found for a search text. */
  receivers: (query: string) => ["custody", "receivers", query] as const,
  /** A withdrawal's limits and the checked address (the confirm screen). */
  withdrawCheck: (currency: string, network: string, address: string) => ["custody", "withdraw-check", currency, network, address] as const,
}
