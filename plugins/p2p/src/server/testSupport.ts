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
