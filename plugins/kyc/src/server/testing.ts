/** Test helpers of the kyc server tests: a signed-in user and the status as the mini-app reads it. */
import { expect } from "vitest"
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
