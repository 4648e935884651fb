/** The custody plugin's on-chain HTTP contract (deposit addresses, address checks, withdrawals). */
export {}
