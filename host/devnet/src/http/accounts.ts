// tonapi routes about accounts: accounts, their jettons, NFTs and events, wallet seqno and emulation,
// sending messages, DNS, get-methods; and the event, trace and NFT lookups by id.
import type { TupleItem } from "@ton/core"
import type { Devnet } from "../devnet.ts"
import { ApiError } from "../util.ts"
import { bodyObj, bodyString, boc, bool, int, list, parseArg, parseTypedArg, stackRecord } from "./params.ts"
import type { On } from "./router.ts"
import type { Views } from "./views.ts"

export const accountRoutes = (on: On, devnet: Devnet, { jettonBalanceJson, nftJson, riskOf, accountEventOf }: Views): void => {
  // accounts
  on("POST", "/v2/accounts/_bulk", async ({ body }) => {
    const ids = bodyObj(body).account_ids
    if (!Array.isArray(ids)) throw new ApiError(400, "account_ids is required")
    return { accounts: await Promise.all(ids.map((id) => devnet.account(String(id)))) }
  })
  on("GET", "/v2/accounts/{account_id}", async ({ params }) => devnet.account(params.account_id!))
  on("GET", "/v2/accounts/{account_id}/dns/backresolve", async ({ params }) => {
    const a = devnet.parseRaw(params.account_id!)
    return {
      domains: Object.entries(devnet.meta.dns)
        .filter(([, v]) => v === a)
        .map(([k]) => k),
    }
  })
  on("GET", "/v2/accounts/{account_id}/nfts", async ({ params, query }) => {
    const a = devnet.parseRaw(params.account_id!)
    const collection = query.get("collection")
    const col = collection ? devnet.parseRaw(collection) : undefined
    const limit = int(query, "limit", { min: 1, max: 1000 }) ?? 1000
    const offset = int(query, "offset", { min: 0 }) ?? 0
    const items = (await devnet.nftItems()).filter((i) => i.owner === a && (!col || i.collection === col))
    return { nft_items: await Promise.all(items.slice(offset, offset + limit).map(nftJson)) }
  })
  on("GET", "/v2/accounts/{account_id}/jettons/history", async ({ params, query }) => {
    const a = devnet.parseRaw(params.account_id!)
    const beforeLt = int(query, "before_lt")
    return devnet.jettonHistory(a, { limit: int(query, "limit", { required: true, min: 1, max: 1000 })!, ...(beforeLt !== undefined ? { beforeLt } : {}) })
  })
  on("GET", "/v2/accounts/{account_id}/jettons", async ({ params, query }) => {
    const a = devnet.parseRaw(params.account_id!)
    const currencies = list(query, "currencies")
    const balances = []
    for (const m of devnet.jettonMasters()) {
      const bal = await devnet.jettonBalance(m, a)
      if (bal) balances.push(await jettonBalanceJson(a, m, currencies))
    }
    return { balances }
  })
  on("GET", "/v2/accounts/{account_id}/jettons/{jetton_id}", async ({ params, query }) => {
    const a = devnet.parseRaw(params.account_id!)
    const m = devnet.parseRaw(params.jetton_id!)
    if (!devnet.meta.jettons[m]) throw new ApiError(404, "jetton not found")
    return jettonBalanceJson(a, m, list(query, "currencies"))
  })
  on("GET", "/v2/accounts/{account_id}/events", async ({ params, query }) => {
    const a = devnet.parseRaw(params.account_id!)
    const limit = int(query, "limit", { required: true, min: 1, max: 100 })!
    const beforeLt = int(query, "before_lt")
    const afterLt = int(query, "after_lt")
    const startDate = int(query, "start_date")
    const endDate = int(query, "end_date")
    const sort = query.get("sort_order") ?? "desc"
    if (sort !== "asc" && sort !== "desc") throw new ApiError(400, "sort_order must be asc or desc")
    return devnet.listEvents(a, {
      limit,
      subjectOnly: bool(query, "subject_only"),
      initiator: bool(query, "initiator"),
      asc: sort === "asc",
      ...(beforeLt !== undefined ? { beforeLt } : {}),
      ...(afterLt !== undefined ? { afterLt } : {}),
      ...(startDate !== undefined ? { startDate } : {}),
      ...(endDate !== undefined ? { endDate } : {}),
    })
  })
  on("POST", "/v2/accounts/{account_id}/events/emulate", async ({ params, body, query }) => {
    const a = devnet.parseRaw(params.account_id!)
    const em = await devnet.emulate(boc(bodyString(bodyObj(body), "boc")), { ignoreChksig: bool(query, "ignore_signature_check") })
    return accountEventOf(em, a)
  })
  on("GET", "/v2/accounts/{account_id}/events/{event_id}", async ({ params, query }) => {
    const a = devnet.parseRaw(params.account_id!)
    const e = devnet.accountEvent(a, params.event_id!, bool(query, "subject_only"))
    if (!e) throw new ApiError(404, "event not found")
    return e
  })
  on("GET", "/v2/jettons/{jetton_id}/accounts/{account_id}/history", async ({ params, query }) => {
    const a = devnet.parseRaw(params.account_id!)
    const m = devnet.parseRaw(params.jetton_id!)
    const beforeLt = int(query, "before_lt")
    const startDate = int(query, "start_date")
    const endDate = int(query, "end_date")
    return devnet.jettonHistory(a, {
      master: m,
      limit: int(query, "limit", { required: true, min: 1, max: 1000 })!,
      ...(beforeLt !== undefined ? { beforeLt } : {}),
      ...(startDate !== undefined ? { startDate } : {}),
      ...(endDate !== undefined ? { endDate } : {}),
    })
  })

  // wallet and emulation
  on("GET", "/v2/wallet/{account_id}/seqno", async ({ params }) => ({ seqno: await devnet.seqno(params.account_id!) }))
  on("POST", "/v2/wallet/emulate", async ({ body }) => {
    const b = bodyObj(body)
    const cell = boc(bodyString(b, "boc"))
    const overrides = Array.isArray(b.params)
      ? (b.params as Array<{ address?: string; balance?: number | string }>).flatMap((p) =>
          p.address && p.balance !== undefined ? [{ address: devnet.parseRaw(p.address), balance: BigInt(p.balance) }] : [],
        )
      : []
    const em = await devnet.emulate(cell, { ignoreChksig: true, balanceOverride: overrides })
    return { trace: em.record.trace, risk: await riskOf(em), event: accountEventOf(em, em.rootAccount) }
  })
  on("POST", "/v2/events/emulate", async ({ body, query }) => {
    const em = await devnet.emulate(boc(bodyString(bodyObj(body), "boc")), { ignoreChksig: bool(query, "ignore_signature_check") })
    return em.record.event
  })
  on("POST", "/v2/blockchain/message", async ({ body }) => {
    const b = bodyObj(body)
    const bocs: string[] = []
    if (typeof b.boc === "string" && b.boc) bocs.push(b.boc)
    if (Array.isArray(b.batch)) {
      if (b.batch.length > 5) throw new ApiError(400, "batch holds at most 5 messages")
      for (const x of b.batch) bocs.push(String(x))
    }
    if (bocs.length === 0) throw new ApiError(400, "boc or batch is required")
    for (const s of bocs) await devnet.submit(boc(s))
    return undefined
  })

  // dns
  on("GET", "/v2/dns/{domain_name}/resolve", async ({ params }) => {
    const name = decodeURIComponent(params.domain_name!).toLowerCase()
    const a = devnet.meta.dns[name]
    if (!a) throw new ApiError(404, "domain not found")
    const info = await devnet.info(a)
    return {
      wallet: {
        address: a,
        account: devnet.accountAddress(a),
        is_wallet: info.isWallet,
        has_method_pubkey: info.isWallet,
        has_method_seqno: info.isWallet,
        names: [name],
      },
      sites: [],
    }
  })

  // blockchain
  const runGet = async (id: string, method: string, args: TupleItem[]) => {
    try {
      const r = await devnet.runGet(id, method, args)
      return { success: r.exitCode === 0 || r.exitCode === 1, exit_code: r.exitCode, stack: r.stack.map(stackRecord) }
    } catch (e) {
      const code = (e as { exitCode?: number }).exitCode
      if (typeof code === "number") return { success: false, exit_code: code, stack: [] }
      throw e
    }
  }
  on("GET", "/v2/blockchain/accounts/{account_id}/methods/{method_name}", async ({ params, query }) =>
    runGet(params.account_id!, params.method_name!, list(query, "args").map(parseArg)),
  )
  on("POST", "/v2/blockchain/accounts/{account_id}/methods/{method_name}", async ({ params, body }) => {
    const args = bodyObj(body).args
    if (!Array.isArray(args)) throw new ApiError(400, "args is required")
    return runGet(params.account_id!, params.method_name!, (args as Array<{ type: string; value: string }>).map(parseTypedArg))
  })
  on("GET", "/v2/blockchain/accounts/{account_id}", async ({ params }) => devnet.rawAccount(params.account_id!))
}

export const lookupRoutes = (on: On, devnet: Devnet, { nftJson }: Views): void => {
  // events, traces, nfts
  on("GET", "/v2/events/{event_id}", async ({ params }) => {
    const t = devnet.trace(params.event_id!)
    if (!t) throw new ApiError(404, "event not found")
    return t.event
  })
  on("GET", "/v2/traces/{trace_id}", async ({ params }) => {
    const t = devnet.trace(params.trace_id!)
    if (!t) throw new ApiError(404, "trace not found")
    return t.trace
  })
  on("GET", "/v2/nfts/{account_id}", async ({ params }) => {
    const item = await devnet.nftItem(devnet.parseRaw(params.account_id!))
    if (!item) throw new ApiError(404, "nft item not found")
    return nftJson(item)
  })
}
