// The devnet engine: an @ton/sandbox chain with a mempool, blocks, an indexer and persistence.
// This file is the write side (faucet, mempool, blocks, persistence, the gasless relay); the parts live
// in engine/: the read side it extends (reader.ts with queries.ts and trace-index.ts), the catalog
// (demo assets, code hashes, prices), running messages (sandbox.ts), trace records, the faucet's messages.
import fs from "node:fs"
import { Address, type Cell, type Message, SendMode, beginCell, external, internal, loadMessage, storeMessage, toNano } from "@ton/core"
import { WalletContractV5R1 } from "@ton/ton"
import { keyPairFromSeed, type KeyPair } from "@ton/crypto"
import { Blockchain, EmulationError, TreasuryContract } from "@ton/sandbox"
import type { TraceRecord, TxNode } from "./model.ts"
import { messageHash } from "./render.ts"
import { ApiError, OP, nowSec, opOf, raw } from "./util.ts"
import type { GlobalId, Meta } from "./engine/catalog.ts"
import { type FaucetRequest, faucetMessages, genesisMessages } from "./engine/faucet.ts"
import { appendTraceLines, loadState, readTraces, saveState } from "./engine/persist.ts"
import { type RecordContext, buildRecord } from "./engine/record.ts"
import { type Executed, ForkStorage, Mutex, checkAccepted, execute } from "./engine/sandbox.ts"
import { ChainReader } from "./engine/reader.ts"

export {
  CODE as CODE_HASHES,
  DEMO_EXTRA_CURRENCIES,
  DEMO_JETTONS,
  TON_PRICE_USD,
  extraCurrencies,
  extraCurrencyPreview,
  isWalletCodeHash,
  type ExtraCurrencyMeta,
  type GlobalId,
  type JettonMeta,
} from "./engine/catalog.ts"

export interface DevnetOptions {
  readonly dataDir?: string
  readonly reset?: boolean
  readonly globalId?: GlobalId
  /** write state to disk (default true when dataDir is given) */
  readonly persist?: boolean
}

interface Pending {
  readonly cell: Cell
  readonly message: Message
  readonly extHash: string
  /** extra currency the faucet mints onto its own account right before this message executes */
  readonly mint?: { readonly id: number; readonly amount: bigint }
}

/** A sent message whose in-progress events are not built yet: the chain time its acceptance check ran at. */
interface Unsettled {
  readonly cell: Cell
  readonly now: number
}

export interface EmulationResult {
  readonly root: TxNode
  readonly record: TraceRecord
  readonly rootAccount: string
  readonly outActions: ReadonlyArray<{ mode: number; message: Message }>
}

export class Devnet extends ChainReader {
  private readonly lock = new Mutex()
  private mempool: Pending[] = []
  /** sent messages accepted since the last block whose emulated events no request has needed yet, in send order */
  private readonly unsettled = new Map<string, Unsettled>()
  private readonly seenBocs = new Map<string, number>()
  /** trace lines of the block being produced, appended to traces.jsonl in one write at its end */
  private traceLines: string[] = []
  private readonly relayKey: KeyPair
  private readonly records: RecordContext
  private lastPersist = 0
  private dirty = false
  private blockTime = nowSec()
  readonly processed = { messages: 0, traces: 0 }

  private constructor(
    bc: Blockchain,
    private readonly emu: Blockchain,
    private readonly emuStorage: ForkStorage,
    meta: Meta,
    private readonly dataDir: string | undefined,
  ) {
    super(bc, meta)
    this.relayKey = keyPairFromSeed(Buffer.from(meta.relaySeed, "hex"))
    this.records = {
      accountAddress: (a) => this.accountAddress(a),
      jettonPreview: (m) => this.jettonPreview(m),
      info: (a, chain) => this.info(a, chain),
      walletCache: this.walletCache,
    }
  }

  static async open(opts: DevnetOptions = {}): Promise<Devnet> {
    const dataDir = opts.dataDir
    const persist = opts.persist ?? dataDir !== undefined
    if (dataDir && opts.reset) fs.rmSync(dataDir, { recursive: true, force: true })
    const bc = await Blockchain.create()
    const emuStorage = new ForkStorage(bc)
    const emu = await Blockchain.create({ storage: emuStorage })
    for (const b of [bc, emu]) b.verbosity = { print: false, blockchainLogs: false, vmLogs: "none", debugLogs: false }
    const saved = await loadState(dataDir, bc)
    if (saved) {
      const d = new Devnet(bc, emu, emuStorage, saved, persist ? dataDir : undefined)
      d.loadTraces()
      return d
    }
    const globalId = opts.globalId ?? -239
    const relaySeed = Buffer.from(Array.from({ length: 32 }, (_, i) => (i * 7 + 13) & 0xff)).toString("hex")
    const faucet = await bc.treasury("devnet-faucet", { balance: toNano("1000000000") })
    const meta: Meta = {
      version: 1,
      globalId,
      blockSeqno: 0,
      faucet: raw(faucet.address),
      faucetSubwallet: faucet.subwalletId.toString(),
      relaySeed,
      relay: "",
      pool: "",
      collection: "",
      nextNftIndex: 0,
      jettons: {},
      nftNames: {},
      names: { [raw(faucet.address)]: "Devnet faucet" },
      dns: {},
      scam: [],
    }
    if (dataDir) fs.mkdirSync(dataDir, { recursive: true })
    const d = new Devnet(bc, emu, emuStorage, meta, persist ? dataDir : undefined)
    await d.enqueueInternal(d.faucetTransfer(genesisMessages(meta, d.relayWallet())))
    await d.stepBlock()
    return d
  }

  // ---------------------------------------------------------------- faucet

  private faucetTransfer(messages: ReturnType<typeof internal>[]): Cell {
    const t = new TreasuryContract(0, BigInt(this.meta.faucetSubwallet))
    const body = t.createTransfer({ messages, sendMode: SendMode.PAY_GAS_SEPARATELY })
    return beginCell()
      .store(storeMessage(external({ to: Address.parse(this.meta.faucet), body })))
      .endCell()
  }

  private relayWallet() {
    return WalletContractV5R1.create({ publicKey: this.relayKey.publicKey, walletId: { networkGlobalId: this.meta.globalId } })
  }

  /** Funds an address with TON, mints a demo jetton to it or mints an NFT to it. Returns the faucet message hash. */
  async faucet(req: FaucetRequest): Promise<{ message_hash: string; nft?: string }> {
    const { msgs, nft, mint } = await faucetMessages(this, req)
    if (msgs.length === 0) throw new ApiError(400, "nothing to fund: give ton, jetton, nft or extraCurrency")
    const hash = await this.enqueueInternal(this.faucetTransfer(msgs), mint)
    return { message_hash: hash, ...(nft ? { nft } : {}) }
  }

  registerDns(name: string, address: string): void {
    this.meta.dns[name.toLowerCase()] = this.parseRaw(address)
    this.dirty = true
  }

  // ---------------------------------------------------------------- mempool and blocks

  private async enqueueInternal(cell: Cell, mint?: { id: number; amount: bigint }): Promise<string> {
    const message = loadMessage(cell.beginParse())
    const extHash = messageHash(message)
    this.mempool.push({ cell, message, extHash, ...(mint ? { mint } : {}) })
    return extHash
  }

  /**
   * POST /v2/blockchain/message: validates, rejects duplicates within a minute and what the contract would
   * not accept. Only the root transaction runs here (the acceptance check); the whole trace is emulated
   * for the in-progress events when a request first needs them (`settleProvisional`), against the same
   * state, since the chain state only changes in blocks and a block drops what it executes.
   */
  async submit(boc: Cell): Promise<string> {
    const key = boc.hash().toString("hex")
    const now = Date.now()
    // entries expire in insertion order (each lives one minute), so the oldest are first
    for (const [k, exp] of this.seenBocs) {
      if (exp >= now) break
      this.seenBocs.delete(k)
    }
    if (this.seenBocs.has(key)) throw new ApiError(400, "duplicate message: this boc was already sent within the last minute")
    let message: Message
    try {
      message = loadMessage(boc.beginParse())
    } catch {
      throw new ApiError(400, "invalid message boc")
    }
    if (message.info.type !== "external-in") throw new ApiError(400, "only external inbound messages can be sent")
    this.seenBocs.set(key, now + 60_000)
    // the message as the sandbox stores it: its hash is the ext_msg_hash, and the check runs it
    const stored = beginCell().store(storeMessage(message)).endCell()
    const extHash = stored.hash().toString("hex")
    await this.lock
      .run(async () => {
        const at = Math.max(nowSec(), this.blockTime)
        try {
          await checkAccepted(this.emu, this.bc, message, stored, at)
        } catch (e) {
          throw this.notAccepted(e)
        }
        // registered under the lock, so the block that runs next takes the message and drops these
        this.unsettled.set(extHash, { cell: boc, now: at })
        this.indexer.provisional.set(extHash, [])
        this.mempool.push({ cell: boc, message, extHash })
      })
      .catch((e: unknown) => {
        this.seenBocs.delete(key)
        throw e
      })
    return extHash
  }

  /** Builds the in-progress events of every sent message still waiting for its block (before a request reads). */
  settleProvisional(): Promise<void> {
    if (this.unsettled.size === 0) return Promise.resolve()
    return this.lock.run(async () => {
      for (const [extHash, u] of this.unsettled) {
        this.unsettled.delete(extHash)
        try {
          const emulated = await this.emulateUnlocked(u.cell, {}, u.now)
          this.indexer.provisional.set(
            extHash,
            emulated.record.accountEvents.map((e) => ({ ...e, event: { ...e.event, in_progress: true, progress: 0 } })),
          )
        } catch (e) {
          // accepted by its contract a moment ago on the same state: only a devnet bug lands here
          console.error("devnet: emulating a sent message failed", e)
        }
      }
    })
  }

  private notAccepted(e: unknown): unknown {
    if (e instanceof EmulationError) {
      return new ApiError(400, `external message was not accepted by the contract: exit code ${e.exitCode ?? "unknown"}`, e.exitCode)
    }
    return e
  }

  /** The emulator starts from the chain as it is: accounts copied on first touch, the chain's lt. */
  private forkFromChain(): void {
    this.emuStorage.clearKnownContracts()
    const emu = this.emu as unknown as { currentLt: bigint; transactions: unknown[] }
    emu.currentLt = this.bc.lt
    // the sandbox keeps every transaction it ran; nothing reads the emulator's list
    emu.transactions = []
  }

  /** Emulates a message on a copy of the current state; nothing is committed. */
  emulate(cell: Cell, opts: { ignoreChksig?: boolean; balanceOverride?: ReadonlyArray<{ address: string; balance: bigint }> }): Promise<EmulationResult> {
    return this.lock.run(() => this.emulateUnlocked(cell, opts, Math.max(nowSec(), this.blockTime)))
  }

  private async emulateUnlocked(
    cell: Cell,
    opts: { ignoreChksig?: boolean; balanceOverride?: ReadonlyArray<{ address: string; balance: bigint }> },
    now: number,
  ): Promise<EmulationResult> {
    this.forkFromChain()
    for (const o of opts.balanceOverride ?? []) {
      const c = await this.emu.getContract(Address.parse(o.address))
      c.balance = o.balance
    }
    let list: Executed
    try {
      list = await execute(this.emu, cell, { now, ...(opts.ignoreChksig ? { ignoreChksig: true } : {}) })
    } catch (e) {
      throw this.notAccepted(e)
    }
    const msg = loadMessage(cell.beginParse())
    const { record, root } = await buildRecord(this.records, this.emu, list, messageHash(msg), `(0,8000000000000000,${this.meta.blockSeqno + 1})`, false, true)
    const rootTx = list[0]?.tx
    const outActions = (rootTx?.outActions ?? []).flatMap((a) => (a.type === "sendMsg" ? [{ mode: a.mode, message: a.outMsg as unknown as Message }] : []))
    return { root, record, rootAccount: root.account, outActions }
  }

  /** Produces one block: executes every pending message and indexes the traces. */
  stepBlock(): Promise<void> {
    return this.lock.run(async () => {
      const batch = this.mempool
      this.mempool = []
      this.meta.blockSeqno += 1
      this.blockTime = Math.max(nowSec(), this.blockTime)
      this.bc.now = this.blockTime
      const block = `(0,8000000000000000,${this.meta.blockSeqno})`
      for (const p of batch) {
        this.indexer.provisional.delete(p.extHash)
        this.unsettled.delete(p.extHash)
        if (p.mint) {
          const faucet = await this.bc.getContract(Address.parse(this.meta.faucet))
          const held = faucet.ec
          faucet.ec = { ...held, [p.mint.id]: (held[p.mint.id] ?? 0n) + p.mint.amount }
        }
        let list: Executed
        try {
          list = await execute(this.bc, p.cell, { now: this.blockTime })
        } catch (e) {
          if (e instanceof EmulationError) continue // rejected at block time (e.g. seqno already used)
          throw e
        }
        this.processed.messages += 1
        const { record } = await buildRecord(this.records, this.bc, list, p.extHash, block, false)
        this.indexer.add(record)
        this.processed.traces += 1
        this.appendTrace(record)
      }
      // the sandbox keeps its own transaction list; the index above replaces it
      ;(this.bc as unknown as { transactions: unknown[] }).transactions = []
      this.flushTraces()
      if (batch.length > 0) this.dirty = true
      this.persistMaybe(false)
    })
  }

  get pendingCount(): number {
    return this.mempool.length
  }

  // ---------------------------------------------------------------- persistence

  private appendTrace(record: TraceRecord): void {
    if (this.dataDir) this.traceLines.push(JSON.stringify(record))
  }

  /** One append per block instead of one per trace. */
  private flushTraces(): void {
    if (this.traceLines.length === 0) return
    appendTraceLines(this.dataDir, this.traceLines)
    this.traceLines = []
  }

  private loadTraces(): void {
    for (const rec of readTraces(this.dataDir)) {
      this.indexer.add(rec)
      for (const e of rec.accountEvents) this.walletCache.set(e.account, e.event.account.is_wallet)
    }
  }

  persistMaybe(force: boolean): void {
    if (!this.dataDir || (!this.dirty && !force)) return
    if (!force && Date.now() - this.lastPersist < 1000) return
    saveState(this.dataDir, this.bc, this.meta)
    this.lastPersist = Date.now()
    this.dirty = false
  }

  flush(): Promise<void> {
    return this.lock.run(async () => this.persistMaybe(true))
  }

  // ---------------------------------------------------------------- gasless relay

  /** Relays a signed W5 internal-auth body: the relay wallet carries it to the user's wallet with TON for gas. */
  async gaslessSend(boc: Cell, value: bigint): Promise<string> {
    const msg = loadMessage(boc.beginParse())
    if (msg.info.type !== "external-in") throw new ApiError(400, "expected an external message to a wallet")
    const body = msg.body
    if (opOf(body) !== OP.w5SignedInternal) throw new ApiError(400, "gasless needs a W5 message signed for internal delivery (op 0x73696e74)")
    const relay = this.relayWallet()
    const seqno = await this.seqno(this.meta.relay)
    const transfer = relay.createTransfer({
      seqno,
      secretKey: this.relayKey.secretKey,
      sendMode: SendMode.PAY_GAS_SEPARATELY,
      messages: [internal({ to: msg.info.dest, value, bounce: true, body })],
    })
    const ext = beginCell()
      .store(storeMessage(external({ to: relay.address, body: transfer })))
      .endCell()
    await this.submit(ext)
    return messageHash(msg)
  }

  async close(): Promise<void> {
    await this.flush()
  }
}
