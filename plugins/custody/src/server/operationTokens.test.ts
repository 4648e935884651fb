/**
 * Issue 15 case 2 (docs/decisions/0550): money leaves custody only with an operation token bound to
 * the user, the device, the operation and its parameters, when the policy asks for one. The real
 * server with the passcode and custody modules (the passcode module implements the kernel's
 * OperationGuard port), over HTTP with only an access token, as an attacker with a stolen session.
 */
import { randomUUID } from "node:crypto"
import { Address } from "@ton/core"
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import { signInitData, startServer, type RunningServer } from "@wallet/kernel-server"
import { Chain } from "@wallet/kernel-server/chain"
import { startTestDatabase, testDatabases, type TestDatabase } from "@wallet/kernel-server/testing"
import { makePasscodeServerPlugin } from "@wallet/plugin-passcode/server"
import { transferOperation, withdrawalOperation } from "../operations.ts"
import { serverPlugin } from "./index.ts"
import { probePlugin } from "./testSupport.ts"

vi.setConfig({ testTimeout: 60_000 })

const BOT_TOKEN = "1234567:operation-token-test"
/** Nothing listens here: withdrawals are created (rows and holds) without the chain; the processor just retries. */
const NO_CHAIN = "http://127.0.0.1:9"
/** A limit of $50 for users with a passcode who are not passcode-forced. */
const LIMIT_CENTS = 5_000
const OUTSIDE = Address.parseRaw(`0:${"5a".repeat(32)}`).toString({ bounceable: false })

interface Reply {
  readonly status: number
  readonly body: any
}

let nextId = 8_500_000_001

describe.each(testDatabases)("operation tokens on custody (%s)", (kind) => {
  let database: TestDatabase
  let server: RunningServer

  beforeAll(async () => {
    database = await startTestDatabase(kind)
    server = await startServer({
      port: 0,
      database: database.options,
      botToken: BOT_TOKEN,
      accessTokenTtlSeconds: 365 * 24 * 3600,
      chain: Chain.layer({ baseUrl: NO_CHAIN }),
      chainApiUrl: NO_CHAIN,
      plugins: [makePasscodeServerPlugin(), serverPlugin, probePlugin],
      pluginConfig: {
        custody: { rates: { seed: 7 }, chain: { masterSeed: "operation-token-test-seed", pollMs: 600_000, devnetUrl: NO_CHAIN } },
        passcode: {
          emailCodeMinIntervalSeconds: 0,
          emailCodesPerHour: 1000,
          forcePasscodeUsdCents: 100_000,
          operationTokenAboveUsdCents: LIMIT_CENTS,
          // Withdrawals go through the email-code challenge (its token carries the params too).
          emailChallengeOperations: ["custody_withdrawal"],
        },
      },
    })
  }, 120_000)

  afterAll(async () => {
    await server?.close()
    await database?.stop()
  })

  const request = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Reply> => {
    const response = await fetch(`${server.url}${path}`, {
      method,
      headers: { ...(body === undefined ? {} : { "content-type": "application/json" }), ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
    const text = await response.text()
    return { status: response.status, body: text === "" ? undefined : JSON.parse(text) }
  }

  const latestCode = async (email: string) => {
    const rows = await server.sql(`select body from outbox_messages where lower(recipient) = lower($1) order by id desc limit 1`, [email])
    const match = /(\d{6})/.exec(String(rows[0]?.body ?? ""))
    expect(match).not.toBeNull()
    return match![1]!
  }

  const signIn = async () => {
    const id = nextId++
    const initData = signInitData(
      {
        user: { id, first_name: "Op", last_name: "Token", username: `op_${id}`, language_code: "en" },
        authDate: new Date(),
        queryId: randomUUID(),
        chatType: "sender",
      },
      BOT_TOKEN,
    )
    const auth = await fetch(`${server.url}/api/auth/init`, { method: "POST", headers: { authorization: `tma ${initData}` } })
    expect(auth.status).toBe(200)
    const { access_token: accessToken } = (await auth.json()) as { access_token: string }
    const email = `op${id}@example.com`
    const deviceSerial = randomUUID()
    const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
      request("POST", path, body, { authorization: `Bearer ${accessToken}`, ...headers })
    const user = {
      id,
      email,
      deviceSerial,
      passcode: "135790",
      post,
      /** A recovery email (confirm-email code) and a passcode on this device, in one creation. */
      setPasscode: async () => {
        const asked = await post("/api/recovery-email/request-code", { product: "wallet", reason: "confirm-email", language: "en", email })
        expect(asked.status, JSON.stringify(asked.body)).toBe(200)
        const created = await post("/api/passcode/create", {
          email,
          emailCode: await latestCode(email),
          emailSource: "new",
          newPasscode: user.passcode,
          newPasscodeType: "6-digit",
          deviceSerial,
        })
        expect(created.status, JSON.stringify(created.body)).toBe(200)
      },
      /** An operation token for `operation` (through the email-code challenge when the server asks). */
      tokenFor: async (operation: { readonly name: string; readonly params: Readonly<Record<string, string>> }): Promise<string> => {
        const began = await post("/api/security/challenges/begin", { deviceSerial, passcode: user.passcode, language: "en", operation })
        expect(began.status, JSON.stringify(began.body)).toBe(200)
        if (typeof began.body.operationToken === "string") return began.body.operationToken
        const asked = await post("/api/security/challenges/request-email-code", { challengeId: began.body.challengeId, language: "en" })
        expect(asked.status, JSON.stringify(asked.body)).toBe(200)
        const done = await post("/api/security/challenges/complete", { challengeId: began.body.challengeId, emailCode: await latestCode(email) })
        expect(done.status, JSON.stringify(done.body)).toBe(200)
        return done.body.operationToken
      },
      /** The headers a client sends with a token of this device. */
      headers: (token: string) => ({ "x-wallet-operation-token": token, "x-wallet-device-serial": deviceSerial }),
    }
    return user
  }
  type User = Awaited<ReturnType<typeof signIn>>

  const fund = async (user: User, currency: string, amount: string) => {
    const reply = await request("POST", "/api/custody-probe/fund", { userId: user.id, currency, amount, key: `test:fund:${randomUUID()}` })
    expect(reply.status, JSON.stringify(reply.body)).toBe(200)
  }
  /** Whole USDT in minor units, as the probe answers balances. */
  const usdt = (whole: number) => (BigInt(whole) * 1_000_000n).toString()
  const balance = async (user: User, currency: string) =>
    (await request("GET", `/api/custody-probe/balance/${user.id}/${currency}`)).body as { available: string; held: string }

  /** A passcode-forced user: more than $1,000 in USDT (and some TON), with or without a passcode yet. */
  const forcedUser = async (withPasscode = true) => {
    const user = await signIn()
    await fund(user, "USDT", "2000")
    await fund(user, "TON", "50")
    if (withPasscode) await user.setPasscode()
    return user
  }

  const transfer = (receiverId: number, amount: string, currency = "USDT") => ({ idempotencyKey: randomUUID(), receiverId, currency, amount })
  const withdrawal = (amount: bigint) => ({ amount, currency: "TON", max_value: false, address: OUTSIDE, network: "ton", idempotency_key: randomUUID() })
  const wire = (body: ReturnType<typeof withdrawal>) => ({ ...body, amount: body.amount.toString() })

  it("case 2: a passcode-forced user's transfer without an operation token is refused", async () => {
    const receiver = await signIn()
    // Forced by the balance rule, and no passcode yet: nothing can produce a token.
    const victim = await forcedUser(false)
    const before = await balance(victim, "USDT")
    const refused = await victim.post("/api/custody/transfers", transfer(receiver.id, "1000"))
    expect(refused.status).toBe(403)
    expect(refused.body).toMatchObject({ _tag: "OperationTokenError", code: "operation_token_missing" })
    expect(await balance(victim, "USDT")).toEqual(before)
    expect(await server.sql(`select count(*)::int as n from custody_transfers where sender_id = $1`, [victim.id])).toEqual([{ n: 0 }])

    // With a passcode and a token for exactly this transfer, it goes through.
    await victim.setPasscode()
    const body = transfer(receiver.id, "1000")
    const refusedAgain = await victim.post("/api/custody/transfers", body)
    expect(refusedAgain.body.code).toBe("operation_token_missing")
    const token = await victim.tokenFor(transferOperation(body))
    const sent = await victim.post("/api/custody/transfers", body, victim.headers(token))
    expect(sent.status, JSON.stringify(sent.body)).toBe(200)
    expect((await balance(victim, "USDT")).available).toBe(usdt(1000))
  })

  it("case 2: a passcode-forced user's withdrawal without an operation token is refused", async () => {
    const victim = await forcedUser(false)
    const before = await balance(victim, "TON")
    const body = withdrawal(1_000_000_000n)
    const refused = await victim.post("/api/custody/withdrawals", wire(body))
    expect(refused.status).toBe(403)
    expect(refused.body).toMatchObject({ _tag: "OperationTokenError", code: "operation_token_missing" })
    expect(await balance(victim, "TON")).toEqual(before)
    expect(await server.sql(`select count(*)::int as n from custody_chain_withdrawals where user_id = $1`, [victim.id])).toEqual([{ n: 0 }])

    await victim.setPasscode()
    const token = await victim.tokenFor(withdrawalOperation(body))
    const sent = await victim.post("/api/custody/withdrawals", wire(body), victim.headers(token))
    expect(sent.status, JSON.stringify(sent.body)).toBe(200)
    expect(sent.body.kind).toBe("transaction")
    expect(sent.body.transaction.amount).toBe("1000000000")
  })

  it("a token for 10 USDT to A does not pay 1000 USDT to A or 10 USDT to B, and a mismatch does not consume it", async () => {
    const [a, b] = [await signIn(), await signIn()]
    const user = await forcedUser()
    const body = transfer(a.id, "10")
    const token = await user.tokenFor(transferOperation(body))
    const more = await user.post("/api/custody/transfers", { ...body, amount: "1000" }, user.headers(token))
    expect(more.status).toBe(403)
    expect(more.body.code).toBe("operation_token_mismatch")
    const elsewhere = await user.post("/api/custody/transfers", { ...body, receiverId: b.id }, user.headers(token))
    expect(elsewhere.body.code).toBe("operation_token_mismatch")
    const otherCurrency = await user.post("/api/custody/transfers", { ...body, currency: "TON" }, user.headers(token))
    expect(otherCurrency.body.code).toBe("operation_token_mismatch")
    // Another device's serial with this token: a mismatch too.
    const otherDevice = await user.post("/api/custody/transfers", body, { ...user.headers(token), "x-wallet-device-serial": randomUUID() })
    expect(otherDevice.body.code).toBe("operation_token_mismatch")
    // A token for a transfer does not pay a withdrawal.
    const asWithdrawal = await user.post("/api/custody/withdrawals", wire(withdrawal(1_000_000_000n)), user.headers(token))
    expect(asWithdrawal.body.code).toBe("operation_token_mismatch")
    expect((await balance(user, "USDT")).available).toBe(usdt(2000))
    // The same token still pays what it was granted for ("10.0" is the same amount as "10").
    const paid = await user.post("/api/custody/transfers", { ...body, amount: "10.0" }, user.headers(token))
    expect(paid.status, JSON.stringify(paid.body)).toBe(200)
    expect((await balance(user, "USDT")).available).toBe(usdt(1990))
  })

  it("a withdrawal token is bound to the destination, amount and memo", async () => {
    const user = await forcedUser()
    const body = withdrawal(2_000_000_000n)
    const token = await user.tokenFor(withdrawalOperation(body))
    const elsewhere = await user.post(
      "/api/custody/withdrawals",
      wire({ ...body, address: Address.parseRaw(`0:${"6b".repeat(32)}`).toString({ bounceable: false }) }),
      user.headers(token),
    )
    expect(elsewhere.body.code).toBe("operation_token_mismatch")
    const more = await user.post("/api/custody/withdrawals", wire({ ...body, amount: 20_000_000_000n }), user.headers(token))
    expect(more.body.code).toBe("operation_token_mismatch")
    const memo = await user.post("/api/custody/withdrawals", { ...wire(body), comment: "deposit id 42" }, user.headers(token))
    expect(memo.body.code).toBe("operation_token_mismatch")
    const all = await user.post("/api/custody/withdrawals", { ...wire(body), max_value: true }, user.headers(token))
    expect(all.body.code).toBe("operation_token_mismatch")
    const sent = await user.post("/api/custody/withdrawals", wire(body), user.headers(token))
    expect(sent.status, JSON.stringify(sent.body)).toBe(200)
  })

  it("a used token is refused for a second transfer", async () => {
    const receiver = await signIn()
    const user = await forcedUser()
    const first = transfer(receiver.id, "5")
    const token = await user.tokenFor(transferOperation(first))
    expect((await user.post("/api/custody/transfers", first, user.headers(token))).status).toBe(200)
    // The same operation and params, a new idempotency key: a second transfer, the token is spent.
    const second = await user.post("/api/custody/transfers", { ...first, idempotencyKey: randomUUID() }, user.headers(token))
    expect(second.status).toBe(403)
    expect(second.body.code).toBe("operation_token_used")
    expect((await balance(user, "USDT")).available).toBe(usdt(1995))
  })

  it("a retry of a succeeded idempotency key replays without a second token", async () => {
    const receiver = await signIn()
    const user = await forcedUser()
    const body = transfer(receiver.id, "7")
    const token = await user.tokenFor(transferOperation(body))
    const first = await user.post("/api/custody/transfers", body, user.headers(token))
    expect(first.status).toBe(200)
    // No token at all (e.g. the client lost the answer and retried after the token expired).
    const bare = await user.post("/api/custody/transfers", body)
    expect(bare.status, JSON.stringify(bare.body)).toBe(200)
    expect(bare.body.id).toBe(first.body.id)
    // The same token again (an HTTP retry of the same request).
    const again = await user.post("/api/custody/transfers", body, user.headers(token))
    expect(again.status).toBe(200)
    expect(again.body.id).toBe(first.body.id)
    expect((await balance(user, "USDT")).available).toBe(usdt(1993))
    // A replay key is not a skeleton key: another body under the key is still refused.
    const changed = await user.post("/api/custody/transfers", { ...body, amount: "700" })
    expect(changed.status).toBe(403)
    expect(changed.body.code).toBe("operation_token_missing")

    const w = withdrawal(1_500_000_000n)
    const wToken = await user.tokenFor(withdrawalOperation(w))
    const made = await user.post("/api/custody/withdrawals", wire(w), user.headers(wToken))
    expect(made.status, JSON.stringify(made.body)).toBe(200)
    const replayed = await user.post("/api/custody/withdrawals", wire(w))
    expect(replayed.status, JSON.stringify(replayed.body)).toBe(200)
    expect(replayed.body.transaction.id).toBe(made.body.transaction.id)
    expect(await server.sql(`select count(*)::int as n from custody_chain_withdrawals where user_id = $1`, [user.id])).toEqual([{ n: 1 }])
  })

  it("two transfers racing on one token: exactly one passes", async () => {
    const receiver = await signIn()
    const user = await forcedUser()
    const body = transfer(receiver.id, "3")
    const token = await user.tokenFor(transferOperation(body))
    const replies = await Promise.all(
      [1, 2, 3, 4].map(() => user.post("/api/custody/transfers", { ...body, idempotencyKey: randomUUID() }, user.headers(token))),
    )
    expect(replies.filter((reply) => reply.status === 200)).toHaveLength(1)
    expect(replies.filter((reply) => reply.status === 403).map((reply) => reply.body.code)).toEqual([
      "operation_token_used",
      "operation_token_used",
      "operation_token_used",
    ])
    expect((await balance(user, "USDT")).available).toBe(usdt(1997))
  })

  it("the policy: not forced and no passcode is not asked; with a passcode, at or above the limit is", async () => {
    const receiver = await signIn()
    // $100 in USDT: far below the forced-passcode threshold.
    const plain = await signIn()
    await fund(plain, "USDT", "100")
    expect((await plain.post("/api/custody/transfers", transfer(receiver.id, "60"))).status).toBe(200)

    const careful = await signIn()
    await fund(careful, "USDT", "100")
    await careful.setPasscode()
    // Below the $50 limit: no token needed; at or above it: refused without one.
    expect((await careful.post("/api/custody/transfers", transfer(receiver.id, "10"))).status).toBe(200)
    const above = transfer(receiver.id, "60")
    const refused = await careful.post("/api/custody/transfers", above)
    expect(refused.status).toBe(403)
    expect(refused.body.code).toBe("operation_token_missing")
    expect((await careful.post("/api/custody/transfers", above, careful.headers(await careful.tokenFor(transferOperation(above))))).status).toBe(200)

    // A forced user is asked whatever the amount.
    const rich = await forcedUser()
    expect((await rich.post("/api/custody/transfers", transfer(receiver.id, "1"))).body.code).toBe("operation_token_missing")
  })
})
