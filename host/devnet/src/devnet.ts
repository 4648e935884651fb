// The devnet engine: an @ton/sandbox chain with a mempool, blocks, an indexer and persistence.
import fs from "node:fs";
import path from "node:path";
import {
  Address,
  Cell,
  type Message,
  SendMode,
  beginCell,
  external,
  internal,
  loadMessage,
  storeMessage,
  toNano,
  type TupleItem,
} from "@ton/core";
import { WalletContractV3R2, WalletContractV4, WalletContractV5R1 } from "@ton/ton";
import { keyPairFromSeed, type KeyPair } from "@ton/crypto";
import {
  Blockchain,
  type BlockchainStorage,
  type BlockchainTransaction,
  SmartContract,
  EmulationError,
  TreasuryContract,
  snapshotFromSerializable,
  snapshotToSerializable,
} from "@ton/sandbox";
import { JettonMinter } from "@ton-community/assets-sdk/dist/jetton/JettonMinter.js";
import { JettonWallet } from "@ton-community/assets-sdk/dist/jetton/JettonWallet.js";
import { NftCollection } from "@ton-community/assets-sdk/dist/nft/NftCollection.js";
import { NftItem } from "@ton-community/assets-sdk/dist/nft/NftItem.js";
import { classifyTrace, type ClassifyContext } from "./classify.ts";
import type {
  AccountAddressJson,
  AccountEventJson,
  AccountInfo,
  AccountStatus,
  ClassifiedAction,
  JettonOpRecord,
  JettonPreviewJson,
  StoredAccountEvent,
  TraceRecord,
  TxNode,
} from "./model.ts";
import { messageHash, renderTransaction, statusOf } from "./render.ts";
import { ApiError, OP, nowSec, opOf, raw } from "./util.ts";

type SerializableSnapshot = Parameters<typeof snapshotFromSerializable>[0];

export type GlobalId = -239 | -3;

export interface DevnetOptions {
  readonly dataDir?: string;
  readonly reset?: boolean;
  readonly globalId?: GlobalId;
  /** write state to disk (default true when dataDir is given) */
  readonly persist?: boolean;
}

export interface JettonMeta {
  readonly key: string;
  readonly name: string;
  readonly symbol: string;
  readonly decimals: number;
  readonly verification: "whitelist" | "graylist" | "blacklist" | "none";
  readonly image: string;
  readonly description: string;
  readonly priceUsd: number;
}

interface Meta {
  version: 1;
  globalId: GlobalId;
  blockSeqno: number;
  faucet: string;
  faucetSubwallet: string;
  relaySeed: string;
  relay: string;
  pool: string;
  collection: string;
  nextNftIndex: number;
  jettons: Record<string, JettonMeta>;
  nftNames: Record<string, string>;
  names: Record<string, string>;
  dns: Record<string, string>;
  scam: string[];
}

interface Pending {
  readonly cell: Cell;
  readonly message: Message;
  readonly extHash: string;
  /** extra currency the faucet mints onto its own account right before this message executes */
  readonly mint?: { readonly id: number; readonly amount: bigint };
}

export interface EmulationResult {
  readonly root: TxNode;
  readonly record: TraceRecord;
  readonly rootAccount: string;
  readonly outActions: ReadonlyArray<{ mode: number; message: Message }>;
}

/**
 * Emulator storage: copies an account from the main chain the first time the emulation touches it,
 * so an emulation costs O(accounts touched) instead of a full state copy.
 */
class ForkStorage implements BlockchainStorage {
  private readonly contracts = new Map<string, SmartContract>();
  constructor(private readonly main: Blockchain) {}
  async getContract(blockchain: Blockchain, address: Address): Promise<SmartContract> {
    const key = address.toRawString();
    let c = this.contracts.get(key);
    if (!c) {
      const src = await this.main.getContract(address);
      c = new SmartContract(src.account, blockchain);
      this.contracts.set(key, c);
    }
    return c;
  }
  knownContracts(): SmartContract[] {
    return [...this.contracts.values()];
  }
  clearKnownContracts(): void {
    this.contracts.clear();
  }
}

class Mutex {
  private tail: Promise<unknown> = Promise.resolve();
  run<T>(f: () => Promise<T>): Promise<T> {
    const next = this.tail.then(f, f);
    this.tail = next.catch(() => undefined);
    return next;
  }
}

const CODE = {
  w5r1: WalletContractV5R1.create({ publicKey: Buffer.alloc(32) }).init.code.hash().toString("hex"),
  v4r2: WalletContractV4.create({ workchain: 0, publicKey: Buffer.alloc(32) }).init.code.hash().toString("hex"),
  v3r2: WalletContractV3R2.create({ workchain: 0, publicKey: Buffer.alloc(32) }).init.code.hash().toString("hex"),
  treasury: TreasuryContract.code.hash().toString("hex"),
  jettonMinter: JettonMinter.code.hash().toString("hex"),
  jettonWallet: JettonWallet.code.hash().toString("hex"),
  nftItem: (NftItem as unknown as { nftCode: Cell }).nftCode.hash().toString("hex"),
  nftCollection: NftCollection.code.hash().toString("hex"),
};

const WALLET_INTERFACES: Record<string, string> = {
  [CODE.w5r1]: "wallet_v5r1",
  [CODE.v4r2]: "wallet_v4r2",
  [CODE.v3r2]: "wallet_v3r2",
  [CODE.treasury]: "wallet",
};

export const DEMO_JETTONS: readonly JettonMeta[] = [
  { key: "usdt", name: "Tether USD", symbol: "USD₮", decimals: 6, verification: "whitelist", image: "https://devnet.local/jettons/usdt.png", description: "USDT-like stablecoin on the devnet", priceUsd: 1 },
  { key: "dvc", name: "Devnet Coin", symbol: "DVC", decimals: 9, verification: "whitelist", image: "https://devnet.local/jettons/dvc.png", description: "A second verified jetton", priceUsd: 0.25 },
  { key: "scam", name: "Tether USD", symbol: "USDT", decimals: 6, verification: "blacklist", image: "https://devnet.local/jettons/scam.png", description: "Flagged as scam: imitates USDT", priceUsd: 0 },
];

export interface ExtraCurrencyMeta {
  readonly id: number;
  readonly symbol: string;
  readonly decimals: number;
  readonly image: string;
}

/** Extra currencies the devnet knows by name; any other id the faucet mints shows as `EC{id}` with 9 decimals. */
export const DEMO_EXTRA_CURRENCIES: readonly ExtraCurrencyMeta[] = [
  { id: 100, symbol: "DXC", decimals: 5, image: "https://devnet.local/extra/dxc.png" },
  { id: 239, symbol: "FMS", decimals: 9, image: "https://devnet.local/extra/fms.png" },
];

export const extraCurrencyPreview = (id: number): ExtraCurrencyMeta =>
  DEMO_EXTRA_CURRENCIES.find((c) => c.id === id) ?? { id, symbol: `EC${id}`, decimals: 9, image: "https://devnet.local/extra/unknown.png" };

/** An account's or a message's extra currencies (the `other` dictionary of a currency collection) as [id, amount] pairs. */
export const extraCurrencies = (other: { keys(): number[]; get(k: number): bigint | undefined } | null | undefined): Array<[number, bigint]> =>
  other ? other.keys().map((k) => [k, other.get(k) ?? 0n] as [number, bigint]).sort((a, b) => a[0] - b[0]) : [];

export const TON_PRICE_USD = 3.2;
const USD_RATES: Record<string, number> = { usd: 1, eur: 0.92, rub: 92, gbp: 0.79 };

const addrFromTx = (tx: BlockchainTransaction): Address => {
  const info = tx.inMessage?.info;
  if (info && (info.type === "internal" || info.type === "external-in")) return info.dest;
  const hex = tx.address.toString(16).padStart(64, "0");
  return Address.parseRaw(`0:${hex}`);
};

export class Devnet {
  private readonly lock = new Mutex();
  private mempool: Pending[] = [];
  private readonly seenBocs = new Map<string, number>();
  private readonly provisional = new Map<string, StoredAccountEvent[]>();
  private readonly eventsByAccount = new Map<string, StoredAccountEvent[]>();
  private readonly traces = new Map<string, TraceRecord>();
  private readonly txToTrace = new Map<string, string>();
  private readonly extToTrace = new Map<string, string>();
  private readonly jettonOps = new Map<string, JettonOpRecord[]>();
  private readonly lastActivity = new Map<string, number>();
  private readonly staticInfo = new Map<string, Partial<AccountInfo>>();
  private readonly relayKey: KeyPair;
  private lastPersist = 0;
  private dirty = false;
  private blockTime = nowSec();
  readonly processed = { messages: 0, traces: 0 };

  private constructor(
    readonly bc: Blockchain,
    private readonly emu: Blockchain,
    private readonly emuStorage: ForkStorage,
    readonly meta: Meta,
    private readonly dataDir: string | undefined,
  ) {
    this.relayKey = keyPairFromSeed(Buffer.from(meta.relaySeed, "hex"));
  }

  static async open(opts: DevnetOptions = {}): Promise<Devnet> {
    const dataDir = opts.dataDir;
    const persist = opts.persist ?? dataDir !== undefined;
    if (dataDir && opts.reset) fs.rmSync(dataDir, { recursive: true, force: true });
    const bc = await Blockchain.create();
    const emuStorage = new ForkStorage(bc);
    const emu = await Blockchain.create({ storage: emuStorage });
    for (const b of [bc, emu]) b.verbosity = { print: false, blockchainLogs: false, vmLogs: "none", debugLogs: false };
    const metaFile = dataDir ? path.join(dataDir, "meta.json") : undefined;
    if (metaFile && fs.existsSync(metaFile)) {
      const meta = JSON.parse(fs.readFileSync(metaFile, "utf8")) as Meta;
      const snap = JSON.parse(fs.readFileSync(path.join(dataDir!, "chain.json"), "utf8")) as SerializableSnapshot;
      await bc.loadFrom(snapshotFromSerializable(snap));
      const d = new Devnet(bc, emu, emuStorage, meta, persist ? dataDir : undefined);
      d.loadTraces();
      return d;
    }
    const globalId = opts.globalId ?? -239;
    const relaySeed = Buffer.from(Array.from({ length: 32 }, (_, i) => (i * 7 + 13) & 0xff)).toString("hex");
    const faucet = await bc.treasury("devnet-faucet", { balance: toNano("1000000000") });
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
    };
    if (dataDir) fs.mkdirSync(dataDir, { recursive: true });
    const d = new Devnet(bc, emu, emuStorage, meta, persist ? dataDir : undefined);
    await d.genesis();
    return d;
  }

  // ---------------------------------------------------------------- genesis and faucet

  private faucetTransfer(messages: ReturnType<typeof internal>[]): Cell {
    const t = new TreasuryContract(0, BigInt(this.meta.faucetSubwallet));
    const body = t.createTransfer({ messages, sendMode: SendMode.PAY_GAS_SEPARATELY });
    return beginCell()
      .store(storeMessage(external({ to: Address.parse(this.meta.faucet), body })))
      .endCell();
  }

  private relayWallet() {
    return WalletContractV5R1.create({ publicKey: this.relayKey.publicKey, walletId: { networkGlobalId: this.meta.globalId } });
  }

  private async genesis(): Promise<void> {
    const admin = Address.parse(this.meta.faucet);
    const msgs: ReturnType<typeof internal>[] = [];
    for (const j of DEMO_JETTONS) {
      const content = beginCell().storeUint(1, 8).storeStringTail(`https://devnet.local/jettons/${j.key}.json`).endCell();
      const minter = JettonMinter.createFromConfig({ admin, content });
      const a = raw(minter.address);
      this.meta.jettons[a] = j;
      this.meta.names[a] = j.name;
      if (j.verification === "blacklist") this.meta.scam.push(a);
      msgs.push(internal({ to: minter.address, value: toNano("0.1"), bounce: false, init: minter.init! }));
    }
    const collection = NftCollection.createFromConfig({
      admin,
      content: beginCell().storeUint(1, 8).storeStringTail("https://devnet.local/nft/collection.json").endCell(),
      royalty: { numerator: 0n, denominator: 100n, recipient: admin },
    });
    this.meta.collection = raw(collection.address);
    this.meta.names[this.meta.collection] = "Devnet Punks";
    msgs.push(internal({ to: collection.address, value: toNano("0.1"), bounce: false, init: collection.init! }));
    const relay = this.relayWallet();
    this.meta.relay = raw(relay.address);
    this.meta.names[this.meta.relay] = "Gasless relay";
    msgs.push(internal({ to: relay.address, value: toNano("1000"), bounce: false, init: relay.init }));
    const pool = new TreasuryContract(0, 0xbeefn);
    this.meta.pool = raw(pool.address);
    this.meta.names[this.meta.pool] = "Tonstakers (devnet)";
    msgs.push(internal({ to: pool.address, value: toNano("10000"), bounce: false, init: pool.init }));
    this.meta.dns = {
      "faucet.ton": this.meta.faucet,
      "usdt.ton": Object.keys(this.meta.jettons)[0]!,
      "punks.ton": this.meta.collection,
      "relay.ton": this.meta.relay,
      "stake.ton": this.meta.pool,
    };
    await this.enqueueInternal(this.faucetTransfer(msgs));
    await this.stepBlock();
  }

  jettonByKey(key: string): string | undefined {
    return Object.entries(this.meta.jettons).find(([, j]) => j.key === key)?.[0];
  }

  /** Funds an address with TON, mints a demo jetton to it or mints an NFT to it. Returns the faucet message hash. */
  async faucet(req: { address: string; ton?: bigint; jetton?: string; amount?: bigint; nft?: boolean; name?: string; extraCurrency?: { id: number; amount: bigint } }): Promise<{ message_hash: string; nft?: string }> {
    const to = this.parseAccount(req.address);
    const msgs: ReturnType<typeof internal>[] = [];
    let nft: string | undefined;
    const stamp = `devnet faucet #${this.processed.messages}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
    if (req.ton !== undefined && req.ton > 0n) {
      msgs.push(internal({ to, value: req.ton, bounce: false, body: beginCell().storeUint(0, 32).storeStringTail(stamp).endCell() }));
    }
    if (req.jetton) {
      const master = this.jettonByKey(req.jetton) ?? (this.meta.jettons[this.parseRaw(req.jetton)] ? this.parseRaw(req.jetton) : undefined);
      if (!master) throw new ApiError(400, `unknown jetton ${req.jetton}`);
      const meta = this.meta.jettons[master]!;
      const amount = req.amount ?? 1000n * 10n ** BigInt(meta.decimals);
      const captured: { body?: Cell; value?: bigint } = {};
      const provider = { internal: async (_via: unknown, args: { body?: Cell; value: bigint }) => void Object.assign(captured, args) };
      await JettonMinter.createFromAddress(Address.parse(master)).sendMint(provider as never, { address: Address.parse(this.meta.faucet) } as never, to, amount, {
        queryId: BigInt(Date.now()),
      });
      msgs.push(internal({ to: Address.parse(master), value: toNano("0.1"), bounce: true, body: captured.body! }));
    }
    if (req.nft) {
      const index = BigInt(this.meta.nextNftIndex++);
      const col = NftCollection.createFromAddress(Address.parse(this.meta.collection));
      const captured: { body?: Cell } = {};
      const provider = { internal: async (_via: unknown, args: { body?: Cell }) => void Object.assign(captured, args) };
      const name = req.name ?? `Devnet Punk #${index}`;
      await col.sendMint(provider as never, { address: Address.parse(this.meta.faucet) } as never, { index, owner: to, individualContent: `${index}.json` }, { queryId: index });
      msgs.push(internal({ to: Address.parse(this.meta.collection), value: toNano("0.1"), bounce: true, body: captured.body! }));
      const itemAddr = (await this.bc.runGetMethod(Address.parse(this.meta.collection), "get_nft_address_by_index", [{ type: "int", value: index }])).stackReader.readAddress();
      nft = raw(itemAddr);
      this.meta.nftNames[nft] = name;
    }
    let mint: { id: number; amount: bigint } | undefined;
    if (req.extraCurrency) {
      const { id, amount } = req.extraCurrency;
      if (!Number.isInteger(id) || id <= 0 || id > 0xffffffff) throw new ApiError(400, "extraCurrency.id must be an integer from 1 to 2^32-1");
      if (amount <= 0n) throw new ApiError(400, "extraCurrency.amount must be positive");
      // Minted onto the faucet when the block runs this message, then carried by a plain message
      // (no TON value: an extra-currency transfer on its own, like a wallet sends one).
      mint = { id, amount };
      msgs.push(internal({ to, value: 0n, bounce: false, extracurrency: { [id]: amount } }));
    }
    if (msgs.length === 0) throw new ApiError(400, "nothing to fund: give ton, jetton, nft or extraCurrency");
    const cell = this.faucetTransfer(msgs);
    const hash = await this.enqueueInternal(cell, mint);
    return { message_hash: hash, ...(nft ? { nft } : {}) };
  }

  registerDns(name: string, address: string): void {
    this.meta.dns[name.toLowerCase()] = this.parseRaw(address);
    this.dirty = true;
  }

  // ---------------------------------------------------------------- addresses and account info

  parseRaw(id: string): string {
    return raw(this.parseAccount(id));
  }

  parseAccount(id: string): Address {
    const s = decodeURIComponent(id).trim();
    const dns = this.meta.dns[s.toLowerCase()];
    if (dns) return Address.parse(dns);
    try {
      return Address.parse(s);
    } catch {
      throw new ApiError(400, `can't decode address ${s}`);
    }
  }

  friendly(a: string, opts: { bounceable?: boolean } = {}): string {
    return Address.parse(a).toString({ urlSafe: true, bounceable: opts.bounceable ?? true, testOnly: this.meta.globalId === -3 });
  }

  async info(account: string, bc: Blockchain = this.bc): Promise<AccountInfo> {
    const address = Address.parse(account);
    const c = await bc.getContract(address);
    const st = c.accountState;
    // the sandbox materialises unknown accounts as empty uninit ones: never touched means nonexist
    const untouched = c.balance === 0n && c.account.lastTransactionLt === 0n;
    const status: AccountStatus = !st || (st.type === "uninit" && untouched) ? "nonexist" : st.type === "active" ? "active" : st.type === "frozen" ? "frozen" : "uninit";
    const name = this.meta.names[account] ?? this.meta.nftNames[account];
    const base = { address: account, status, isScam: this.meta.scam.includes(account), ...(name ? { name } : {}) };
    if (!st || st.type !== "active" || !st.state.code) return { ...base, isWallet: false, interfaces: [] };
    const codeHash = st.state.code.hash().toString("hex");
    const walletIface = WALLET_INTERFACES[codeHash];
    if (walletIface) return { ...base, isWallet: true, interfaces: [walletIface] };
    if (codeHash === CODE.jettonMinter) return { ...base, isWallet: false, interfaces: ["jetton_master"], jettonMaster: this.jettonPreview(account) };
    if (codeHash === CODE.nftCollection) return { ...base, isWallet: false, interfaces: ["nft_collection"], nftCollection: true };
    const cached = this.staticInfo.get(account);
    if (codeHash === CODE.jettonWallet) {
      let jw = cached?.jettonWallet;
      if (!jw) {
        const r = (await bc.runGetMethod(address, "get_wallet_data")).stackReader;
        r.readBigNumber();
        const owner = raw(r.readAddress());
        const master = raw(r.readAddress());
        jw = { owner, master };
        this.staticInfo.set(account, { jettonWallet: jw });
      }
      return { ...base, isWallet: false, interfaces: ["jetton_wallet"], jettonWallet: jw };
    }
    if (codeHash === CODE.nftItem) {
      let item = cached?.nftItem;
      if (!item) {
        const r = (await bc.runGetMethod(address, "get_nft_data")).stackReader;
        r.readBoolean();
        const index = r.readBigNumber();
        const col = r.readAddressOpt();
        item = { index, ...(col ? { collection: raw(col) } : {}) };
        this.staticInfo.set(account, { nftItem: item });
      }
      return { ...base, isWallet: false, interfaces: ["nft_item"], nftItem: item };
    }
    return { ...base, isWallet: false, interfaces: [] };
  }

  jettonPreview(master: string): JettonPreviewJson {
    const j = this.meta.jettons[master];
    if (!j) return { address: master, name: "Unknown jetton", symbol: "UKWN", decimals: 9, image: "https://devnet.local/jettons/unknown.png", verification: "none", score: 0 };
    return { address: master, name: j.name, symbol: j.symbol, decimals: j.decimals, image: j.image, verification: j.verification, score: j.verification === "whitelist" ? 100 : j.verification === "blacklist" ? -100 : 0, description: j.description };
  }

  private walletCache = new Map<string, boolean>();
  accountAddress = (a: string): AccountAddressJson => {
    const name = this.meta.names[a] ?? this.meta.nftNames[a];
    return { address: a, is_scam: this.meta.scam.includes(a), is_wallet: this.walletCache.get(a) ?? false, ...(name ? { name } : {}) };
  };

  // ---------------------------------------------------------------- running messages

  private async execute(bc: Blockchain, cell: Cell, params: { now: number; ignoreChksig?: boolean }): Promise<Array<{ tx: BlockchainTransaction; endBalance: bigint }>> {
    const msg = loadMessage(cell.beginParse());
    const out: Array<{ tx: BlockchainTransaction; endBalance: bigint }> = [];
    const iter = await bc.sendMessageIter(msg, { now: params.now, ...(params.ignoreChksig ? { ignoreChksig: true } : {}) });
    for await (const tx of iter) {
      const c = await bc.getContract(addrFromTx(tx));
      out.push({ tx, endBalance: c.balance });
    }
    return out;
  }

  private async buildRecord(bc: Blockchain, list: Array<{ tx: BlockchainTransaction; endBalance: bigint }>, extHash: string, block: string, inProgress: boolean, emulated = false): Promise<{ record: TraceRecord; root: TxNode }> {
    const nodes = new Map<BlockchainTransaction, TxNode>();
    const addrJson = (a: string) => this.accountAddress(a);
    for (const { tx, endBalance } of list) {
      const address = addrFromTx(tx);
      const account = raw(address);
      const inMsg = tx.inMessage ?? undefined;
      const inInfo = inMsg?.info;
      const inValue = inInfo?.type === "internal" ? inInfo.value.coins : 0n;
      const inExtra = inInfo?.type === "internal" ? extraCurrencies(inInfo.value.other) : [];
      const outs = [...tx.outMessages.values()];
      let outTotal = 0n;
      for (const m of outs) if (m.info.type === "internal") outTotal += m.info.value.coins + m.info.forwardFee;
      const d = tx.description;
      const generic = d.type === "generic" ? d : undefined;
      const cp = generic?.computePhase;
      const success = !!cp && cp.type === "vm" && cp.success && !(generic?.aborted ?? false);
      const body = inMsg?.body;
      const op = opOf(body);
      const node: TxNode = {
        hash: tx.hash().toString("hex"),
        lt: tx.lt,
        utime: tx.now,
        account,
        address,
        ...(inMsg ? { inMsg } : {}),
        ...(body ? { inBody: body } : {}),
        ...(op !== undefined ? { op } : {}),
        inValue,
        ...(inExtra.length ? { inExtra } : {}),
        ...(inInfo?.type === "internal" ? { source: raw(inInfo.src) } : {}),
        bounced: inInfo?.type === "internal" ? inInfo.bounced : false,
        success,
        aborted: generic?.aborted ?? false,
        origStatus: statusOf(tx.oldStatus),
        endStatus: statusOf(tx.endStatus),
        endBalance,
        fees: tx.totalFees.coins,
        delta: inValue - tx.totalFees.coins - outTotal,
        outMsgs: outs,
        children: [],
        json: { hash: "", lt: 0 }, // rendered once account info is known, below
      };
      nodes.set(tx, node);
    }
    let root: TxNode | undefined;
    for (const [tx, node] of nodes) {
      const parent = tx.parent ? nodes.get(tx.parent) : undefined;
      if (parent) {
        parent.children.push(node);
        node.parent = parent;
      } else if (!root) root = node;
    }
    if (!root) throw new ApiError(500, "empty trace");
    // account info for every account in the trace and for addresses named in bodies
    const infos = new Map<string, AccountInfo>();
    const resolve = async (a: string) => {
      if (a && !infos.has(a)) {
        const i = await this.info(a, bc);
        infos.set(a, i);
        this.walletCache.set(a, i.isWallet);
      }
    };
    for (const n of nodes.values()) {
      await resolve(n.account);
      if (n.source) await resolve(n.source);
    }
    const mentioned = new Set<string>();
    const probeCtx: ClassifyContext = {
      info: (a) => infos.get(a) ?? { address: a, status: "nonexist", isWallet: false, interfaces: [], isScam: false },
      jetton: (m) => this.jettonPreview(m),
      extraCurrency: (id) => extraCurrencyPreview(id),
      accountAddress: (a) => {
        mentioned.add(a);
        return this.accountAddress(a);
      },
    };
    classifyTrace(root, probeCtx);
    for (const a of mentioned) await resolve(a);
    // render transactions now that wallet flags are known
    for (const [tx, node] of nodes) Object.assign(node.json, renderTransaction(tx, node.account, node.endBalance, block, addrJson));
    const { actions } = classifyTrace(root, { ...probeCtx, accountAddress: addrJson });
    const record = this.makeRecord(root, [...nodes.values()], actions, infos, extHash, inProgress, emulated);
    return { record, root };
  }

  private makeRecord(root: TxNode, nodes: TxNode[], actions: ClassifiedAction[], infos: Map<string, AccountInfo>, extHash: string, inProgress: boolean, emulated: boolean): TraceRecord {
    const traceId = root.hash;
    const isScam = actions.some((a) => {
      const j = (a.json[a.json.type] as { jetton?: JettonPreviewJson } | undefined)?.jetton;
      return j?.verification === "blacklist";
    });
    const renderTrace = (n: TxNode): Record<string, unknown> => ({
      transaction: n.json,
      interfaces: [...(infos.get(n.account)?.interfaces ?? [])],
      ...(n.children.length ? { children: n.children.map(renderTrace) } : {}),
      emulated,
    });
    const accounts = new Set<string>();
    for (const n of nodes) accounts.add(n.account);
    for (const a of actions) for (const x of a.involved) if (x) accounts.add(x);
    const accountEvents: StoredAccountEvent[] = [];
    for (const acc of accounts) {
      const mine = actions.filter((a) => a.involved.has(acc));
      if (mine.length === 0) continue;
      const accTxs = nodes.filter((n) => n.account === acc);
      const lt = Number(accTxs.length ? accTxs.reduce((m, n) => (n.lt < m ? n.lt : m), accTxs[0]!.lt) : root.lt);
      const delta = accTxs.reduce((s, n) => s + n.delta, 0n);
      const explicit = mine.reduce((s, a) => s + (a.ton.get(acc) ?? 0n), 0n);
      const event: AccountEventJson = {
        event_id: traceId,
        account: this.accountAddress(acc),
        timestamp: root.utime,
        actions: mine.map((a) => a.json),
        is_scam: isScam,
        lt,
        in_progress: inProgress,
        extra: Number(delta - explicit),
        progress: inProgress ? 0 : 1,
        ...(extHash ? { ext_msg_hash: extHash } : {}),
      };
      accountEvents.push({ account: acc, lt, event, subject: mine.map((a) => a.subjects.has(acc)), initiator: acc === root.account });
    }
    const flows = new Map<string, { gram: bigint; fees: bigint; jettons: Map<string, bigint> }>();
    const flow = (a: string) => {
      let f = flows.get(a);
      if (!f) flows.set(a, (f = { gram: 0n, fees: 0n, jettons: new Map() }));
      return f;
    };
    for (const n of nodes) {
      const f = flow(n.account);
      f.gram += n.delta + n.fees;
      f.fees += n.fees;
    }
    for (const a of actions) for (const j of a.jettons) flow(j.owner).jettons.set(j.master, (flow(j.owner).jettons.get(j.master) ?? 0n) + j.amount);
    const event = {
      event_id: traceId,
      timestamp: root.utime,
      actions: actions.map((a) => a.json),
      value_flow: [...flows].map(([a, f]) => ({
        account: this.accountAddress(a),
        gram: Number(f.gram),
        ton: Number(f.gram),
        fees: Number(f.fees),
        ...(f.jettons.size
          ? { jettons: [...f.jettons].map(([m, q]) => ({ account: this.accountAddress(a), jetton: this.jettonPreview(m), qty: q.toString(), quantity: Number(q) })) }
          : {}),
      })),
      is_scam: isScam,
      lt: Number(root.lt),
      in_progress: inProgress,
      progress: inProgress ? 0 : 1,
      ...(extHash ? { ext_msg_hash: extHash } : {}),
    };
    const jettonOps: JettonOpRecord[] = [];
    for (const a of actions) {
      const t = a.json.type;
      if (t !== "JettonTransfer" && t !== "JettonMint" && t !== "JettonBurn") continue;
      if (a.json.status !== "ok") continue;
      const body = a.json[t] as { sender?: AccountAddressJson; recipient?: AccountAddressJson; amount: string; jetton: JettonPreviewJson };
      const baseTx = (a.json.base_transactions as string[])[0] ?? traceId;
      const baseNode = nodes.find((n) => n.hash === baseTx);
      const json = {
        operation: t === "JettonTransfer" ? "transfer" : t === "JettonMint" ? "mint" : "burn",
        utime: root.utime,
        lt: Number(baseNode?.lt ?? root.lt),
        transaction_hash: baseTx,
        ...(body.sender ? { source: body.sender } : {}),
        ...(body.recipient ? { destination: body.recipient } : {}),
        amount: body.amount,
        jetton: body.jetton,
        trace_id: traceId,
        query_id: "0",
      };
      for (const owner of new Set([body.sender?.address, body.recipient?.address])) {
        if (owner) jettonOps.push({ owner, master: body.jetton.address, json, lt: json.lt });
      }
    }
    return { traceId, lt: Number(root.lt), utime: root.utime, extHash, trace: renderTrace(root), event, accountEvents, jettonOps, txHashes: nodes.map((n) => n.hash) };
  }

  private index(record: TraceRecord): void {
    this.traces.set(record.traceId, record);
    for (const h of record.txHashes) this.txToTrace.set(h, record.traceId);
    if (record.extHash) this.extToTrace.set(record.extHash, record.traceId);
    for (const e of record.accountEvents) {
      let list = this.eventsByAccount.get(e.account);
      if (!list) this.eventsByAccount.set(e.account, (list = []));
      list.push(e);
      if (list.length > 1 && list[list.length - 2]!.lt > e.lt) list.sort((a, b) => a.lt - b.lt);
      this.lastActivity.set(e.account, Math.max(this.lastActivity.get(e.account) ?? 0, record.utime));
    }
    for (const op of record.jettonOps) {
      let list = this.jettonOps.get(op.owner);
      if (!list) this.jettonOps.set(op.owner, (list = []));
      list.push(op);
    }
  }

  // ---------------------------------------------------------------- mempool and blocks

  private async enqueueInternal(cell: Cell, mint?: { id: number; amount: bigint }): Promise<string> {
    const message = loadMessage(cell.beginParse());
    const extHash = messageHash(message);
    this.mempool.push({ cell, message, extHash, ...(mint ? { mint } : {}) });
    return extHash;
  }

  /** POST /v2/blockchain/message: validates, rejects duplicates within a minute and what the contract would not accept. */
  async submit(boc: Cell): Promise<string> {
    const key = boc.hash().toString("hex");
    const now = Date.now();
    for (const [k, exp] of this.seenBocs) if (exp < now) this.seenBocs.delete(k);
    if (this.seenBocs.has(key)) throw new ApiError(400, "duplicate message: this boc was already sent within the last minute");
    let message: Message;
    try {
      message = loadMessage(boc.beginParse());
    } catch {
      throw new ApiError(400, "invalid message boc");
    }
    if (message.info.type !== "external-in") throw new ApiError(400, "only external inbound messages can be sent");
    this.seenBocs.set(key, now + 60_000);
    const extHash = messageHash(message);
    const emulated = await this.emulate(boc, {}).catch((e: unknown) => {
      this.seenBocs.delete(key);
      throw e;
    });
    this.provisional.set(extHash, emulated.record.accountEvents.map((e) => ({ ...e, event: { ...e.event, in_progress: true, progress: 0 } })));
    this.mempool.push({ cell: boc, message, extHash });
    return extHash;
  }

  /** Emulates a message on a copy of the current state; nothing is committed. */
  emulate(cell: Cell, opts: { ignoreChksig?: boolean; balanceOverride?: ReadonlyArray<{ address: string; balance: bigint }> }): Promise<EmulationResult> {
    return this.lock.run(async () => {
      this.emuStorage.clearKnownContracts();
      (this.emu as unknown as { currentLt: bigint }).currentLt = this.bc.lt;
      for (const o of opts.balanceOverride ?? []) {
        const c = await this.emu.getContract(Address.parse(o.address));
        c.balance = o.balance;
      }
      const now = Math.max(nowSec(), this.blockTime);
      let list: Array<{ tx: BlockchainTransaction; endBalance: bigint }>;
      try {
        list = await this.execute(this.emu, cell, { now, ...(opts.ignoreChksig ? { ignoreChksig: true } : {}) });
      } catch (e) {
        if (e instanceof EmulationError) {
          throw new ApiError(400, `external message was not accepted by the contract: exit code ${e.exitCode ?? "unknown"}`, e.exitCode);
        }
        throw e;
      }
      const msg = loadMessage(cell.beginParse());
      const { record, root } = await this.buildRecord(this.emu, list, messageHash(msg), `(0,8000000000000000,${this.meta.blockSeqno + 1})`, false, true);
      const rootTx = list[0]?.tx;
      const outActions = (rootTx?.outActions ?? []).flatMap((a) => (a.type === "sendMsg" ? [{ mode: a.mode, message: a.outMsg as unknown as Message }] : []));
      return { root, record, rootAccount: root.account, outActions };
    });
  }

  /** Produces one block: executes every pending message and indexes the traces. */
  stepBlock(): Promise<void> {
    return this.lock.run(async () => {
      const batch = this.mempool;
      this.mempool = [];
      this.meta.blockSeqno += 1;
      this.blockTime = Math.max(nowSec(), this.blockTime);
      this.bc.now = this.blockTime;
      const block = `(0,8000000000000000,${this.meta.blockSeqno})`;
      for (const p of batch) {
        this.provisional.delete(p.extHash);
        if (p.mint) {
          const faucet = await this.bc.getContract(Address.parse(this.meta.faucet));
          const held = faucet.ec;
          faucet.ec = { ...held, [p.mint.id]: (held[p.mint.id] ?? 0n) + p.mint.amount };
        }
        let list: Array<{ tx: BlockchainTransaction; endBalance: bigint }>;
        try {
          list = await this.execute(this.bc, p.cell, { now: this.blockTime });
        } catch (e) {
          if (e instanceof EmulationError) continue; // rejected at block time (e.g. seqno already used)
          throw e;
        }
        this.processed.messages += 1;
        const { record } = await this.buildRecord(this.bc, list, p.extHash, block, false);
        this.index(record);
        this.processed.traces += 1;
        this.appendTrace(record);
      }
      // the sandbox keeps its own transaction list; the index above replaces it
      (this.bc as unknown as { transactions: unknown[] }).transactions = [];
      if (batch.length > 0) this.dirty = true;
      this.persistMaybe(false);
    });
  }

  get pendingCount(): number {
    return this.mempool.length;
  }

  // ---------------------------------------------------------------- persistence

  private tracesFile(): string | undefined {
    return this.dataDir ? path.join(this.dataDir, "traces.jsonl") : undefined;
  }

  private appendTrace(record: TraceRecord): void {
    const f = this.tracesFile();
    if (f) fs.appendFileSync(f, `${JSON.stringify(record)}\n`);
  }

  private loadTraces(): void {
    const f = this.tracesFile();
    if (!f || !fs.existsSync(f)) return;
    for (const line of fs.readFileSync(f, "utf8").split("\n")) {
      if (!line.trim()) continue;
      const rec = JSON.parse(line) as TraceRecord;
      this.index(rec);
      for (const e of rec.accountEvents) this.walletCache.set(e.account, e.event.account.is_wallet);
    }
  }

  persistMaybe(force: boolean): void {
    if (!this.dataDir || (!this.dirty && !force)) return;
    if (!force && Date.now() - this.lastPersist < 1000) return;
    const snap = this.bc.snapshot();
    const ser = snapshotToSerializable({ ...snap, transactions: [] });
    const tmp = (n: string) => path.join(this.dataDir!, `${n}.tmp`);
    fs.writeFileSync(tmp("chain.json"), JSON.stringify(ser));
    fs.renameSync(tmp("chain.json"), path.join(this.dataDir, "chain.json"));
    fs.writeFileSync(tmp("meta.json"), JSON.stringify(this.meta, null, 1));
    fs.renameSync(tmp("meta.json"), path.join(this.dataDir, "meta.json"));
    this.lastPersist = Date.now();
    this.dirty = false;
  }

  flush(): Promise<void> {
    return this.lock.run(async () => this.persistMaybe(true));
  }

  // ---------------------------------------------------------------- queries

  async account(id: string) {
    const a = this.parseRaw(id);
    const info = await this.info(a);
    const c = await this.bc.getContract(Address.parse(a));
    const extra = extraCurrencies(c.account.account?.storage.balance.other);
    return {
      address: a,
      balance: Number(c.balance),
      ...(extra.length ? { extra_balance: extra.map(([currency, amount]) => ({ amount: amount.toString(), preview: extraCurrencyPreview(currency) })) } : {}),
      last_activity: this.lastActivity.get(a) ?? 0,
      status: info.status,
      interfaces: [...info.interfaces],
      ...(info.name ? { name: info.name } : {}),
      is_scam: info.isScam,
      get_methods: info.isWallet ? ["seqno", "get_public_key"] : info.jettonWallet ? ["get_wallet_data"] : info.jettonMaster ? ["get_jetton_data", "get_wallet_address"] : info.nftItem ? ["get_nft_data"] : [],
      is_wallet: info.isWallet,
    };
  }

  async rawAccount(id: string) {
    const a = this.parseRaw(id);
    const c = await this.bc.getContract(Address.parse(a));
    const info = await this.info(a);
    const st = c.accountState;
    const storage = c.account.account?.storageStats;
    const last = c.account.lastTransactionLt;
    return {
      address: a,
      balance: Number(c.balance),
      ...(st?.type === "active" && st.state.code ? { code: st.state.code.toBoc().toString("hex") } : {}),
      ...(st?.type === "active" && st.state.data ? { data: st.state.data.toBoc().toString("hex") } : {}),
      last_transaction_lt: Number(last),
      last_transaction_hash: c.account.lastTransactionHash.toString(16).padStart(64, "0"),
      status: info.status,
      storage: {
        used_cells: Number(storage?.used.cells ?? 0n),
        used_bits: Number(storage?.used.bits ?? 0n),
        used_public_cells: 0,
        last_paid: storage?.lastPaid ?? 0,
        due_payment: Number(storage?.duePayment ?? 0n),
      },
    };
  }

  async seqno(id: string): Promise<number> {
    const a = this.parseAccount(id);
    const c = await this.bc.getContract(a);
    if (c.accountState?.type !== "active") return 0;
    try {
      return (await this.bc.runGetMethod(a, "seqno")).stackReader.readNumber();
    } catch {
      return 0;
    }
  }

  async runGet(id: string, method: string, args: TupleItem[]) {
    const a = this.parseAccount(id);
    return this.bc.runGetMethod(a, method, args);
  }

  async jettonWalletAddress(master: string, owner: string): Promise<string> {
    const r = await this.bc.runGetMethod(Address.parse(master), "get_wallet_address", [{ type: "slice", cell: beginCell().storeAddress(Address.parse(owner)).endCell() }]);
    return raw(r.stackReader.readAddress());
  }

  async jettonBalance(master: string, owner: string): Promise<{ wallet: string; balance: bigint } | undefined> {
    const wallet = await this.jettonWalletAddress(master, owner);
    const c = await this.bc.getContract(Address.parse(wallet));
    if (c.accountState?.type !== "active") return undefined;
    const r = (await this.bc.runGetMethod(Address.parse(wallet), "get_wallet_data")).stackReader;
    return { wallet, balance: r.readBigNumber() };
  }

  jettonMasters(): string[] {
    return Object.keys(this.meta.jettons);
  }

  async jettonData(master: string) {
    const r = (await this.bc.runGetMethod(Address.parse(master), "get_jetton_data")).stackReader;
    const totalSupply = r.readBigNumber();
    const mintable = r.readBoolean();
    const admin = r.readAddressOpt();
    return { totalSupply, mintable, admin: admin ? raw(admin) : undefined };
  }

  holdersCount(master: string): number {
    const owners = new Set<string>();
    for (const [owner, ops] of this.jettonOps) if (ops.some((o) => o.master === master)) owners.add(owner);
    return owners.size;
  }

  async nftItems(): Promise<Array<{ address: string; index: bigint; owner?: string; collection?: string }>> {
    const out: Array<{ address: string; index: bigint; owner?: string; collection?: string }> = [];
    for (const address of Object.keys(this.meta.nftNames)) {
      const item = await this.nftItem(address);
      if (item) out.push(item);
    }
    return out;
  }

  async nftItem(address: string): Promise<{ address: string; index: bigint; owner?: string; collection?: string } | undefined> {
    const a = Address.parse(address);
    const c = await this.bc.getContract(a);
    if (c.accountState?.type !== "active") return undefined;
    try {
      const r = (await this.bc.runGetMethod(a, "get_nft_data")).stackReader;
      r.readBoolean();
      const index = r.readBigNumber();
      const col = r.readAddressOpt();
      const owner = r.readAddressOpt();
      return { address: raw(a), index, ...(owner ? { owner: raw(owner) } : {}), ...(col ? { collection: raw(col) } : {}) };
    } catch {
      return undefined;
    }
  }

  listEvents(account: string, opts: { beforeLt?: number; afterLt?: number; limit: number; subjectOnly: boolean; initiator?: boolean; asc?: boolean; startDate?: number; endDate?: number }): { events: AccountEventJson[]; next_from: number } {
    const all = this.eventsByAccount.get(account) ?? [];
    const out: AccountEventJson[] = [];
    const provisional = opts.beforeLt === undefined && !opts.asc ? [...this.provisional.values()].flat().filter((e) => e.account === account) : [];
    const filterEvent = (e: StoredAccountEvent): AccountEventJson | undefined => {
      if (opts.initiator && !e.initiator) return undefined;
      if (opts.startDate !== undefined && e.event.timestamp < opts.startDate) return undefined;
      if (opts.endDate !== undefined && e.event.timestamp > opts.endDate) return undefined;
      if (!opts.subjectOnly) return e.event;
      const actions = e.event.actions.filter((_, i) => e.subject[i]);
      return actions.length ? { ...e.event, actions } : undefined;
    };
    for (const e of provisional) {
      const ev = filterEvent(e);
      if (ev && out.length < opts.limit) out.push(ev);
    }
    // binary search the first index with lt >= beforeLt
    let hi = all.length;
    if (opts.beforeLt !== undefined) {
      let lo = 0;
      hi = all.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (all[mid]!.lt < opts.beforeLt) lo = mid + 1;
        else hi = mid;
      }
    }
    let last: StoredAccountEvent | undefined;
    if (opts.asc) {
      for (let i = 0; i < hi && out.length < opts.limit; i++) {
        const e = all[i]!;
        if (opts.afterLt !== undefined && e.lt <= opts.afterLt) continue;
        const ev = filterEvent(e);
        if (ev) {
          out.push(ev);
          last = e;
        }
      }
    } else {
      for (let i = hi - 1; i >= 0 && out.length < opts.limit; i--) {
        const e = all[i]!;
        if (opts.afterLt !== undefined && e.lt <= opts.afterLt) break;
        const ev = filterEvent(e);
        if (ev) {
          out.push(ev);
          last = e;
        }
      }
    }
    return { events: out, next_from: out.length < opts.limit || !last ? 0 : last.lt };
  }

  accountEvent(account: string, eventId: string, subjectOnly: boolean): AccountEventJson | undefined {
    const id = this.normalizeId(eventId);
    for (const list of this.provisional.values()) {
      const p = list.find((e) => e.account === account && e.event.event_id === id);
      if (p) return p.event;
    }
    const traceId = this.txToTrace.get(id) ?? this.extToTrace.get(id) ?? id;
    const rec = this.traces.get(traceId);
    const e = rec?.accountEvents.find((x) => x.account === account);
    if (!e) return undefined;
    return subjectOnly ? { ...e.event, actions: e.event.actions.filter((_, i) => e.subject[i]) } : e.event;
  }

  normalizeId(id: string): string {
    const s = id.trim();
    if (/^[0-9a-fA-F]{64}$/.test(s)) return s.toLowerCase();
    try {
      const b = Buffer.from(s, "base64url");
      if (b.length === 32) return b.toString("hex");
    } catch {
      // fall through
    }
    return s.toLowerCase();
  }

  trace(id: string): TraceRecord | undefined {
    const h = this.normalizeId(id);
    const traceId = this.txToTrace.get(h) ?? this.extToTrace.get(h) ?? h;
    return this.traces.get(traceId);
  }

  jettonHistory(account: string, opts: { master?: string; beforeLt?: number; limit: number; startDate?: number; endDate?: number }) {
    const all = (this.jettonOps.get(account) ?? []).filter(
      (o) =>
        (!opts.master || o.master === opts.master) &&
        (opts.beforeLt === undefined || o.lt < opts.beforeLt) &&
        (opts.startDate === undefined || (o.json.utime as number) >= opts.startDate) &&
        (opts.endDate === undefined || (o.json.utime as number) <= opts.endDate),
    );
    const page = all.slice(-opts.limit).toReversed();
    return { operations: page.map((o) => o.json), ...(page.length === opts.limit ? { next_from: page[page.length - 1]!.lt } : {}) };
  }

  // ---------------------------------------------------------------- gasless relay

  relayAddress(): string {
    return this.meta.relay;
  }

  /** Relays a signed W5 internal-auth body: the relay wallet carries it to the user's wallet with TON for gas. */
  async gaslessSend(boc: Cell, value: bigint): Promise<string> {
    const msg = loadMessage(boc.beginParse());
    if (msg.info.type !== "external-in") throw new ApiError(400, "expected an external message to a wallet");
    const body = msg.body;
    if (opOf(body) !== OP.w5SignedInternal) throw new ApiError(400, "gasless needs a W5 message signed for internal delivery (op 0x73696e74)");
    const relay = this.relayWallet();
    const seqno = await this.seqno(this.meta.relay);
    const transfer = relay.createTransfer({
      seqno,
      secretKey: this.relayKey.secretKey,
      sendMode: SendMode.PAY_GAS_SEPARATELY,
      messages: [internal({ to: msg.info.dest, value, bounce: true, body })],
    });
    const ext = beginCell()
      .store(storeMessage(external({ to: relay.address, body: transfer })))
      .endCell();
    await this.submit(ext);
    return messageHash(msg);
  }

  rates(tokens: string[], currencies: string[]) {
    const out: Record<string, unknown> = {};
    for (const t of tokens) {
      const key = t.trim();
      let usd: number | undefined;
      if (key.toLowerCase() === "ton" || key.toLowerCase() === "gram") usd = TON_PRICE_USD;
      else {
        try {
          usd = this.meta.jettons[this.parseRaw(key)]?.priceUsd;
        } catch {
          usd = undefined;
        }
      }
      if (usd === undefined) continue;
      const prices: Record<string, number> = {};
      const diff: Record<string, string> = {};
      for (const c of currencies) {
        const cur = c.trim().toLowerCase();
        const val = cur === "ton" || cur === "gram" ? usd / TON_PRICE_USD : USD_RATES[cur] !== undefined ? usd * USD_RATES[cur]! : undefined;
        if (val === undefined) continue;
        prices[cur.toUpperCase()] = val;
        diff[cur.toUpperCase()] = "+0.00%";
      }
      out[key] = { prices, diff_24h: diff, diff_7d: diff, diff_30d: diff };
    }
    return out;
  }

  priceUsd(token: string): number | undefined {
    const k = token.toLowerCase();
    if (k === "ton" || k === "gram") return TON_PRICE_USD;
    try {
      return this.meta.jettons[this.parseRaw(token)]?.priceUsd;
    } catch {
      return undefined;
    }
  }

  fiatRate(currency: string): number | undefined {
    return USD_RATES[currency.toLowerCase()];
  }

  async close(): Promise<void> {
    await this.flush();
  }
}

export const isWalletCodeHash = (hash: string): boolean => WALLET_INTERFACES[hash] !== undefined;
export { CODE as CODE_HASHES };
