/** The custody plugin's on-chain HTTP contract (deposit addresses, address checks, withdrawals). */
export const CUSTODY_CHAIN_API_PREFIX = "/api/custody"
