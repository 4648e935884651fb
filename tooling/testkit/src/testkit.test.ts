import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { demoUsers, verifyInitData } from "@wallet/kernel-server"
import { DEMO_USER_IDS, DEMO_USER_PHONES, DEMO_USERS, signInitData, tmaAuthorization } from "./index.ts"

// Decision 0150: the published test kit. Its signed initData must pass the kernel server's own check.
const token = "7000000001:testkit-check"
const verify = (initData: string, botToken = token, nowMs = Date.now()) => verifyInitData(initData, { botToken, maxAgeSeconds: 3600, nowMs })
/** The verified launch data, or the failure's code thrown (no `effect` import: the kit does not depend on it). */
const verified = (initData: string) => {
  const result = verify(initData)
  if (result._tag === "Failure") throw new Error(`initData refused: ${result.failure.code} ${result.failure.message}`)
  return result.success
}

describe("@wallet/testkit", () => {
  it("signInitData(demo user, bot token) passes the kernel server's initData check as that user", () => {
    const launch = verified(signInitData("balances", token))
    expect(launch.user).toMatchObject({ ...DEMO_USERS.balances, language_code: "en" })
    expect(launch.chatType).toBe("sender")
  })

  it("signs an id or a whole user, with the launch fields asked for", () => {
    const authDate = new Date(Date.now() - 60_000)
    const byId = verified(signInitData(8_200_000_001, token, { startParam: "notes", language: "ru", authDate, queryId: "AAfixed" }))
    expect(byId).toMatchObject({ user: { id: 8_200_000_001, language_code: "ru" }, startParam: "notes", queryId: "AAfixed" })
    expect(byId.authDate.getTime()).toBe(Math.floor(authDate.getTime() / 1000) * 1000)
    const whole = verified(signInitData({ id: 8_200_000_002, first_name: "Ann", username: "ann" }, token))
    expect(whole.user).toMatchObject({ id: 8_200_000_002, first_name: "Ann", username: "ann" })
  })

  it("a fresh query id per call (the server refuses a replayed hash); another bot's token or an edit fails", () => {
    const first = signInitData("new", token)
    expect(verified(first).hash).not.toBe(verified(signInitData("new", token)).hash)
    const failure = (initData: string, botToken?: string) => {
      const result = verify(initData, botToken)
      return result._tag === "Failure" ? result.failure.code : "ok"
    }
    expect(failure(first, "7000000002:another-bot")).toBe("init_data_invalid")
    expect(failure(first.replace("Nora", "Mora"))).toBe("init_data_invalid")
    expect(tmaAuthorization(first)).toBe(`tma ${first}`)
  })

  it("the demo users are the ones a dev server seeds", () => {
    expect(Object.fromEntries(demoUsers.map((user) => [user.kind, user.telegram]))).toEqual(DEMO_USERS)
    expect(Object.fromEntries(demoUsers.map((user) => [user.kind, user.id]))).toEqual(DEMO_USER_IDS)
    expect(Object.fromEntries(demoUsers.map((user) => [user.kind, user.phone]))).toEqual(DEMO_USER_PHONES)
  })

  it("depends on no private host package: the host's server and devnet run as the host folder's processes", () => {
    const pkg = JSON.parse(readFileSync(join(import.meta.dirname, "..", "package.json"), "utf8")) as {
      private: boolean
      dependencies: Record<string, string>
      peerDependencies?: Record<string, string>
    }
    expect(pkg.private).toBe(false)
    expect(Object.keys({ ...pkg.dependencies, ...pkg.peerDependencies }).filter((name) => name.startsWith("@wallet/"))).toEqual([])
    const sources = readdirSync(import.meta.dirname)
      .filter((file) => file.endsWith(".ts") && !file.endsWith(".test.ts"))
      .map((file) => readFileSync(join(import.meta.dirname, file), "utf8"))
    for (const source of sources) expect(source).not.toMatch(/from "@wallet\//)
  })
})
