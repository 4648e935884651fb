/** Test helper: signs user `id` in through the kernel's init (the first auth creates the user). */
import { expect } from "vitest"
import { signInitData } from "@wallet/kernel-server"
import { call, tma } from "@wallet/kernel-server/testing"

export const initUser = async (serverUrl: string, botToken: string, id: number, firstName = "Ann", authDate = new Date()) => {
  const initData = signInitData(
    { user: { id, first_name: firstName, language_code: "en" }, authDate, queryId: `q${id}-${Math.random()}`, chatType: "sender" },
    botToken,
  )
  const reply = await call(serverUrl, "POST", "/api/auth/init", { authorization: tma(initData) })
  expect(reply.status).toBe(200)
  return reply.body as { access_token: string; permissions: Record<string, boolean> }
}

/** An operator account made for the test, signed in: a poster for `/ops/p2p/*` forms (CSRF and cookie). */
export const signInOperator = async (server: {
  readonly url: string
  readonly sql: (statement: string, params?: ReadonlyArray<unknown>) => Promise<unknown>
}) => {
  const { Effect } = await import("effect")
  const { hashPassword } = await import("@wallet/kernel-server/operator")
  const name = "p2p-support"
  const password = "a long enough support password"
  await server.sql("insert into operator_accounts (name, password_hash, created_at) values ($1, $2, now()) on conflict do nothing", [
    name,
    await Effect.runPromise(hashPassword(password)),
  ])
  const login = await fetch(`${server.url}/ops/login`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ name, password }).toString(),
  })
  const cookie = login.headers.get("set-cookie")!.split(";")[0]!
  const csrf = /name="csrf" value="([^"]+)"/.exec(await (await fetch(`${server.url}/ops`, { headers: { cookie } })).text())![1]!
  const page = async (query: string) => (await fetch(`${server.url}/ops/p2p${query}`, { headers: { cookie } })).text()
  const form = (path: string, fields: Record<string, string>) =>
    fetch(`${server.url}/ops/p2p${path}`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie, origin: server.url },
      body: new URLSearchParams({ ...fields, csrf }).toString(),
    })
  return { page, form }
}

/**
 * The seller's SBP details and a fixed-price SALE offer of USDT for RUB at 100.00 RUB, from 500 RUB (auto-accept by
 * default), published through the API; answers the offer's id. The seller must already hold `volume` (plus the fee).
 */
export const publishSaleOffer = async (
  serverUrl: string,
  auth: string,
  offer: {
    readonly holderName: string
    readonly volume: bigint
    readonly maxOrderFiat: string
    readonly idempotencyKey: string
    readonly autoAccept?: boolean
  },
) => {
  const post = (path: string, body: unknown) => call(serverUrl, "POST", path, { authorization: auth, body })
  const details = await post("/api/p2p/user/payments", {
    code: "sbp",
    fiat: "RUB",
    fields: { phone: "+7 916 123-45-67", bankName: "Tinkoff", holderName: offer.holderName },
  })
  expect(details.status).toBe(200)
  const reply = await post("/api/p2p/offers", {
    type: "SALE",
    crypto: "USDT",
    fiat: "RUB",
    price: { type: "FIXED", value: "10000" },
    volume: offer.volume.toString(),
    minOrderFiat: "50000",
    maxOrderFiat: offer.maxOrderFiat,
    paymentDetailsIds: [details.body.id],
    paymentMethodCodes: [],
    paymentWindowMinutes: 15,
    terms: null,
    autoAccept: offer.autoAccept ?? true,
    idempotencyKey: offer.idempotencyKey,
  })
  expect(reply.status).toBe(200)
  return reply.body.id as number
}
