// tonapi routes about prices and services: rates and the rate chart, jetton info, gasless transfers
// through the devnet relay, the staking pool.
import { Address, beginCell, loadMessage, loadMessageRelaxed, loadOutList, storeStateInit, toNano } from "@ton/core"
import { type Devnet, TON_PRICE_USD } from "../devnet.ts"
import { ApiError, cellHex, raw } from "../util.ts"
import { bodyObj, bodyString, boc, int, list } from "./params.ts"
import type { On } from "./router.ts"

/** First rate of the devnet's chart (2019-11-15, TON's mainnet launch). */
const CHART_LISTED_AT = 1_573_776_000
/** TON's synthetic price moves: a ±3 % swing over about 3 days and a ±15 % one over about a year. */
const CHART_WAVES: ReadonlyArray<{ amplitude: number; period: number }> = [
  { amplitude: 0.03, period: 43_200 },
  { amplitude: 0.15, period: 86_400 * 60 },
]
/**
 * The price factor averaged over a point's interval [a, b] (each point is the mean rate of its step,
 * so a year's chart shows the slow wave instead of aliasing the fast one): mean of sin(t/p) over
 * [a, b] is p (cos(a/p) - cos(b/p)) / (b - a).
 */
const chartWobble = (a: number, b: number, now: number): number =>
  // Anchored so the factor is 1 at `now`: the chart ends at the price /v2/rates answers.
  1 +
  CHART_WAVES.reduce(
    (sum, w) =>
      sum +
      w.amplitude * ((b > a ? (w.period * (Math.cos(a / w.period) - Math.cos(b / w.period))) / (b - a) : Math.sin(b / w.period)) - Math.sin(now / w.period)),
    0,
  )

export const marketRoutes = (on: On, devnet: Devnet): void => {
  // rates
  on("GET", "/v2/rates", async ({ query }) => {
    const tokens = list(query, "tokens")
    const currencies = list(query, "currencies")
    if (!tokens.length || !currencies.length) throw new ApiError(400, "tokens and currencies are required")
    return { rates: devnet.rates(tokens, currencies) }
  })
  on("GET", "/v2/rates/chart", async ({ query }) => {
    const token = query.get("token")
    if (!token) throw new ApiError(400, "token is required")
    const usd = devnet.priceUsd(token)
    if (usd === undefined) throw new ApiError(404, "token not found")
    const cur = (query.get("currency") ?? "usd").toLowerCase()
    const rate = cur === "ton" || cur === "gram" ? 1 / TON_PRICE_USD : (devnet.fiatRate(cur) ?? 1)
    const now = Math.floor(Date.now() / 1000)
    const end = int(query, "end_date") ?? now
    // Rates exist from the listing date on (TON's mainnet launch): "all time" starts there, not at 1970.
    const start = Math.max(int(query, "start_date") ?? end - 7 * 86400, CHART_LISTED_AT)
    const count = Math.max(1, int(query, "points_count", { min: 0, max: 200 }) ?? 200)
    const step = Math.max(1, Math.floor((end - start) / count))
    const points: Array<[number, number]> = []
    for (let i = 0; i < count; i++) {
      const t = end - i * step
      if (t < start) break
      const wobble = token.toLowerCase() === "ton" ? chartWobble(t - step, t, now) : 1
      points.push([t, usd * rate * wobble])
    }
    return { points }
  })

  // jettons
  on("GET", "/v2/jettons/{account_id}", async ({ params }) => {
    const m = devnet.parseRaw(params.account_id!)
    const j = devnet.meta.jettons[m]
    if (!j) throw new ApiError(404, "jetton not found")
    const data = await devnet.jettonData(m)
    return {
      mintable: data.mintable,
      total_supply: data.totalSupply.toString(),
      ...(data.admin ? { admin: devnet.accountAddress(data.admin) } : {}),
      metadata: { address: m, name: j.name, symbol: j.symbol, decimals: String(j.decimals), image: j.image, description: j.description },
      preview: j.image,
      verification: j.verification,
      holders_count: devnet.holdersCount(m),
    }
  })

  // gasless
  on("GET", "/v2/gasless/config", async () => ({
    relay_address: devnet.relayAddress(),
    gas_jettons: devnet
      .jettonMasters()
      .filter((m) => devnet.meta.jettons[m]?.verification === "whitelist")
      .map((m) => ({ master_id: m })),
  }))
  on("POST", "/v2/gasless/estimate/{master_id}", async ({ params, body }) => {
    const b = bodyObj(body)
    const master = devnet.parseRaw(params.master_id!)
    const meta = devnet.meta.jettons[master]
    if (!meta || meta.verification !== "whitelist") throw new ApiError(400, "this jetton can't pay for gas")
    const from = devnet.parseRaw(bodyString(b, "wallet_address"))
    bodyString(b, "wallet_public_key")
    const messages = b.messages
    if (!Array.isArray(messages) || messages.length === 0) throw new ApiError(400, "messages are required")
    const out = (messages as Array<{ boc?: string }>).map((m) => {
      const msg = loadMessageRelaxed(boc(String(m.boc ?? "")).beginParse())
      if (msg.info.type !== "internal") throw new ApiError(400, "messages must be internal")
      return {
        address: raw(msg.info.dest as Address),
        amount: msg.info.value.coins.toString(),
        ...(msg.body.bits.length || msg.body.refs.length ? { payload: cellHex(msg.body) } : {}),
        ...(msg.init ? { stateInit: cellHex(beginCell().store(storeStateInit(msg.init)).endCell()) } : {}),
      }
    })
    const gasTon = toNano("0.05") * BigInt(out.length + 1)
    const commission = BigInt(Math.ceil((((Number(gasTon) / 1e9) * TON_PRICE_USD) / meta.priceUsd) * 10 ** meta.decimals))
    const userJettonWallet = await devnet.jettonWalletAddress(master, from)
    const relay = Address.parse(devnet.relayAddress())
    const commissionBody = beginCell()
      .storeUint(0x0f8a7ea5, 32)
      .storeUint(0, 64)
      .storeCoins(commission)
      .storeAddress(relay)
      .storeAddress(relay)
      .storeMaybeRef(null)
      .storeCoins(1n)
      .storeBit(false)
      .endCell()
    out.push({ address: userJettonWallet, amount: toNano("0.05").toString(), payload: cellHex(commissionBody) })
    return {
      protocol_name: "gasless",
      relay_address: devnet.relayAddress(),
      commission: commission.toString(),
      from,
      valid_until: Math.floor(Date.now() / 1000) + 300,
      messages: out,
    }
  })
  on("POST", "/v2/gasless/send", async ({ body }) => {
    const b = bodyObj(body)
    const cell = boc(bodyString(b, "boc"))
    // value the relay attaches: what the signed actions send, plus gas
    let value = toNano("0.2")
    try {
      const msg = loadMessage(cell.beginParse())
      const s = msg.body.beginParse()
      s.skip(32 + 32 + 32 + 32)
      const outList = s.loadMaybeRef()
      if (outList) {
        const actions = loadOutList(outList.beginParse())
        value = actions.reduce((sum, a) => sum + (a.type === "sendMsg" && a.outMsg.info.type === "internal" ? a.outMsg.info.value.coins : 0n), toNano("0.05"))
      }
    } catch {
      // keep the default
    }
    const hash = await devnet.gaslessSend(cell, value)
    return { protocol_name: "gasless", external: hash }
  })

  // staking
  on("GET", "/v2/staking/pool/{account_id}", async ({ params }) => {
    const a = devnet.parseRaw(params.account_id!)
    if (a !== devnet.meta.pool) throw new ApiError(404, "pool not found")
    const acc = await devnet.account(a)
    const now = Math.floor(Date.now() / 1000)
    const cycleStart = now - (now % 65536)
    return {
      implementation: {
        name: "Tonstakers",
        description: "Liquid staking (devnet stand-in)",
        url: "https://tonstakers.com",
        socials: ["https://t.me/tonstakers"],
      },
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
    }
  })
}
