// Action classifier: turns a transaction trace into tonapi-style actions, following tonapi's rules.
// Each pattern consumes the transactions it explains; whatever is left falls back to TonTransfer,
// SmartContractExec or (only when nothing else fits) Unknown.
import { type Cell, type Slice } from "@ton/core"
import type { AccountAddressJson, AccountInfo, ActionJson, ClassifiedAction, EcPreviewJson, JettonPreviewJson, TxNode } from "./model.ts"
import { OP, type Comment, cellHex, decodeComment, loadEitherPayload, opHex, raw } from "./util.ts"

export interface ClassifyContext {
  readonly info: (account: string) => AccountInfo
  readonly jetton: (master: string) => JettonPreviewJson
  /** extra currency preview by id (absent: every extra currency shows as `EC{id}` with 9 decimals) */
  readonly extraCurrency?: (id: number) => EcPreviewJson
  readonly accountAddress: (account: string) => AccountAddressJson
}

const flatten = (root: TxNode): TxNode[] => {
  const out: TxNode[] = []
  const walk = (n: TxNode) => {
    out.push(n)
    for (const c of n.children) walk(c)
  }
  walk(root)
  return out
}

const safe = <T>(f: () => T): T | undefined => {
  try {
    return f()
  } catch {
    return undefined
  }
}

const commentOf = (payload: Slice | undefined): Comment => {
  if (!payload || payload.remainingBits < 32) return {}
  const op = payload.preloadUint(32)
  if (op !== OP.textComment && op !== OP.encryptedComment) return {}
  return safe(() => decodeComment(payload)) ?? {}
}

const bodyComment = (body: Cell | undefined): Comment => (body ? commentOf(body.beginParse()) : {})

interface JettonTransferBody {
  queryId: bigint
  amount: bigint
  destination?: string
  response?: string
  forwardPayload?: Slice
}

const parseJettonTransfer = (body: Cell): JettonTransferBody | undefined =>
  safe(() => {
    const s = body.beginParse()
    s.loadUint(32)
    const queryId = s.loadUintBig(64)
    const amount = s.loadCoins()
    const dest = s.loadMaybeAddress()
    const resp = s.loadMaybeAddress()
    s.loadMaybeRef()
    s.loadCoins()
    const fp = safe(() => loadEitherPayload(s))
    return {
      queryId,
      amount,
      ...(dest ? { destination: raw(dest) } : {}),
      ...(resp ? { response: raw(resp) } : {}),
      ...(fp ? { forwardPayload: fp } : {}),
    }
  })

const parseInternalTransfer = (body: Cell) =>
  safe(() => {
    const s = body.beginParse()
    s.loadUint(32)
    const queryId = s.loadUintBig(64)
    const amount = s.loadCoins()
    const from = s.loadMaybeAddress()
    const resp = s.loadMaybeAddress()
    s.loadCoins()
    const fp = safe(() => loadEitherPayload(s))
    return { queryId, amount, from: from ? raw(from) : undefined, response: resp ? raw(resp) : undefined, forwardPayload: fp }
  })

const parseBurn = (body: Cell) =>
  safe(() => {
    const s = body.beginParse()
    s.loadUint(32)
    const queryId = s.loadUintBig(64)
    const amount = s.loadCoins()
    return { queryId, amount }
  })

const parseNftTransfer = (body: Cell) =>
  safe(() => {
    const s = body.beginParse()
    s.loadUint(32)
    const queryId = s.loadUintBig(64)
    const newOwner = s.loadAddress()
    const resp = s.loadMaybeAddress()
    s.loadMaybeRef()
    s.loadCoins()
    const fp = safe(() => loadEitherPayload(s))
    return { queryId, newOwner: raw(newOwner), response: resp ? raw(resp) : undefined, forwardPayload: fp }
  })

/** Owner given by a collection when it deploys an item: body = owner address + content ref. */
const parseNftDeployBody = (body: Cell | undefined) => (body ? safe(() => raw(body.beginParse().loadAddress())) : undefined)

const describeAmount = (amount: bigint, decimals: number, symbol: string): string => {
  const neg = amount < 0n
  const a = neg ? -amount : amount
  const base = 10n ** BigInt(decimals)
  const whole = a / base
  const frac = (a % base).toString().padStart(decimals, "0").replace(/0+$/, "")
  return `${neg ? "-" : ""}${whole}${frac ? `.${frac}` : ""} ${symbol}`
}

export interface ClassifyResult {
  readonly actions: ClassifiedAction[]
  readonly accounts: ReadonlySet<string>
}

export const classifyTrace = (root: TxNode, ctx: ClassifyContext): ClassifyResult => {
  const nodes = flatten(root)
  const consumed = new Set<TxNode>()
  const actions: ClassifiedAction[] = []
  const accounts = new Set(nodes.map((n) => n.account))

  const push = (
    type: string,
    status: "ok" | "failed",
    body: Record<string, unknown>,
    preview: { name: string; description: string; value?: string; accounts: string[] },
    base: TxNode[],
    involved: string[],
    subjects: string[],
    ton: Array<[string, bigint]> = [],
    jettons: Array<{ owner: string; master: string; amount: bigint }> = [],
  ) => {
    const json: ActionJson = {
      type,
      status,
      ...(type === "Unknown" ? {} : { [type]: body }),
      simple_preview: {
        name: preview.name,
        description: preview.description,
        ...(preview.value ? { value: preview.value } : {}),
        accounts: preview.accounts.map(ctx.accountAddress),
      },
      base_transactions: base.map((n) => n.hash),
    }
    const tonMap = new Map<string, bigint>()
    for (const [a, v] of ton) tonMap.set(a, (tonMap.get(a) ?? 0n) + v)
    actions.push({ json, involved: new Set([...involved, ...subjects]), subjects: new Set(subjects), ton: tonMap, jettons })
  }

  const findChild = (n: TxNode, op: number) => n.children.find((c) => c.op === op && !consumed.has(c))
  /** folds the excesses and transfer notifications that complete a pattern below `n` (their own children stay) */
  const foldTail = (n: TxNode) => {
    for (const c of n.children) {
      if (consumed.has(c)) continue
      if (c.op === OP.excesses || c.op === OP.jettonNotify) consumed.add(c)
    }
  }

  const deploys = (n: TxNode) => {
    if (n.origStatus !== "active" && n.endStatus === "active") {
      const info = ctx.info(n.account)
      push(
        "ContractDeploy",
        "ok",
        { address: n.account, interfaces: [...info.interfaces] },
        {
          name: "Contract Deploy",
          description: `Deploying a contract${info.interfaces.length ? ` with interfaces ${info.interfaces.join(", ")}` : ""}`,
          accounts: [n.account],
        },
        [n],
        [n.account],
        [n.account],
      )
    }
  }

  // Root: a deploy of the wallet (its first external) is the only action the root yields itself.
  if (!root.inMsg || root.inMsg.info.type === "external-in") {
    consumed.add(root)
    deploys(root)
  }

  for (const n of nodes) {
    if (consumed.has(n)) continue
    const info = ctx.info(n.account)
    const body = n.inBody

    // JettonTransfer: a jetton wallet receives transfer (0x0f8a7ea5)
    if (n.op === OP.jettonTransfer && info.jettonWallet && body) {
      const t = parseJettonTransfer(body)
      if (t) {
        consumed.add(n)
        const internal = findChild(n, OP.jettonInternalTransfer)
        const master = info.jettonWallet.master
        const sender = n.source ?? info.jettonWallet.owner
        const recipient = t.destination
        let status: "ok" | "failed" = n.success ? "ok" : "failed"
        const base = [n]
        if (internal) {
          consumed.add(internal)
          base.push(internal)
          if (!internal.success) status = "failed"
          foldTail(internal)
        } else status = "failed"
        foldTail(n)
        const jetton = ctx.jetton(master)
        const comment = commentOf(t.forwardPayload)
        const recipientsWallet = internal?.account ?? ""
        push(
          "JettonTransfer",
          status,
          {
            sender: ctx.accountAddress(sender),
            ...(recipient ? { recipient: ctx.accountAddress(recipient) } : {}),
            senders_wallet: n.account,
            recipients_wallet: recipientsWallet || n.account,
            amount: t.amount.toString(),
            ...comment,
            jetton,
          },
          {
            name: "Jetton Transfer",
            description: `Transferring ${describeAmount(t.amount, jetton.decimals, jetton.symbol)}`,
            value: describeAmount(t.amount, jetton.decimals, jetton.symbol),
            accounts: [sender, ...(recipient ? [recipient] : []), master],
          },
          base,
          [n.account, ...(recipientsWallet ? [recipientsWallet] : [])], // the master has no transaction in a transfer
          [sender, ...(recipient ? [recipient] : [])],
          [],
          status === "ok" ? [{ owner: sender, master, amount: -t.amount }, ...(recipient ? [{ owner: recipient, master, amount: t.amount }] : [])] : [],
        )
        continue
      }
    }

    // JettonMint: a master sends internal_transfer to a jetton wallet
    if (info.jettonMaster) {
      const internal = findChild(n, OP.jettonInternalTransfer)
      if (internal && internal.inBody) {
        const t = parseInternalTransfer(internal.inBody)
        const walletInfo = ctx.info(internal.account)
        const recipient = walletInfo.jettonWallet?.owner
        if (t && recipient) {
          consumed.add(n)
          consumed.add(internal)
          foldTail(internal)
          foldTail(n)
          const jetton = info.jettonMaster
          push(
            "JettonMint",
            internal.success ? "ok" : "failed",
            { recipient: ctx.accountAddress(recipient), recipients_wallet: internal.account, amount: t.amount.toString(), jetton },
            {
              name: "Jetton Mint",
              description: `Minting ${describeAmount(t.amount, jetton.decimals, jetton.symbol)}`,
              value: describeAmount(t.amount, jetton.decimals, jetton.symbol),
              accounts: [recipient, n.account],
            },
            [n, internal],
            [n.account, internal.account, ...(n.source ? [n.source] : [])],
            [recipient],
            [],
            internal.success ? [{ owner: recipient, master: n.account, amount: t.amount }] : [],
          )
          continue
        }
      }
    }

    // JettonBurn: jetton wallet receives burn (0x595f07bc), notifies the master (0x7bdd97de)
    if (n.op === OP.jettonBurn && info.jettonWallet && body) {
      const b = parseBurn(body)
      if (b) {
        consumed.add(n)
        const notif = findChild(n, OP.jettonBurnNotification)
        const base = [n]
        if (notif) {
          consumed.add(notif)
          base.push(notif)
          foldTail(notif)
        }
        const sender = n.source ?? info.jettonWallet.owner
        const master = info.jettonWallet.master
        const jetton = ctx.jetton(master)
        const ok = n.success && (notif?.success ?? false)
        push(
          "JettonBurn",
          ok ? "ok" : "failed",
          { sender: ctx.accountAddress(sender), senders_wallet: n.account, amount: b.amount.toString(), jetton },
          {
            name: "Jetton Burn",
            description: `Burning ${describeAmount(b.amount, jetton.decimals, jetton.symbol)}`,
            value: describeAmount(b.amount, jetton.decimals, jetton.symbol),
            accounts: [sender, master],
          },
          base,
          [n.account, master],
          [sender],
          [],
          ok ? [{ owner: sender, master, amount: -b.amount }] : [],
        )
        continue
      }
    }

    // NftItemTransfer: item receives 0x5fcc3d14, then 0x05138d91 ownership_assigned
    if (n.op === OP.nftTransfer && info.nftItem && body) {
      const t = parseNftTransfer(body)
      if (t) {
        consumed.add(n)
        const assigned = findChild(n, OP.nftOwnershipAssigned)
        const base = [n]
        if (assigned) {
          consumed.add(assigned)
          base.push(assigned)
        }
        foldTail(n)
        const comment = commentOf(t.forwardPayload)
        push(
          "NftItemTransfer",
          n.success ? "ok" : "failed",
          {
            ...(n.source ? { sender: ctx.accountAddress(n.source) } : {}),
            recipient: ctx.accountAddress(t.newOwner),
            nft: n.account,
            ...comment,
            ...(t.forwardPayload && !comment.comment && !comment.encrypted_comment && t.forwardPayload.remainingBits > 0
              ? { payload: safe(() => cellHex(t.forwardPayload!.asCell())) ?? "" }
              : {}),
          },
          { name: "NFT Transfer", description: "Transferring 1 NFT", value: "1 NFT", accounts: [...(n.source ? [n.source] : []), t.newOwner, n.account] },
          base,
          [n.account],
          [...(n.source ? [n.source] : []), t.newOwner],
        )
        continue
      }
    }

    // NFT mint: a collection deploys an item for an owner (tonapi shows it as an NftItemTransfer without sender)
    if (info.nftItem && n.source && ctx.info(n.source).nftCollection && n.origStatus !== "active" && n.endStatus === "active") {
      const owner = parseNftDeployBody(body)
      if (owner) {
        consumed.add(n)
        const parent = n.parent
        if (parent && !consumed.has(parent) && ctx.info(parent.account).nftCollection) consumed.add(parent)
        push(
          "NftItemTransfer",
          "ok",
          { recipient: ctx.accountAddress(owner), nft: n.account },
          { name: "NFT Transfer", description: "Minting 1 NFT", value: "1 NFT", accounts: [owner, n.account] },
          parent ? [parent, n] : [n],
          [n.account, ...(parent ? [parent.account] : [])],
          [owner],
        )
        continue
      }
    }

    consumed.add(n)
    if (n.bounced) continue // a bounce returns value to the sender: folded into the failed action
    const op = n.op
    const plain = op === undefined || op === OP.textComment || op === OP.encryptedComment
    const source = n.source ?? ""
    if (plain || (info.isWallet && op !== OP.excesses)) {
      if (op === OP.excesses) continue
      const comment = plain ? bodyComment(body) : {}
      deploys(n)
      // The recipient sent the value back (bounceable message it could not take, e.g. an uninit account): failed.
      const bouncedBack = n.children.some((c) => c.bounced)
      // Extra currencies ride on a plain message: one ExtraCurrencyTransfer per currency, and a
      // TonTransfer only when TON came along too (tonapi shows a 0-TON carrier as the EC transfer alone).
      for (const [id, amount] of n.inExtra ?? []) {
        const currency = ctx.extraCurrency?.(id) ?? { id, symbol: `EC${id}`, decimals: 9, image: "" }
        push(
          "ExtraCurrencyTransfer",
          bouncedBack ? "failed" : "ok",
          { sender: ctx.accountAddress(source), recipient: ctx.accountAddress(n.account), amount: amount.toString(), ...comment, currency },
          {
            name: "Extra Currency Transfer",
            description: `Transferring ${describeAmount(amount, currency.decimals, currency.symbol)}`,
            value: describeAmount(amount, currency.decimals, currency.symbol),
            accounts: [source, n.account],
          },
          [n],
          [source, n.account],
          [source, n.account],
        )
      }
      if (n.inExtra?.length && n.inValue === 0n) continue
      push(
        "TonTransfer",
        bouncedBack ? "failed" : "ok",
        { sender: ctx.accountAddress(source), recipient: ctx.accountAddress(n.account), amount: Number(n.inValue), ...comment },
        {
          name: "Gram Transfer",
          description: `Transferring ${describeAmount(n.inValue, 9, "Gram")}`,
          value: describeAmount(n.inValue, 9, "Gram"),
          accounts: [source, n.account],
        },
        [n],
        [source, n.account],
        [source, n.account],
        [
          [source, -n.inValue],
          [n.account, n.inValue],
        ],
      )
      continue
    }
    if (op === OP.excesses) continue
    if (n.origStatus === "active" && !info.isWallet && n.inValue > 0n) {
      push(
        "SmartContractExec",
        n.success ? "ok" : "failed",
        {
          executor: ctx.accountAddress(source),
          contract: ctx.accountAddress(n.account),
          gram_attached: Number(n.inValue),
          ton_attached: Number(n.inValue),
          operation: opHex(op),
          ...(body ? { payload: cellHex(body) } : {}),
        },
        {
          name: "Smart Contract Execution",
          description: `Execution of smart contract ${opHex(op)}`,
          value: describeAmount(n.inValue, 9, "Gram"),
          accounts: [source, n.account],
        },
        [n],
        [source, n.account],
        [source, n.account],
        [
          [source, -n.inValue],
          [n.account, n.inValue],
        ],
      )
      continue
    }
    deploys(n)
    if (n.origStatus !== "active" && n.endStatus === "active") continue
    push(
      "Unknown",
      n.success ? "ok" : "failed",
      {},
      { name: "Unknown", description: "Something happened but we don't understand what.", accounts: [n.account] },
      [n],
      [source, n.account],
      [n.account],
    )
  }
  return { actions, accounts }
}
