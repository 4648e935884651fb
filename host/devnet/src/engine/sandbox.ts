// Running messages on an @ton/sandbox chain: the fork storage the emulator uses, the lock that
// serialises blocks and emulations, and message execution with each transaction's end balance.
import { Address, type Cell, type Message, loadMessage } from "@ton/core"
import { type Blockchain, type BlockchainStorage, type BlockchainTransaction, EmulationError, type IExecutor, SmartContract } from "@ton/sandbox"

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
      c = copyContract(await this.main.getContract(address), blockchain)
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

/** The private fields of a sandbox SmartContract that hold its state. */
interface ContractState {
  address: Address
  blockchain: Blockchain
  _account: string
  parsedAccount: unknown
  lastTxTime: number
}

/**
 * A copy of a contract for another chain. The sandbox's constructor takes a parsed account and serialises it;
 * the source already holds that serialised BoC (an immutable string), so the copy takes it as it is and parses
 * it only if the emulation reads the account.
 */
const copyContract = (src: SmartContract, blockchain: Blockchain): SmartContract => {
  const s = src as unknown as ContractState
  if (typeof s._account !== "string") return new SmartContract(src.account, blockchain)
  const c = Object.create(SmartContract.prototype) as ContractState
  c.address = s.address
  c.blockchain = blockchain
  c._account = s._account
  c.parsedAccount = undefined
  c.lastTxTime = s.lastTxTime
  return c as unknown as SmartContract
}

/** The serialised state of a contract (its shard account BoC, base64), or undefined if the sandbox stops keeping it. */
const serialisedState = (c: SmartContract): string | undefined => {
  const s = (c as unknown as Partial<ContractState>)._account
  return typeof s === "string" ? s : undefined
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

/**
 * Would the receiving contract accept this external message on the chain's current state? Runs only its
 * transaction, straight on the executor with the account's serialised state, and reads nothing back but
 * success or the exit code (no transaction, state or trace is parsed). Throws EmulationError like the sandbox.
 * `stored` is the message serialised as the sandbox's own `receiveMessage` would (`storeMessage`).
 */
export const checkAccepted = async (emu: Blockchain, main: Blockchain, message: Message, stored: Cell, now: number): Promise<void> => {
  if (message.info.type !== "external-in") throw new Error("checkAccepted takes an external message")
  const account = await main.getContract(message.info.dest)
  const shardAccount = serialisedState(account)
  if (shardAccount === undefined) {
    const copy = new SmartContract(account.account, emu)
    await copy.receiveMessage(message, { now })
    return
  }
  const executor = (emu as unknown as { executor: IExecutor }).executor
  const res = await executor.runTransaction({
    config: emu.configBase64,
    libs: emu.libs ?? null,
    verbosity: "short",
    shardAccount,
    now,
    lt: main.lt + LT_STEP,
    randomSeed: emu.random ?? Buffer.alloc(32),
    ignoreChksig: false,
    debugEnabled: false,
    prevBlocksInfo: emu.prevBlocks,
    message: stored,
  })
  if (!res.result.success) throw new EmulationError(res.result.error, undefined, res.result.vmResults?.vmExitCode)
}

/** The sandbox advances lt by this much before each transaction. */
const LT_STEP = 1_000_000n
