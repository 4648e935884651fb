/** The custody plugin's HTTP contract (accounts, transfers, history, rates): see the server helper's groups. */
export {}
