/**
 * Custody on chain end to end: an in-process devnet (manual blocks) and the real API server
 * (`@wallet/host-server`, PGlite in memory, dev mode) with the watcher and processor polling every 40 ms.
 */
import { randomUUID } from "node:crypto"
import { Address } from "@ton/core"
import { keyPairFromSeed } from "@ton/crypto"
import { WalletContractV5R1 } from "@ton/ton"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startDevnet, type RunningDevnet } from "@wallet/devnet"
import { DEV_BOT_TOKEN, startServer, type HostServer } from "@wallet/host-server"
import { signInitData } from "@wallet/kernel-server"
import { probePlugin } from "../testSupport.ts"
import { DEV_MASTER_SEED } from "./config.ts"
import { simHotAddress } from "./sim.ts"
import { tonHotWalletAddress } from "./ton.ts"
import { Redacted } from "effect"

const POLL_MS = 40
const TON = 1_000_000_000n
const USDT = 1_000_000n

interface Reply {
  readonly status: number
  readonly body: any
}

/** An outside wallet (nobody's deposit address), not deployed. */
const outsideWallet = (n: number) =>
  WalletContractV5R1.create({ publicKey: keyPairFromSeed(Buffer.alloc(32, n)).publicKey, walletId: { networkGlobalId: -239 } }).address

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe("custody on chain (devnet + server)", { timeout: 60_000 }, () => {
  let dn: RunningDevnet
  let server: HostServer
  const savedEnv = { ...process.env }
  let nextUser = 9_300_000_001

  beforeAll(async () => {
    dn = await startDevnet({ port: 0, blockMs: 0 })
    process.env.CHAIN_API_URL = dn.url
    process.env.CUSTODY_CHAIN_POLL_MS = String(POLL_MS)
    server = await startServer({ port: 0, dataDir: "memory", dev: true, enabledPlugins: ["custody"], plugins: [probePlugin], chainApiUrl: dn.url })
  }, 120_000)

  afterAll(async () => {
    await server?.close()
    await dn?.close()
    process.env = savedEnv
  })

  const request = async (method: string, path: string, body?: unknown, token?: string): Promise<Reply> => {
    const response = await fetch(`${server.url}${path}`, {
      method,
      headers: { ...(token === undefined ? {} : { authorization: `Bearer ${token}` }), ...(body === undefined ? {} : { "content-type": "application/json" }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
    const text = await response.text()
    return { status: response.status, body: text === "" ? undefined : JSON.parse(text) }
  }

  const signIn = async () => {
    const id = nextUser++
    const initData = signInitData(
      { user: { id, first_name: "Chain", username: `chain_${id}`, language_code: "en" }, authDate: new Date(), queryId: randomUUID(), chatType: "sender" },
      DEV_BOT_TOKEN,
    )
    const auth = await fetch(`${server.url}/api/auth/init`, { method: "POST", headers: { authorization: `tma ${initData}` } })
    expect(auth.status).toBe(200)
    const { access_token: token } = (await auth.json()) as { access_token: string }
    return {
      id,
      get: (path: string) => request("GET", path, undefined, token),
      post: (path: string, body?: unknown) => request("POST", path, body, token),
    }
  }
  type User = Awaited<ReturnType<typeof signIn>>

  const balance = async (user: User, currency: string) => {
    const reply = await request("GET", `/api/custody-probe/balance/${user.id}/${currency}`)
    return reply.status === 200 ? { available: BigInt(reply.body.available), held: BigInt(reply.body.held) } : { available: 0n, held: 0n }
  }

  /** Waits (stepping blocks when asked) until `check` holds; the watcher and processor poll on their own. */
  const until = async (check: () => Promise<boolean>, options: { readonly blocks?: boolean; readonly timeoutMs?: number } = {}) => {
    const deadline = Date.now() + (options.timeoutMs ?? 30_000)
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error("condition not reached in time")
      if (options.blocks) await dn.stepBlock()
      await sleep(POLL_MS * 2)
    }
  }

  const depositAddress = async (user: User, currency: string, network: string) => {
    const reply = await user.post(`/api/custody/wallets/${currency}?network=${network}`)
    expect(reply.status, JSON.stringify(reply.body)).toBe(200)
    const entry = reply.body.addresses.find((a: { network_code: string }) => a.network_code === network)
    expect(entry).toBeDefined()
    return entry.address as string
  }

  const withdraw = (user: User, body: Record<string, unknown>) =>
    user.post("/api/custody/withdrawals", { max_value: false, comment: "", idempotency_key: randomUUID(), ...body })

  const withdrawal = async (user: User, id: string) => (await user.get(`/api/custody/withdrawals/${id}`)).body

  const audit = async () => (await request("GET", "/api/custody-probe/audit")).body as { ok: boolean; violations: ReadonlyArray<unknown> }

  it("gives each user one stable TON deposit address and others per network", async () => {
    const alice = await signIn()
    const bob = await signIn()
    const a = await depositAddress(alice, "TON", "ton")
    expect(await depositAddress(alice, "TON", "ton")).toBe(a)
    expect(await depositAddress(bob, "TON", "ton")).not.toBe(a)
    expect(Address.parseFriendly(a).isBounceable).toBe(false)
    const usdt = await alice.post("/api/custody/wallets/USDT?network=tron")
    expect(usdt.body.addresses.map((x: { network_code: string }) => x.network_code).sort()).toEqual(["ton", "tron"])
    expect(usdt.body.addresses.find((x: { network_code: string }) => x.network_code === "tron").address).toMatch(/^T[1-9A-HJ-NP-Za-km-z]{33}$/)
    expect((await alice.post("/api/custody/wallets/BTC?network=ton")).body.code).toBe("unsupported_network")
    // Restricted users get no new address and cannot withdraw (spec 1 §6 access flags).
    await server.sql("update kernel_users set restriction_code = 'FUNCTIONALITY_RESTRICTION' where id = $1", [bob.id])
    const refused = await bob.post("/api/custody/wallets/USDT?network=ton")
    expect([refused.status, refused.body.code]).toEqual([403, "user_restricted"])
    const refusedWithdrawal = await bob.post("/api/custody/withdrawals", {
      amount: "1",
      currency: "TON",
      max_value: false,
      address: a,
      network: "ton",
      idempotency_key: randomUUID(),
    })
    expect([refusedWithdrawal.status, refusedWithdrawal.body.code]).toEqual([403, "user_restricted"])
    expect((await alice.post("/api/custody/wallets/TSLAx?network=ton")).body.code).toBe("unsupported_currency")
  })

  it("credits a TON and a USD₮ deposit once, only when final", async () => {
    const user = await signIn()
    const address = await depositAddress(user, "TON", "ton")
    await dn.faucet({ address, ton: 5n * TON })
    // In the mempool: the events show in_progress; nothing may be credited.
    await sleep(POLL_MS * 8)
    expect((await balance(user, "TON")).available).toBe(0n)
    await dn.stepBlock()
    await until(async () => (await balance(user, "TON")).available === 5n * TON)

    await dn.faucet({ address, jetton: "usdt", amount: 25n * USDT })
    await dn.stepBlock()
    await until(async () => (await balance(user, "USDT")).available === 25n * USDT)

    // The watcher reads the same events again from scratch: still credited once.
    await server.sql("update custody_chain_addresses set cursor = null")
    await sleep(POLL_MS * 10)
    const seen = await server.sql("select cursor from custody_chain_addresses where user_id = $1 and network = 'ton'", [user.id])
    expect(seen[0]!.cursor).not.toBeNull()
    expect((await balance(user, "TON")).available).toBe(5n * TON)
    expect((await balance(user, "USDT")).available).toBe(25n * USDT)
    const deposits = await server.sql("select currency, amount::text as amount from custody_chain_deposits where user_id = $1 order by id", [user.id])
    expect(deposits).toEqual([
      { currency: "TON", amount: "5000000000" },
      { currency: "USDT", amount: "25000000" },
    ])
    expect((await audit()).ok).toBe(true)
  })

  it("checks addresses per network with the spec's codes", async () => {
    const user = await signIn()
    const own = await depositAddress(user, "TON", "ton")
    const check = async (currency: string, network: string, address: string) => {
      const reply = await user.get(`/api/custody/addresses/validate?currency=${currency}&network=${network}&address=${encodeURIComponent(address)}`)
      return reply.status === 200 ? "ok" : reply.body.code
    }
    const outside = outsideWallet(41).toString({ bounceable: false })
    expect(await check("TON", "ton", outside)).toBe("ok")
    expect(await check("TON", "ton", own)).toBe("withdraw_to_yourself_is_forbidden")
    expect(
      await check("TON", "ton", tonHotWalletAddress({ masterSeed: Redacted.make(new TextEncoder().encode(DEV_MASTER_SEED)), globalId: -239 } as never)),
    ).toBe("address_forbidden")
    expect(await check("TON", "ton", outside.slice(0, 30))).toBe("invalid_number_of_characters")
    expect(await check("TON", "ton", `${outside.slice(0, 47)}${outside.endsWith("A") ? "B" : "A"}`)).toBe("invalid_address")
    expect(await check("TON", "ton", "faucet.ton")).toBe("ok")
    expect(await check("TON", "ton", "nobody-here.ton")).toBe("invalid_domain")
    expect(await check("TON", "ton", "vitalik.eth")).toBe("invalid_web3_domain")
    expect(await check("USDT", "tron", "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t")).toBe("ok")
    expect(await check("USDT", "tron", "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u")).toBe("invalid_address")
    expect(await check("USDT", "tron", await depositAddress(user, "USDT", "tron"))).toBe("withdraw_to_yourself_is_forbidden")
    expect(await check("ETH", "ethereum", "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed")).toBe("ok")
    expect(await check("ETH", "ethereum", "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD")).toBe("invalid_address")
    expect(await check("SOL", "solana", "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v")).toBe("ok")
    expect(await check("BTC", "bitcoin", "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq")).toBe("ok")
    expect(await check("BTC", "bitcoin", "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdp")).toBe("invalid_address")
    expect(await check("BTC", "bitcoin", simHotAddress("bitcoin", { masterSeed: Redacted.make(new TextEncoder().encode(DEV_MASTER_SEED)) } as never))).toBe(
      "address_forbidden",
    )
  })

  it("withdraws TON and USD₮ from the hot wallet, posts when final, voids a bounced one", async () => {
    const user = await signIn()
    const address = await depositAddress(user, "TON", "ton")
    await dn.faucet({ address, ton: 10n * TON, jetton: "usdt", amount: 50n * USDT })
    await dn.stepBlock()
    await until(async () => (await balance(user, "TON")).available === 10n * TON && (await balance(user, "USDT")).available === 50n * USDT)

    const limits = (await user.get("/api/custody/withdrawals/limits?currency=TON&network=ton")).body
    expect(limits).toMatchObject({ fee: "10000000", min_amount: "10000000", max_sendable: "9990000000", decimals: 9 })

    const receiver = outsideWallet(51)
    const key = randomUUID()
    const body = {
      amount: String(2n * TON),
      currency: "TON",
      address: receiver.toString({ bounceable: false }),
      comment: "to savings",
      network: "ton",
      idempotency_key: key,
    }
    const created = await withdraw(user, body)
    expect(created.status, JSON.stringify(created.body)).toBe(200)
    expect(created.body.kind).toBe("transaction")
    const id = created.body.transaction.id as string
    expect(created.body.transaction).toMatchObject({
      status: "pending",
      amount: "2000000000",
      fee: "10000000",
      total: "2010000000",
      gateway: "withdraw_onchain",
    })
    expect(await balance(user, "TON")).toEqual({ available: 10n * TON - 2_010_000_000n, held: 2_010_000_000n })
    // A retry answers the same withdrawal; another body under the key is a conflict.
    expect((await withdraw(user, body)).body.transaction.id).toBe(id)
    expect((await withdraw(user, { ...body, amount: String(3n * TON) })).body.code).toBe("idempotency_conflict")

    const jetton = await withdraw(user, { amount: String(7n * USDT), currency: "USDT", address: receiver.toString({ bounceable: false }), network: "ton" })
    expect(jetton.status, JSON.stringify(jetton.body)).toBe(200)
    const jettonId = jetton.body.transaction.id as string

    await until(async () => (await withdrawal(user, id)).status === "success" && (await withdrawal(user, jettonId)).status === "success", { blocks: true })
    const done = await withdrawal(user, id)
    expect(done.tx_hash).toMatch(/^[0-9a-f]{64}$/)
    expect(await balance(user, "TON")).toEqual({ available: 10n * TON - 2_010_000_000n, held: 0n })
    expect(await balance(user, "USDT")).toEqual({ available: 50n * USDT - 7n * USDT - 200_000n, held: 0n })
    const onChain = await (await fetch(`${dn.url}/v2/accounts/${receiver.toRawString()}`)).json()
    expect(onChain.balance).toBe(2_000_000_000)
    const jettons = await (await fetch(`${dn.url}/v2/accounts/${receiver.toRawString()}/jettons/${dn.jetton("usdt")}`)).json()
    expect(jettons.balance).toBe("7000000")
    const event = await (await fetch(`${dn.url}/v2/events/${done.tx_hash}`)).json()
    expect(event.actions.some((a: any) => a.TonTransfer?.comment === "to savings")).toBe(true)

    // Bounceable form of an undeployed wallet: the transfer bounces, the hold is voided, the balance comes back.
    const before = await balance(user, "TON")
    const bounced = await withdraw(user, { amount: String(TON), currency: "TON", address: outsideWallet(52).toString({ bounceable: true }), network: "ton" })
    const bouncedId = bounced.body.transaction.id as string
    expect((await balance(user, "TON")).held).toBe(1_010_000_000n)
    await until(async () => (await withdrawal(user, bouncedId)).status === "fail", { blocks: true })
    expect((await withdrawal(user, bouncedId)).failure_reason).toMatch(/bounced/)
    expect(await balance(user, "TON")).toEqual(before)

    expect((await withdraw(user, { amount: String(100n * TON), currency: "TON", address: receiver.toString(), network: "ton" })).body.code).toBe(
      "insufficient_funds",
    )
    expect((await withdraw(user, { amount: "1", currency: "TON", address: receiver.toString(), network: "ton" })).body.code).toBe("amount_too_small")
    expect((await withdraw(user, { amount: "1", currency: "TON", address: address, network: "ton" })).body.code).toBe("withdraw_to_yourself_is_forbidden")
    expect((await audit()).ok).toBe(true)
  })

  it("deposits and withdraws USDT on a simulated network (tron)", async () => {
    const user = await signIn()
    const address = await depositAddress(user, "USDT", "tron")
    dn.simFaucet({ network: "tron", address, asset: "USDT", amount: 30n * USDT })
    await sleep(POLL_MS * 6)
    expect((await balance(user, "USDT")).available).toBe(0n)
    await dn.stepBlock()
    await until(async () => (await balance(user, "USDT")).available === 30n * USDT)
    // A rescan from the start of the network credits nothing twice.
    await server.sql("delete from custody_chain_cursors where network = 'tron'")
    await sleep(POLL_MS * 8)
    expect((await balance(user, "USDT")).available).toBe(30n * USDT)

    const to = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"
    const created = await withdraw(user, { amount: String(10n * USDT), currency: "USDT", address: to, network: "tron" })
    expect(created.status, JSON.stringify(created.body)).toBe(200)
    const id = created.body.transaction.id as string
    await until(async () => (await withdrawal(user, id)).status === "success", { blocks: true })
    expect(dn.sim.balance("tron", to, "USDT")).toBe(10n * USDT)
    expect(await balance(user, "USDT")).toEqual({ available: 30n * USDT - 10n * USDT - USDT, held: 0n })
    // Max: the whole balance minus the fee.
    const max = await withdraw(user, { amount: "0", max_value: true, currency: "USDT", address: to, network: "tron" })
    expect(max.body.transaction.amount).toBe(String(19n * USDT - USDT))
    await until(async () => (await withdrawal(user, max.body.transaction.id)).status === "success", { blocks: true })
    expect(await balance(user, "USDT")).toEqual({ available: 0n, held: 0n })
    expect((await audit()).ok).toBe(true)
  })
})
