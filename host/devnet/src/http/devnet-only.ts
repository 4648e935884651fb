// Routes only the devnet has: the faucet, the simulated networks (tron, ethereum, solana, bitcoin)
// and /v2/devnet/info.
import type { Devnet } from "../devnet.ts"
import { SIM_ASSETS, SIM_FAUCETS, type SimNetwork, type SimNetworks, simTransferJson } from "../sim.ts"
import { ApiError } from "../util.ts"
import { bodyObj, bodyString, int, positiveAmount, simNetwork } from "./params.ts"
import type { On } from "./router.ts"

export const devnetRoutes = (on: On, devnet: Devnet, sim: SimNetworks | undefined): void => {
  // devnet-only
  const extraCurrencyRequest = (value: unknown): { id: number; amount: bigint } => {
    const o = value !== null && typeof value === "object" ? (value as Record<string, unknown>) : undefined
    const id = Number(o?.id)
    const amount = o?.amount
    if (!o || !Number.isInteger(id) || (typeof amount !== "string" && typeof amount !== "number") || !/^\d+$/.test(String(amount))) {
      throw new ApiError(400, "extraCurrency must be { id: integer, amount: minor units }")
    }
    return { id, amount: BigInt(String(amount)) }
  }
  on("POST", "/v2/devnet/faucet", async ({ body }) => {
    const b = bodyObj(body)
    const address = bodyString(b, "address")
    if (typeof b.network === "string" && b.network !== "ton") {
      // A simulated network: { address, network, asset?, amount? }
      const network = simNetwork(b.network)
      const t = sims().faucet(network, address, typeof b.asset === "string" ? b.asset : undefined, positiveAmount(b.amount, "amount"))
      return { message_hash: t.id, transfer: simTransferJson(t) }
    }
    const ton = b.ton !== undefined ? BigInt(String(b.ton)) : undefined
    const amount = b.amount !== undefined ? BigInt(String(b.amount)) : undefined
    const r = await devnet.faucet({
      address,
      ...(ton !== undefined ? { ton } : {}),
      ...(typeof b.jetton === "string" ? { jetton: b.jetton } : {}),
      ...(amount !== undefined ? { amount } : {}),
      ...(b.nft === true ? { nft: true } : {}),
      ...(typeof b.name === "string" ? { name: b.name } : {}),
      ...(b.extraCurrency !== undefined ? { extraCurrency: extraCurrencyRequest(b.extraCurrency) } : {}),
    })
    if (typeof b.dns === "string") devnet.registerDns(b.dns, address)
    return r
  })
  // devnet-only: simulated networks (tron, ethereum, solana, bitcoin)
  const sims = (): SimNetworks => {
    if (!sim) throw new ApiError(404, "simulated networks are off")
    return sim
  }
  on("GET", "/v2/devnet/sim/{network}", async ({ params }) => {
    const network = simNetwork(params.network!)
    return { network, height: sims().height(network), faucet: SIM_FAUCETS[network], assets: SIM_ASSETS[network] }
  })
  on("GET", "/v2/devnet/sim/{network}/accounts/{address}", async ({ params }) => {
    const network = simNetwork(params.network!)
    return { address: params.address!, balances: sims().balances(network, params.address!) }
  })
  on("GET", "/v2/devnet/sim/{network}/transfers", async ({ params, query }) => {
    const network = simNetwork(params.network!)
    const address = query.get("address")
    const r = sims().list(network, {
      limit: int(query, "limit", { min: 1, max: 1000 }) ?? 100,
      afterSeq: int(query, "after_seq", { min: 0 }) ?? 0,
      ...(address ? { address } : {}),
    })
    return { transfers: r.transfers.map(simTransferJson), next_seq: r.nextSeq, height: sims().height(network) }
  })
  on("GET", "/v2/devnet/sim/{network}/transfers/{id}", async ({ params }) => {
    const t = sims().transfer(simNetwork(params.network!), params.id!)
    if (!t) throw new ApiError(404, "transfer not found")
    return simTransferJson(t)
  })
  on("GET", "/v2/devnet/sim/{network}/keys/{key}", async ({ params }) => {
    const t = sims().byKey(simNetwork(params.network!), params.key!)
    if (!t) throw new ApiError(404, "no transfer with this key")
    return simTransferJson(t)
  })
  on("POST", "/v2/devnet/sim/{network}/transfers", async ({ params, body }) => {
    const network = simNetwork(params.network!)
    const b = bodyObj(body)
    const amount = positiveAmount(b.amount, "amount")
    if (amount === undefined) throw new ApiError(400, "amount is required")
    const t = sims().submit(network, {
      from: bodyString(b, "from"),
      to: bodyString(b, "to"),
      asset: bodyString(b, "asset"),
      amount,
      memo: typeof b.memo === "string" && b.memo !== "" ? b.memo : null,
      key: typeof b.key === "string" && b.key !== "" ? b.key : null,
    })
    return simTransferJson(t)
  })
  on("POST", "/v2/devnet/sim/{network}/faucet", async ({ params, body }) => {
    const network = simNetwork(params.network!)
    const b = bodyObj(body)
    return simTransferJson(
      sims().faucet(network, bodyString(b, "address"), typeof b.asset === "string" ? b.asset : undefined, positiveAmount(b.amount, "amount")),
    )
  })

  on("GET", "/v2/devnet/info", async () => ({
    global_id: devnet.meta.globalId,
    block_seqno: devnet.meta.blockSeqno,
    pending: devnet.pendingCount,
    faucet: devnet.meta.faucet,
    jettons: Object.fromEntries(
      Object.entries(devnet.meta.jettons).map(([a, j]) => [
        j.key,
        { address: a, friendly: devnet.friendly(a), symbol: j.symbol, decimals: j.decimals, verification: j.verification },
      ]),
    ),
    nft_collection: devnet.meta.collection,
    relay: devnet.meta.relay,
    staking_pool: devnet.meta.pool,
    dns: devnet.meta.dns,
    ...(sim
      ? {
          sim: Object.fromEntries(
            Object.entries(SIM_FAUCETS).map(([n, faucet]) => [n, { faucet, height: sim.height(n as SimNetwork), assets: SIM_ASSETS[n as SimNetwork] }]),
          ),
        }
      : {}),
  }))
}
