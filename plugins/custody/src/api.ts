/** The custody plugin's HTTP contract (accounts, transfers, history, rates); filled in by the server work. */
export const CUSTODY_API_PREFIX = "/api/custody"
