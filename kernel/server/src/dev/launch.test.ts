import { createHmac } from "node:crypto"
import { Result } from "effect"
import { describe, expect, it } from "vitest"
import { verifyInitData } from "../kernel/initData.ts"
import { demoUsers, type DemoUserSeed } from "./demoUsers.ts"
import { buildLaunch } from "./launch.ts"

const token = "6666:dev-launch-test"
const now = Date.UTC(2026, 5, 1, 10, 0, 0)
const request = { userId: 700000002, platform: "ios", theme: "light", language: "en" } as const
const bob = demoUsers.find((demo) => demo.kind === "balances")!

describe("the dev launch", () => {
  it("signs the demo user's initData and, when the user has a phone, the contact Telegram would share", () => {
    const launch = buildLaunch(bob, request, token, now)
    expect(Result.isSuccess(verifyInitData(launch.initData, { botToken: token, maxAgeSeconds: 60, nowMs: now }))).toBe(true)
    const contact = new URLSearchParams(launch.contact!)
    expect(JSON.parse(contact.get("contact")!)).toEqual({ user_id: 700000002, phone_number: "4915112345678", first_name: "Bob", last_name: "Balance" })
    expect(contact.get("auth_date")).toBe(String(now / 1000))
    const checkString = `auth_date=${contact.get("auth_date")}\ncontact=${contact.get("contact")}`
    const secret = createHmac("sha256", "WebAppData").update(token).digest()
    expect(contact.get("hash")).toBe(createHmac("sha256", secret).update(checkString).digest("hex"))
  })

  it("gives every demo user a distinct international phone, and no contact to a user without one", () => {
    const phones = demoUsers.map((demo) => demo.phone)
    for (const phone of phones) expect(phone).toMatch(/^[1-9]\d{7,14}$/)
    expect(new Set(phones).size).toBe(phones.length)
    const { phone: _, ...withoutPhone } = bob
    expect(buildLaunch(withoutPhone satisfies DemoUserSeed, request, token, now)).not.toHaveProperty("contact")
  })
})
