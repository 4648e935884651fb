// Indexing one executed message: the transaction tree, its classified actions, and the record the
// indexer stores (trace, event, each account's event, jetton operations).
import type { Blockchain, BlockchainTransaction } from "@ton/sandbox"
import { classifyTrace, type ClassifyContext } from "../classify.ts"
import type {
  AccountAddressJson,
  AccountEventJson,
  AccountInfo,
  ClassifiedAction,
  JettonOpRecord,
  JettonPreviewJson,
  StoredAccountEvent,
  TraceRecord,
  TxNode,
} from "../model.ts"
import { renderTransaction, statusOf } from "../render.ts"
import { ApiError, opOf, raw } from "../util.ts"
import { extraCurrencies, extraCurrencyPreview } from "./catalog.ts"
import { addrFromTx, type Executed } from "./sandbox.ts"

/** What building a record needs from the devnet: account lookups and the wallet flag cache. */
export interface RecordContext {
  accountAddress(a: string): AccountAddressJson
  jettonPreview(master: string): JettonPreviewJson
  info(account: string, bc: Blockchain): Promise<AccountInfo>
  readonly walletCache: Map<string, boolean>
}

export const buildRecord = async (
  ctx: RecordContext,
  bc: Blockchain,
  list: Executed,
  extHash: string,
  block: string,
  inProgress: boolean,
  emulated = false,
): Promise<{ record: TraceRecord; root: TxNode }> => {
  const nodes = new Map<BlockchainTransaction, TxNode>()
  const addrJson = (a: string) => ctx.accountAddress(a)
  for (const { tx, endBalance } of list) {
    const address = addrFromTx(tx)
    const account = raw(address)
    const inMsg = tx.inMessage ?? undefined
    const inInfo = inMsg?.info
    const inValue = inInfo?.type === "internal" ? inInfo.value.coins : 0n
    const inExtra = inInfo?.type === "internal" ? extraCurrencies(inInfo.value.other) : []
    const outs = [...tx.outMessages.values()]
    let outTotal = 0n
    for (const m of outs) if (m.info.type === "internal") outTotal += m.info.value.coins + m.info.forwardFee
    const d = tx.description
    const generic = d.type === "generic" ? d : undefined
    const cp = generic?.computePhase
    const success = !!cp && cp.type === "vm" && cp.success && !(generic?.aborted ?? false)
    const body = inMsg?.body
    const op = opOf(body)
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
    }
    nodes.set(tx, node)
  }
  let root: TxNode | undefined
  for (const [tx, node] of nodes) {
    const parent = tx.parent ? nodes.get(tx.parent) : undefined
    if (parent) {
      parent.children.push(node)
      node.parent = parent
    } else if (!root) root = node
  }
  if (!root) throw new ApiError(500, "empty trace")
  // account info for every account in the trace and for addresses named in bodies
  const infos = new Map<string, AccountInfo>()
  const resolve = async (a: string) => {
    if (a && !infos.has(a)) {
      const i = await ctx.info(a, bc)
      infos.set(a, i)
      ctx.walletCache.set(a, i.isWallet)
    }
  }
  for (const n of nodes.values()) {
    await resolve(n.account)
    if (n.source) await resolve(n.source)
  }
  const mentioned = new Set<string>()
  const probeCtx: ClassifyContext = {
    info: (a) => infos.get(a) ?? { address: a, status: "nonexist", isWallet: false, interfaces: [], isScam: false },
    jetton: (m) => ctx.jettonPreview(m),
    extraCurrency: (id) => extraCurrencyPreview(id),
    accountAddress: (a) => {
      mentioned.add(a)
      return ctx.accountAddress(a)
    },
  }
  classifyTrace(root, probeCtx)
  for (const a of mentioned) await resolve(a)
  // render transactions now that wallet flags are known
  for (const [tx, node] of nodes) Object.assign(node.json, renderTransaction(tx, node.account, node.endBalance, block, addrJson))
  const { actions } = classifyTrace(root, { ...probeCtx, accountAddress: addrJson })
  const record = makeRecord(ctx, root, [...nodes.values()], actions, infos, extHash, inProgress, emulated)
  return { record, root }
}

const makeRecord = (
  ctx: RecordContext,
  root: TxNode,
  nodes: TxNode[],
  actions: ClassifiedAction[],
  infos: Map<string, AccountInfo>,
  extHash: string,
  inProgress: boolean,
  emulated: boolean,
): TraceRecord => {
  const traceId = root.hash
  const isScam = actions.some((a) => {
    const j = (a.json[a.json.type] as { jetton?: JettonPreviewJson } | undefined)?.jetton
    return j?.verification === "blacklist"
  })
  const renderTrace = (n: TxNode): Record<string, unknown> => ({
    transaction: n.json,
    interfaces: [...(infos.get(n.account)?.interfaces ?? [])],
    ...(n.children.length ? { children: n.children.map(renderTrace) } : {}),
    emulated,
  })
  const accounts = new Set<string>()
  for (const n of nodes) accounts.add(n.account)
  for (const a of actions) for (const x of a.involved) if (x) accounts.add(x)
  const accountEvents: StoredAccountEvent[] = []
  for (const acc of accounts) {
    const mine = actions.filter((a) => a.involved.has(acc))
    if (mine.length === 0) continue
    const accTxs = nodes.filter((n) => n.account === acc)
    const lt = Number(accTxs.length ? accTxs.reduce((m, n) => (n.lt < m ? n.lt : m), accTxs[0]!.lt) : root.lt)
    const delta = accTxs.reduce((s, n) => s + n.delta, 0n)
    const explicit = mine.reduce((s, a) => s + (a.ton.get(acc) ?? 0n), 0n)
    const event: AccountEventJson = {
      event_id: traceId,
      account: ctx.accountAddress(acc),
      timestamp: root.utime,
      actions: mine.map((a) => a.json),
      is_scam: isScam,
      lt,
      in_progress: inProgress,
      extra: Number(delta - explicit),
      progress: inProgress ? 0 : 1,
      ...(extHash ? { ext_msg_hash: extHash } : {}),
    }
    accountEvents.push({ account: acc, lt, event, subject: mine.map((a) => a.subjects.has(acc)), initiator: acc === root.account })
  }
  const flows = new Map<string, { gram: bigint; fees: bigint; jettons: Map<string, bigint> }>()
  const flow = (a: string) => {
    let f = flows.get(a)
    if (!f) flows.set(a, (f = { gram: 0n, fees: 0n, jettons: new Map() }))
    return f
  }
  for (const n of nodes) {
    const f = flow(n.account)
    f.gram += n.delta + n.fees
    f.fees += n.fees
  }
  for (const a of actions) for (const j of a.jettons) flow(j.owner).jettons.set(j.master, (flow(j.owner).jettons.get(j.master) ?? 0n) + j.amount)
  const event = {
    event_id: traceId,
    timestamp: root.utime,
    actions: actions.map((a) => a.json),
    value_flow: [...flows].map(([a, f]) => ({
      account: ctx.accountAddress(a),
      gram: Number(f.gram),
      ton: Number(f.gram),
      fees: Number(f.fees),
      ...(f.jettons.size
        ? {
            jettons: [...f.jettons].map(([m, q]) => ({ account: ctx.accountAddress(a), jetton: ctx.jettonPreview(m), qty: q.toString(), quantity: Number(q) })),
          }
        : {}),
    })),
    is_scam: isScam,
    lt: Number(root.lt),
    in_progress: inProgress,
    progress: inProgress ? 0 : 1,
    ...(extHash ? { ext_msg_hash: extHash } : {}),
  }
  const jettonOps: JettonOpRecord[] = []
  for (const a of actions) {
    const t = a.json.type
    if (t !== "JettonTransfer" && t !== "JettonMint" && t !== "JettonBurn") continue
    if (a.json.status !== "ok") continue
    const body = a.json[t] as { sender?: AccountAddressJson; recipient?: AccountAddressJson; amount: string; jetton: JettonPreviewJson }
    const baseTx = (a.json.base_transactions as string[])[0] ?? traceId
    const baseNode = nodes.find((n) => n.hash === baseTx)
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
    }
    for (const owner of new Set([body.sender?.address, body.recipient?.address])) {
      if (owner) jettonOps.push({ owner, master: body.jetton.address, json, lt: json.lt })
    }
  }
  return {
    traceId,
    lt: Number(root.lt),
    utime: root.utime,
    extHash,
    trace: renderTrace(root),
    event,
    accountEvents,
    jettonOps,
    txHashes: nodes.map((n) => n.hash),
  }
}
