import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { signInitData, startHost, type Host } from "@wallet/testkit"

// The host is this repo (the plugin is enabled in host/regions/default.ts).
const root: string | undefined = join(import.meta.dirname, "..", "..", "..")

// Chromium opens /kyc as a demo user inside the fake Telegram client and sees the server's answer.
describe.skipIf(root === undefined)("kyc in the browser", () => {
  let host: Host

  beforeAll(async () => {
    host = await startHost(root!)
  })

  afterAll(async () => {
    await host?.close()
  })

  it("shows the empty list from the server, adds a note and shows it", async () => {
    const app = await host.openAs("balances")
    await app.goto("/kyc")
    await app.app().getByText("No notes yet").waitFor()
    await app.app().getByRole("button", { name: "Add a note" }).click()
    await app.app().getByText("My first note").waitFor()
    expect(await app.app().getByText("No notes yet").count()).toBe(0)
    await app.page.close()
  })

  it("answers its API for a signed demo user, and 401 without a session", async () => {
    const init = await fetch(`${host.server.url}/api/auth/init`, {
      method: "POST",
      headers: { authorization: `tma ${signInitData("no_custody", host.server.botToken)}` },
    })
    expect(init.status).toBe(200)
    const { access_token } = (await init.json()) as { access_token: string }
    const notes = await fetch(`${host.server.url}/api/kyc/notes`, { headers: { authorization: `Bearer ${access_token}` } })
    expect(notes.status).toBe(200)
    expect(await notes.json()).toEqual({ items: [] })
    expect((await fetch(`${host.server.url}/api/kyc/notes`)).status).toBe(401)
  })
})
