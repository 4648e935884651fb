/** Test helpers of the kyc server tests: a signed-in user and the status as the mini-app reads it. */
import { Effect } from "effect"
import { expect } from "vitest"
import { hashPassword } from "@wallet/kernel-server/operator"
import { signInitData } from "@wallet/kernel-server"
import { call, tma } from "@wallet/kernel-server/testing"

/** Signs user `id` in (first auth creates the user); the init answer with its permissions. */
export const initUser = async (serverUrl: string, botToken: string, id: number) => {
  const initData = signInitData(
    { user: { id, first_name: "Ann", language_code: "en" }, authDate: new Date(), queryId: `q${id}-${Math.random()}`, chatType: "sender" },
    botToken,
  )
  const reply = await call(serverUrl, "POST", "/api/auth/init", { authorization: tma(initData) })
  expect(reply.status).toBe(200)
  return reply.body as { access_token: string; permissions: Record<string, boolean> }
}

/** `GET /api/kyc/status` with the given `Authorization`. */
export const kycStatus = async (serverUrl: string, authorization: string) => (await call(serverUrl, "GET", "/api/kyc/status", { authorization })).body

/** An operator account made for the test, signed in: its cookie, CSRF token, and a form poster for `/ops/kyc/*`. */
export const signInOperator = async (
  server: { readonly url: string; readonly sql: (statement: string, params?: ReadonlyArray<unknown>) => Promise<unknown> },
  name = "support",
) => {
  const password = "correct horse battery staple"
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
  const staff = (path: string, fields: Record<string, string> | URLSearchParams, headers: Record<string, string> = {}) => {
    const body = new URLSearchParams(fields)
    body.set("csrf", csrf)
    return fetch(`${server.url}/ops/kyc${path}`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie, origin: server.url, ...headers },
      body: body.toString(),
    })
  }
  return { cookie, csrf, staff }
}
