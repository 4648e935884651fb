// Running messages on an @ton/sandbox chain: the fork storage the emulator uses, the lock that
// serialises blocks and emulations, and message execution with each transaction's end balance.
import { Address, type Cell, loadMessage } from "@ton/core"
import { type Blockchain, type BlockchainStorage, type BlockchainTransaction, SmartContract } from "@ton/sandbox"

/** The transactions one message caused, in order, each with its account's balance after it. */
export type Executed = Array<{ tx: BlockchainTransaction; endBalance: bigint }>

/**
 * Emulator storage: copies an account from the main chain the first time the emulation touches it,
 * so an emulation costs O(accounts touched) instead of a full state copy.
 */
export class ForkStorage implements BlockchainStorage {
  private readonly contracts = new Map<string, SmartContract>()
  constructor(private readonly main: Blockchain) {}
  async getContract(blockchain: Blockchain, address: Address): Promise<SmartContract> {
    const key = address.toRawString()
    let c = this.contracts.get(key)
    if (!c) {
      const src = await this.main.getContract(address)
      c = new SmartContract(src.account, blockchain)
      this.contracts.set(key, c)
    }
    return c
  }
  knownContracts(): SmartContract[] {
    return [...this.contracts.values()]
  }
  clearKnownContracts(): void {
    this.contracts.clear()
  }
}

export class Mutex {
  private tail: Promise<unknown> = Promise.resolve()
  run<T>(f: () => Promise<T>): Promise<T> {
    const next = this.tail.then(f, f)
    this.tail = next.catch(() => undefined)
    return next
  }
}

export const addrFromTx = (tx: BlockchainTransaction): Address => {
  const info = tx.inMessage?.info
  if (info && (info.type === "internal" || info.type === "external-in")) return info.dest
  const hex = tx.address.toString(16).padStart(64, "0")
  return Address.parseRaw(`0:${hex}`)
}

export const execute = async (bc: Blockchain, cell: Cell, params: { now: number; ignoreChksig?: boolean }): Promise<Executed> => {
  const msg = loadMessage(cell.beginParse())
  const out: Executed = []
  const iter = await bc.sendMessageIter(msg, { now: params.now, ...(params.ignoreChksig ? { ignoreChksig: true } : {}) })
  for await (const tx of iter) {
    const c = await bc.getContract(addrFromTx(tx))
    out.push({ tx, endBalance: c.balance })
  }
  return out
}
