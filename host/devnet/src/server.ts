// HTTP layer: the tonapi v2 subset plus the devnet faucet, on node:http.
import http from "node:http";
import { Address, beginCell, type Cell, loadMessage, loadMessageRelaxed, loadOutList, storeStateInit, type TupleItem, toNano } from "@ton/core";
import { type Devnet, TON_PRICE_USD } from "./devnet.ts";
import type { AccountEventJson } from "./model.ts";
import { isSimNetwork, SIM_ASSETS, SIM_FAUCETS, type SimNetwork, type SimNetworks, simTransferJson } from "./sim.ts";
import { ApiError, cellHex, parseBoc, raw, tryParseAddress } from "./util.ts";

type Query = URLSearchParams;

/** First rate of the devnet's chart (2019-11-15, TON's mainnet launch). */
const CHART_LISTED_AT = 1_573_776_000;
/** TON's synthetic price moves: a ±3 % swing over about 3 days and a ±15 % one over about a year. */
const CHART_WAVES: ReadonlyArray<{ amplitude: number; period: number }> = [
  { amplitude: 0.03, period: 43_200 },
  { amplitude: 0.15, period: 86_400 * 60 },
];
/**
 * The price factor averaged over a point's interval [a, b] (each point is the mean rate of its step,
 * so a year's chart shows the slow wave instead of aliasing the fast one): mean of sin(t/p) over
 * [a, b] is p (cos(a/p) - cos(b/p)) / (b - a).
 */
const chartWobble = (a: number, b: number, now: number): number =>
  // Anchored so the factor is 1 at `now`: the chart ends at the price /v2/rates answers.
  1 + CHART_WAVES.reduce((sum, w) => sum + w.amplitude * ((b > a ? (w.period * (Math.cos(a / w.period) - Math.cos(b / w.period))) / (b - a) : Math.sin(b / w.period)) - Math.sin(now / w.period)), 0);
interface Ctx {
  readonly params: Record<string, string>;
  readonly query: Query;
  readonly body: unknown;
}
type Handler = (ctx: Ctx) => Promise<unknown>;
interface Route {
  readonly method: string;
  readonly pattern: RegExp;
  readonly keys: string[];
  readonly handler: Handler;
}

const compile = (p: string): { pattern: RegExp; keys: string[] } => {
  const keys: string[] = [];
  const re = p.replace(/\{(\w+)\}/g, (_m, k: string) => {
    keys.push(k);
    return "([^/]+)";
  });
  return { pattern: new RegExp(`^${re}$`), keys };
};

const int = (q: Query, name: string, opts: { required?: boolean; min?: number; max?: number } = {}): number | undefined => {
  const v = q.get(name);
  if (v === null || v === "") {
    if (opts.required) throw new ApiError(400, `${name} is required`);
    return undefined;
  }
  const n = Number(v);
  if (!Number.isInteger(n)) throw new ApiError(400, `${name} must be an integer`);
  if (opts.min !== undefined && n < opts.min) throw new ApiError(400, `${name} must be >= ${opts.min}`);
  if (opts.max !== undefined && n > opts.max) throw new ApiError(400, `${name} must be <= ${opts.max}`);
  return n;
};
const bool = (q: Query, name: string): boolean => q.get(name) === "true" || q.get(name) === "1";
const list = (q: Query, name: string): string[] =>
  q
    .getAll(name)
    .flatMap((v) => v.split(","))
    .map((s) => s.trim())
    .filter(Boolean);

const bodyObj = (b: unknown): Record<string, unknown> => {
  if (!b || typeof b !== "object" || Array.isArray(b)) throw new ApiError(400, "expected a JSON object body");
  return b as Record<string, unknown>;
};
const bodyString = (b: Record<string, unknown>, k: string): string => {
  const v = b[k];
  if (typeof v !== "string" || !v) throw new ApiError(400, `${k} is required`);
  return v;
};
const boc = (s: string): Cell => {
  try {
    return parseBoc(s);
  } catch {
    throw new ApiError(400, "can't decode boc");
  }
};

/** Parses a get-method argument in tonapi's string format. */
const parseArg = (s: string): TupleItem => {
  if (s === "NaN") return { type: "nan" };
  if (s === "Null") return { type: "null" };
  if (/^-?\d+$/.test(s)) return { type: "int", value: BigInt(s) };
  if (/^0x[0-9a-fA-F]+$/.test(s)) return { type: "int", value: BigInt(s) };
  const a = tryParseAddress(s);
  if (a) return { type: "slice", cell: beginCell().storeAddress(a).endCell() };
  if (/^[0-9a-fA-F]+$/.test(s)) return { type: "slice", cell: parseBoc(s) };
  return { type: "cell", cell: parseBoc(s) };
};
const parseTypedArg = (a: { type: string; value: string }): TupleItem => {
  switch (a.type) {
    case "nan":
      return { type: "nan" };
    case "null":
      return { type: "null" };
    case "tinyint":
    case "int257":
      return { type: "int", value: BigInt(a.value) };
    case "slice":
      return { type: "slice", cell: beginCell().storeAddress(Address.parse(a.value)).endCell() };
    case "cell_boc_base64":
      return { type: "cell", cell: parseBoc(a.value) };
    case "slice_boc_hex":
      return { type: "slice", cell: parseBoc(a.value) };
    default:
      throw new ApiError(400, `unknown argument type ${a.type}`);
  }
};
const stackRecord = (t: TupleItem): Record<string, unknown> => {
  switch (t.type) {
    case "int":
      return { type: "num", num: `${t.value < 0n ? "-" : ""}0x${(t.value < 0n ? -t.value : t.value).toString(16)}` };
    case "nan":
      return { type: "nan" };
    case "null":
      return { type: "null" };
    case "tuple":
      return { type: "tuple", tuple: t.items.map(stackRecord) };
    default:
      return { type: "cell", cell: cellHex(t.cell) };
  }
};

const simNetwork = (s: string): SimNetwork => {
  if (!isSimNetwork(s)) throw new ApiError(404, `no simulated network ${s}`);
  return s;
};
const positiveAmount = (v: unknown, name: string): bigint | undefined => {
  if (v === undefined || v === null) return undefined;
  if ((typeof v !== "string" && typeof v !== "number") || !/^[0-9]+$/.test(String(v))) throw new ApiError(400, `${name} must be a non-negative integer`);
  return BigInt(String(v));
};

export const createServer = (devnet: Devnet, sim?: SimNetworks): http.Server => {
  const routes: Route[] = [];
  const on = (method: string, p: string, handler: Handler) => routes.push({ method, ...compile(p), handler });

  const jettonBalanceJson = async (owner: string, master: string, currencies: string[]) => {
    const bal = await devnet.jettonBalance(master, owner);
    const wallet = bal?.wallet ?? (await devnet.jettonWalletAddress(master, owner));
    const usd = devnet.priceUsd(master);
    const prices: Record<string, number> = {};
    for (const c of currencies.length ? currencies : ["usd"]) {
      const cur = c.toLowerCase();
      if (usd === undefined) continue;
      const v = cur === "ton" || cur === "gram" ? usd / TON_PRICE_USD : devnet.fiatRate(cur) !== undefined ? usd * devnet.fiatRate(cur)! : undefined;
      if (v !== undefined) prices[cur.toUpperCase()] = v;
    }
    return {
      balance: (bal?.balance ?? 0n).toString(),
      price: { prices, diff_24h: Object.fromEntries(Object.keys(prices).map((k) => [k, "+0.00%"])) },
      wallet_address: { address: wallet, is_scam: false, is_wallet: false },
      jetton: devnet.jettonPreview(master),
    };
  };

  const nftJson = async (item: { address: string; index: bigint; owner?: string; collection?: string }) => {
    const name = devnet.meta.nftNames[item.address] ?? `Item #${item.index}`;
    return {
      address: item.address,
      index: Number(item.index),
      ...(item.owner ? { owner: devnet.accountAddress(item.owner) } : {}),
      ...(item.collection ? { collection: { address: item.collection, name: devnet.meta.names[item.collection] ?? "Collection", description: "Demo NFT collection of the devnet" } } : {}),
      verified: item.collection === devnet.meta.collection,
      metadata: { name, image: `https://devnet.local/nft/${item.index}.png`, description: "A devnet demo NFT" },
      previews: [{ resolution: "100x100", url: `https://devnet.local/nft/${item.index}.png` }],
      approved_by: [],
      trust: item.collection === devnet.meta.collection ? "whitelist" : "none",
    };
  };

  const riskOf = async (em: Awaited<ReturnType<Devnet["emulate"]>>) => {
    let gram = 0n;
    let all = false;
    const jettons: unknown[] = [];
    const nfts: unknown[] = [];
    for (const { mode, message } of em.outActions) {
      if (mode & 128) all = true;
      if (message.info.type === "internal") gram += message.info.value.coins;
      const body = message.body;
      const dest = message.info.type === "internal" ? raw(message.info.dest as Address) : undefined;
      if (!body || !dest) continue;
      const s = body.beginParse();
      if (s.remainingBits < 32) continue;
      const op = s.loadUint(32);
      if (op === 0x0f8a7ea5) {
        s.loadUintBig(64);
        const amount = s.loadCoins();
        const info = await devnet.info(dest).catch(() => undefined);
        if (info?.jettonWallet) jettons.push({ quantity: amount.toString(), wallet_address: devnet.accountAddress(dest), jetton: devnet.jettonPreview(info.jettonWallet.master) });
      } else if (op === 0x5fcc3d14) {
        const item = await devnet.nftItem(dest);
        if (item) nfts.push(await nftJson(item));
      }
    }
    return { transfer_all_remaining_balance: all, gram: Number(gram), ton: Number(gram), jettons, nfts };
  };

  const accountEventOf = (em: Awaited<ReturnType<Devnet["emulate"]>>, account: string): AccountEventJson => {
    const e = em.record.accountEvents.find((x) => x.account === account);
    if (e) return e.event;
    return { event_id: em.record.traceId, account: devnet.accountAddress(account), timestamp: em.record.utime, actions: [], is_scam: false, lt: em.record.lt, in_progress: false, extra: 0, progress: 1 };
  };

  // accounts
  on("POST", "/v2/accounts/_bulk", async ({ body }) => {
    const ids = bodyObj(body).account_ids;
    if (!Array.isArray(ids)) throw new ApiError(400, "account_ids is required");
    return { accounts: await Promise.all(ids.map((id) => devnet.account(String(id)))) };
  });
  on("GET", "/v2/accounts/{account_id}", async ({ params }) => devnet.account(params.account_id!));
  on("GET", "/v2/accounts/{account_id}/dns/backresolve", async ({ params }) => {
    const a = devnet.parseRaw(params.account_id!);
    return { domains: Object.entries(devnet.meta.dns).filter(([, v]) => v === a).map(([k]) => k) };
  });
  on("GET", "/v2/accounts/{account_id}/nfts", async ({ params, query }) => {
    const a = devnet.parseRaw(params.account_id!);
    const collection = query.get("collection");
    const col = collection ? devnet.parseRaw(collection) : undefined;
    const limit = int(query, "limit", { min: 1, max: 1000 }) ?? 1000;
    const offset = int(query, "offset", { min: 0 }) ?? 0;
    const items = (await devnet.nftItems()).filter((i) => i.owner === a && (!col || i.collection === col));
    return { nft_items: await Promise.all(items.slice(offset, offset + limit).map(nftJson)) };
  });
  on("GET", "/v2/accounts/{account_id}/jettons/history", async ({ params, query }) => {
    const a = devnet.parseRaw(params.account_id!);
    const beforeLt = int(query, "before_lt");
    return devnet.jettonHistory(a, { limit: int(query, "limit", { required: true, min: 1, max: 1000 })!, ...(beforeLt !== undefined ? { beforeLt } : {}) });
  });
  on("GET", "/v2/accounts/{account_id}/jettons", async ({ params, query }) => {
    const a = devnet.parseRaw(params.account_id!);
    const currencies = list(query, "currencies");
    const balances = [];
    for (const m of devnet.jettonMasters()) {
      const bal = await devnet.jettonBalance(m, a);
      if (bal) balances.push(await jettonBalanceJson(a, m, currencies));
    }
    return { balances };
  });
  on("GET", "/v2/accounts/{account_id}/jettons/{jetton_id}", async ({ params, query }) => {
    const a = devnet.parseRaw(params.account_id!);
    const m = devnet.parseRaw(params.jetton_id!);
    if (!devnet.meta.jettons[m]) throw new ApiError(404, "jetton not found");
    return jettonBalanceJson(a, m, list(query, "currencies"));
  });
  on("GET", "/v2/accounts/{account_id}/events", async ({ params, query }) => {
    const a = devnet.parseRaw(params.account_id!);
    const limit = int(query, "limit", { required: true, min: 1, max: 100 })!;
    const beforeLt = int(query, "before_lt");
    const afterLt = int(query, "after_lt");
    const startDate = int(query, "start_date");
    const endDate = int(query, "end_date");
    const sort = query.get("sort_order") ?? "desc";
    if (sort !== "asc" && sort !== "desc") throw new ApiError(400, "sort_order must be asc or desc");
    return devnet.listEvents(a, {
      limit,
      subjectOnly: bool(query, "subject_only"),
      initiator: bool(query, "initiator"),
      asc: sort === "asc",
      ...(beforeLt !== undefined ? { beforeLt } : {}),
      ...(afterLt !== undefined ? { afterLt } : {}),
      ...(startDate !== undefined ? { startDate } : {}),
      ...(endDate !== undefined ? { endDate } : {}),
    });
  });
  on("POST", "/v2/accounts/{account_id}/events/emulate", async ({ params, body, query }) => {
    const a = devnet.parseRaw(params.account_id!);
    const em = await devnet.emulate(boc(bodyString(bodyObj(body), "boc")), { ignoreChksig: bool(query, "ignore_signature_check") });
    return accountEventOf(em, a);
  });
  on("GET", "/v2/accounts/{account_id}/events/{event_id}", async ({ params, query }) => {
    const a = devnet.parseRaw(params.account_id!);
    const e = devnet.accountEvent(a, params.event_id!, bool(query, "subject_only"));
    if (!e) throw new ApiError(404, "event not found");
    return e;
  });
  on("GET", "/v2/jettons/{jetton_id}/accounts/{account_id}/history", async ({ params, query }) => {
    const a = devnet.parseRaw(params.account_id!);
    const m = devnet.parseRaw(params.jetton_id!);
    const beforeLt = int(query, "before_lt");
    const startDate = int(query, "start_date");
    const endDate = int(query, "end_date");
    return devnet.jettonHistory(a, {
      master: m,
      limit: int(query, "limit", { required: true, min: 1, max: 1000 })!,
      ...(beforeLt !== undefined ? { beforeLt } : {}),
      ...(startDate !== undefined ? { startDate } : {}),
      ...(endDate !== undefined ? { endDate } : {}),
    });
  });

  // wallet and emulation
  on("GET", "/v2/wallet/{account_id}/seqno", async ({ params }) => ({ seqno: await devnet.seqno(params.account_id!) }));
  on("POST", "/v2/wallet/emulate", async ({ body }) => {
    const b = bodyObj(body);
    const cell = boc(bodyString(b, "boc"));
    const overrides = Array.isArray(b.params)
      ? (b.params as Array<{ address?: string; balance?: number | string }>).flatMap((p) => (p.address && p.balance !== undefined ? [{ address: devnet.parseRaw(p.address), balance: BigInt(p.balance) }] : []))
      : [];
    const em = await devnet.emulate(cell, { ignoreChksig: true, balanceOverride: overrides });
    return { trace: em.record.trace, risk: await riskOf(em), event: accountEventOf(em, em.rootAccount) };
  });
  on("POST", "/v2/events/emulate", async ({ body, query }) => {
    const em = await devnet.emulate(boc(bodyString(bodyObj(body), "boc")), { ignoreChksig: bool(query, "ignore_signature_check") });
    return em.record.event;
  });
  on("POST", "/v2/blockchain/message", async ({ body }) => {
    const b = bodyObj(body);
    const bocs: string[] = [];
    if (typeof b.boc === "string" && b.boc) bocs.push(b.boc);
    if (Array.isArray(b.batch)) {
      if (b.batch.length > 5) throw new ApiError(400, "batch holds at most 5 messages");
      for (const x of b.batch) bocs.push(String(x));
    }
    if (bocs.length === 0) throw new ApiError(400, "boc or batch is required");
    for (const s of bocs) await devnet.submit(boc(s));
    return undefined;
  });

  // dns
  on("GET", "/v2/dns/{domain_name}/resolve", async ({ params }) => {
    const name = decodeURIComponent(params.domain_name!).toLowerCase();
    const a = devnet.meta.dns[name];
    if (!a) throw new ApiError(404, "domain not found");
    const info = await devnet.info(a);
    return {
      wallet: { address: a, account: devnet.accountAddress(a), is_wallet: info.isWallet, has_method_pubkey: info.isWallet, has_method_seqno: info.isWallet, names: [name] },
      sites: [],
    };
  });

  // blockchain
  const runGet = async (id: string, method: string, args: TupleItem[]) => {
    try {
      const r = await devnet.runGet(id, method, args);
      return { success: r.exitCode === 0 || r.exitCode === 1, exit_code: r.exitCode, stack: r.stack.map(stackRecord) };
    } catch (e) {
      const code = (e as { exitCode?: number }).exitCode;
      if (typeof code === "number") return { success: false, exit_code: code, stack: [] };
      throw e;
    }
  };
  on("GET", "/v2/blockchain/accounts/{account_id}/methods/{method_name}", async ({ params, query }) =>
    runGet(params.account_id!, params.method_name!, list(query, "args").map(parseArg)),
  );
  on("POST", "/v2/blockchain/accounts/{account_id}/methods/{method_name}", async ({ params, body }) => {
    const args = bodyObj(body).args;
    if (!Array.isArray(args)) throw new ApiError(400, "args is required");
    return runGet(params.account_id!, params.method_name!, (args as Array<{ type: string; value: string }>).map(parseTypedArg));
  });
  on("GET", "/v2/blockchain/accounts/{account_id}", async ({ params }) => devnet.rawAccount(params.account_id!));

  // rates
  on("GET", "/v2/rates", async ({ query }) => {
    const tokens = list(query, "tokens");
    const currencies = list(query, "currencies");
    if (!tokens.length || !currencies.length) throw new ApiError(400, "tokens and currencies are required");
    return { rates: devnet.rates(tokens, currencies) };
  });
  on("GET", "/v2/rates/chart", async ({ query }) => {
    const token = query.get("token");
    if (!token) throw new ApiError(400, "token is required");
    const usd = devnet.priceUsd(token);
    if (usd === undefined) throw new ApiError(404, "token not found");
    const cur = (query.get("currency") ?? "usd").toLowerCase();
    const rate = cur === "ton" || cur === "gram" ? 1 / TON_PRICE_USD : devnet.fiatRate(cur) ?? 1;
    const now = Math.floor(Date.now() / 1000);
    const end = int(query, "end_date") ?? now;
    // Rates exist from the listing date on (TON's mainnet launch): "all time" starts there, not at 1970.
    const start = Math.max(int(query, "start_date") ?? end - 7 * 86400, CHART_LISTED_AT);
    const count = Math.max(1, int(query, "points_count", { min: 0, max: 200 }) ?? 200);
    const step = Math.max(1, Math.floor((end - start) / count));
    const points: Array<[number, number]> = [];
    for (let i = 0; i < count; i++) {
      const t = end - i * step;
      if (t < start) break;
      const wobble = token.toLowerCase() === "ton" ? chartWobble(t - step, t, now) : 1;
      points.push([t, usd * rate * wobble]);
    }
    return { points };
  });

  // jettons
  on("GET", "/v2/jettons/{account_id}", async ({ params }) => {
    const m = devnet.parseRaw(params.account_id!);
    const j = devnet.meta.jettons[m];
    if (!j) throw new ApiError(404, "jetton not found");
    const data = await devnet.jettonData(m);
    return {
      mintable: data.mintable,
      total_supply: data.totalSupply.toString(),
      ...(data.admin ? { admin: devnet.accountAddress(data.admin) } : {}),
      metadata: { address: m, name: j.name, symbol: j.symbol, decimals: String(j.decimals), image: j.image, description: j.description },
      preview: j.image,
      verification: j.verification,
      holders_count: devnet.holdersCount(m),
    };
  });

  // gasless
  on("GET", "/v2/gasless/config", async () => ({
    relay_address: devnet.relayAddress(),
    gas_jettons: devnet
      .jettonMasters()
      .filter((m) => devnet.meta.jettons[m]?.verification === "whitelist")
      .map((m) => ({ master_id: m })),
  }));
  on("POST", "/v2/gasless/estimate/{master_id}", async ({ params, body }) => {
    const b = bodyObj(body);
    const master = devnet.parseRaw(params.master_id!);
    const meta = devnet.meta.jettons[master];
    if (!meta || meta.verification !== "whitelist") throw new ApiError(400, "this jetton can't pay for gas");
    const from = devnet.parseRaw(bodyString(b, "wallet_address"));
    bodyString(b, "wallet_public_key");
    const messages = b.messages;
    if (!Array.isArray(messages) || messages.length === 0) throw new ApiError(400, "messages are required");
    const out = (messages as Array<{ boc?: string }>).map((m) => {
      const msg = loadMessageRelaxed(boc(String(m.boc ?? "")).beginParse());
      if (msg.info.type !== "internal") throw new ApiError(400, "messages must be internal");
      return { address: raw(msg.info.dest as Address), amount: msg.info.value.coins.toString(), ...(msg.body.bits.length || msg.body.refs.length ? { payload: cellHex(msg.body) } : {}), ...(msg.init ? { stateInit: cellHex(beginCell().store(storeStateInit(msg.init)).endCell()) } : {}) };
    });
    const gasTon = toNano("0.05") * BigInt(out.length + 1);
    const commission = BigInt(Math.ceil((Number(gasTon) / 1e9) * TON_PRICE_USD / meta.priceUsd * 10 ** meta.decimals));
    const userJettonWallet = await devnet.jettonWalletAddress(master, from);
    const relay = Address.parse(devnet.relayAddress());
    const commissionBody = beginCell()
      .storeUint(0x0f8a7ea5, 32)
      .storeUint(0, 64)
      .storeCoins(commission)
      .storeAddress(relay)
      .storeAddress(relay)
      .storeMaybeRef(null)
      .storeCoins(1n)
      .storeBit(false)
      .endCell();
    out.push({ address: userJettonWallet, amount: toNano("0.05").toString(), payload: cellHex(commissionBody) });
    return { protocol_name: "gasless", relay_address: devnet.relayAddress(), commission: commission.toString(), from, valid_until: Math.floor(Date.now() / 1000) + 300, messages: out };
  });
  on("POST", "/v2/gasless/send", async ({ body }) => {
    const b = bodyObj(body);
    const cell = boc(bodyString(b, "boc"));
    // value the relay attaches: what the signed actions send, plus gas
    let value = toNano("0.2");
    try {
      const msg = loadMessage(cell.beginParse());
      const s = msg.body.beginParse();
      s.skip(32 + 32 + 32 + 32);
      const outList = s.loadMaybeRef();
      if (outList) {
        const actions = loadOutList(outList.beginParse());
        value = actions.reduce((sum, a) => sum + (a.type === "sendMsg" && a.outMsg.info.type === "internal" ? a.outMsg.info.value.coins : 0n), toNano("0.05"));
      }
    } catch {
      // keep the default
    }
    const hash = await devnet.gaslessSend(cell, value);
    return { protocol_name: "gasless", external: hash };
  });

  // staking
  on("GET", "/v2/staking/pool/{account_id}", async ({ params }) => {
    const a = devnet.parseRaw(params.account_id!);
    if (a !== devnet.meta.pool) throw new ApiError(404, "pool not found");
    const acc = await devnet.account(a);
    const now = Math.floor(Date.now() / 1000);
    const cycleStart = now - (now % 65536);
    return {
      implementation: { name: "Tonstakers", description: "Liquid staking (devnet stand-in)", url: "https://tonstakers.com", socials: ["https://t.me/tonstakers"] },
      pool: {
        address: a,
        name: "Tonstakers (devnet)",
        total_amount: acc.balance,
        implementation: "liquidTF",
        apy: 4.2,
        min_stake: 1_000_000_000,
        cycle_start: cycleStart,
        cycle_end: cycleStart + 65536,
        cycle_length: 65536,
        verified: true,
        current_nominators: 1,
        max_nominators: 100000,
        nominators_stake: acc.balance,
        validator_stake: 0,
      },
    };
  });

  // events, traces, nfts
  on("GET", "/v2/events/{event_id}", async ({ params }) => {
    const t = devnet.trace(params.event_id!);
    if (!t) throw new ApiError(404, "event not found");
    return t.event;
  });
  on("GET", "/v2/traces/{trace_id}", async ({ params }) => {
    const t = devnet.trace(params.trace_id!);
    if (!t) throw new ApiError(404, "trace not found");
    return t.trace;
  });
  on("GET", "/v2/nfts/{account_id}", async ({ params }) => {
    const item = await devnet.nftItem(devnet.parseRaw(params.account_id!));
    if (!item) throw new ApiError(404, "nft item not found");
    return nftJson(item);
  });

  // devnet-only
  const extraCurrencyRequest = (value: unknown): { id: number; amount: bigint } => {
    const o = value !== null && typeof value === "object" ? (value as Record<string, unknown>) : undefined;
    const id = Number(o?.id);
    const amount = o?.amount;
    if (!o || !Number.isInteger(id) || (typeof amount !== "string" && typeof amount !== "number") || !/^\d+$/.test(String(amount))) {
      throw new ApiError(400, "extraCurrency must be { id: integer, amount: minor units }");
    }
    return { id, amount: BigInt(String(amount)) };
  };
  on("POST", "/v2/devnet/faucet", async ({ body }) => {
    const b = bodyObj(body);
    const address = bodyString(b, "address");
    if (typeof b.network === "string" && b.network !== "ton") {
      // A simulated network: { address, network, asset?, amount? }
      const network = simNetwork(b.network);
      const t = sims().faucet(network, address, typeof b.asset === "string" ? b.asset : undefined, positiveAmount(b.amount, "amount"));
      return { message_hash: t.id, transfer: simTransferJson(t) };
    }
    const ton = b.ton !== undefined ? BigInt(String(b.ton)) : undefined;
    const amount = b.amount !== undefined ? BigInt(String(b.amount)) : undefined;
    const r = await devnet.faucet({
      address,
      ...(ton !== undefined ? { ton } : {}),
      ...(typeof b.jetton === "string" ? { jetton: b.jetton } : {}),
      ...(amount !== undefined ? { amount } : {}),
      ...(b.nft === true ? { nft: true } : {}),
      ...(typeof b.name === "string" ? { name: b.name } : {}),
      ...(b.extraCurrency !== undefined ? { extraCurrency: extraCurrencyRequest(b.extraCurrency) } : {}),
    });
    if (typeof b.dns === "string") devnet.registerDns(b.dns, address);
    return r;
  });
  // devnet-only: simulated networks (tron, ethereum, solana, bitcoin)
  const sims = (): SimNetworks => {
    if (!sim) throw new ApiError(404, "simulated networks are off");
    return sim;
  };
  on("GET", "/v2/devnet/sim/{network}", async ({ params }) => {
    const network = simNetwork(params.network!);
    return { network, height: sims().height(network), faucet: SIM_FAUCETS[network], assets: SIM_ASSETS[network] };
  });
  on("GET", "/v2/devnet/sim/{network}/accounts/{address}", async ({ params }) => {
    const network = simNetwork(params.network!);
    return { address: params.address!, balances: sims().balances(network, params.address!) };
  });
  on("GET", "/v2/devnet/sim/{network}/transfers", async ({ params, query }) => {
    const network = simNetwork(params.network!);
    const address = query.get("address");
    const r = sims().list(network, {
      limit: int(query, "limit", { min: 1, max: 1000 }) ?? 100,
      afterSeq: int(query, "after_seq", { min: 0 }) ?? 0,
      ...(address ? { address } : {}),
    });
    return { transfers: r.transfers.map(simTransferJson), next_seq: r.nextSeq, height: sims().height(network) };
  });
  on("GET", "/v2/devnet/sim/{network}/transfers/{id}", async ({ params }) => {
    const t = sims().transfer(simNetwork(params.network!), params.id!);
    if (!t) throw new ApiError(404, "transfer not found");
    return simTransferJson(t);
  });
  on("GET", "/v2/devnet/sim/{network}/keys/{key}", async ({ params }) => {
    const t = sims().byKey(simNetwork(params.network!), params.key!);
    if (!t) throw new ApiError(404, "no transfer with this key");
    return simTransferJson(t);
  });
  on("POST", "/v2/devnet/sim/{network}/transfers", async ({ params, body }) => {
    const network = simNetwork(params.network!);
    const b = bodyObj(body);
    const amount = positiveAmount(b.amount, "amount");
    if (amount === undefined) throw new ApiError(400, "amount is required");
    const t = sims().submit(network, {
      from: bodyString(b, "from"),
      to: bodyString(b, "to"),
      asset: bodyString(b, "asset"),
      amount,
      memo: typeof b.memo === "string" && b.memo !== "" ? b.memo : null,
      key: typeof b.key === "string" && b.key !== "" ? b.key : null,
    });
    return simTransferJson(t);
  });
  on("POST", "/v2/devnet/sim/{network}/faucet", async ({ params, body }) => {
    const network = simNetwork(params.network!);
    const b = bodyObj(body);
    return simTransferJson(sims().faucet(network, bodyString(b, "address"), typeof b.asset === "string" ? b.asset : undefined, positiveAmount(b.amount, "amount")));
  });

  on("GET", "/v2/devnet/info", async () => ({
    global_id: devnet.meta.globalId,
    block_seqno: devnet.meta.blockSeqno,
    pending: devnet.pendingCount,
    faucet: devnet.meta.faucet,
    jettons: Object.fromEntries(Object.entries(devnet.meta.jettons).map(([a, j]) => [j.key, { address: a, friendly: devnet.friendly(a), symbol: j.symbol, decimals: j.decimals, verification: j.verification }])),
    nft_collection: devnet.meta.collection,
    relay: devnet.meta.relay,
    staking_pool: devnet.meta.pool,
    dns: devnet.meta.dns,
    ...(sim ? { sim: Object.fromEntries(Object.entries(SIM_FAUCETS).map(([n, faucet]) => [n, { faucet, height: sim.height(n as SimNetwork), assets: SIM_ASSETS[n as SimNetwork] }])) } : {}),
  }));

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      void (async () => {
        const url = new URL(req.url ?? "/", "http://devnet");
        res.setHeader("access-control-allow-origin", "*");
        res.setHeader("access-control-allow-headers", "authorization, content-type, accept-language");
        if (req.method === "OPTIONS") {
          res.writeHead(204).end();
          return;
        }
        try {
          const method = req.method ?? "GET";
          let matched: { route: Route; params: Record<string, string> } | undefined;
          let pathMatched = false;
          for (const route of routes) {
            const m = route.pattern.exec(url.pathname);
            if (!m) continue;
            pathMatched = true;
            if (route.method !== method) continue;
            matched = { route, params: Object.fromEntries(route.keys.map((k, i) => [k, decodeURIComponent(m[i + 1] ?? "")])) };
            break;
          }
          if (!matched) throw new ApiError(pathMatched ? 405 : 404, pathMatched ? "method not allowed" : "not found");
          let body: unknown;
          if (chunks.length) {
            try {
              body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
            } catch {
              throw new ApiError(400, "invalid JSON body");
            }
          }
          const out = await matched.route.handler({ params: matched.params, query: url.searchParams, body });
          if (out === undefined) {
            res.writeHead(200, { "content-type": "application/json" }).end("{}");
          } else {
            res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(out, (_k, v: unknown) => (typeof v === "bigint" ? Number(v) : v)));
          }
        } catch (e) {
          const status = e instanceof ApiError ? e.status : 500;
          const message = e instanceof Error ? e.message : String(e);
          if (status === 500) console.error("devnet: request failed", req.method, url.pathname, e);
          res
            .writeHead(status, { "content-type": "application/json" })
            .end(JSON.stringify({ error: message, ...(e instanceof ApiError && e.code !== undefined ? { error_code: e.code } : {}) }));
        }
      })();
    });
  });
  // keep idle connections longer than clients do, so a client never reuses a socket the server just closed
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  return server;
};
