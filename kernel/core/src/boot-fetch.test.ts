import { describe, expect, it } from "vitest"
import { adoptingFetch, BOOT_FETCHES_GLOBAL, takeBootFetches, type BootFetch } from "./boot-fetch.ts"

const early = (url: string, method: string, authorization: string, body: string): BootFetch => ({
  url,
  method,
  authorization,
  response: Promise.resolve(new Response(body)),
})

describe("adoptingFetch: the app takes over what the boot script sent (decision 0010)", () => {
  it("answers the same request with the early response, once, and sends anything else to the network", async () => {
    const network: Array<string> = []
    const base = async (input: RequestInfo | URL) => {
      network.push(input instanceof Request ? input.url : String(input))
      return new Response("network")
    }
    const adopting = adoptingFetch(
      [
        early("https://w.test/api/auth/init", "POST", "tma data", "early init"),
        early("https://w.test/api/view-settings", "GET", "Bearer t1", "early settings"),
      ],
      base,
    )
    // The Session's call: method and header in init; the Http policy's: a Request.
    expect(await (await adopting.fetch("https://w.test/api/auth/init", { method: "POST", headers: { authorization: "tma data" } })).text()).toBe("early init")
    expect(await (await adopting.fetch(new Request("https://w.test/api/view-settings", { headers: { authorization: "Bearer t1" } }))).text()).toBe(
      "early settings",
    )
    // Once each: a retry goes to the network.
    expect(await (await adopting.fetch(new Request("https://w.test/api/view-settings", { headers: { authorization: "Bearer t1" } }))).text()).toBe("network")
    expect(adopting.adopted()).toBe(2)
    expect(network).toEqual(["https://w.test/api/view-settings"])
  })

  it("never hands an answer to a different request: another token, method or URL", async () => {
    const adopting = adoptingFetch(
      [early("https://w.test/api/custody/accounts?fiatCurrency=USD", "GET", "Bearer t1", "early")],
      async () => new Response("network"),
    )
    const text = async (request: Request) => (await adopting.fetch(request)).text()
    expect(await text(new Request("https://w.test/api/custody/accounts?fiatCurrency=USD", { headers: { authorization: "Bearer other" } }))).toBe("network")
    expect(await text(new Request("https://w.test/api/custody/accounts?fiatCurrency=EUR", { headers: { authorization: "Bearer t1" } }))).toBe("network")
    expect(await text(new Request("https://w.test/api/custody/accounts?fiatCurrency=USD", { method: "POST", headers: { authorization: "Bearer t1" } }))).toBe(
      "network",
    )
    expect(adopting.adopted()).toBe(0)
    // Forgotten after the first screen's data: the token it carried goes with it.
    adopting.forget()
    expect(await text(new Request("https://w.test/api/custody/accounts?fiatCurrency=USD", { headers: { authorization: "Bearer t1" } }))).toBe("network")
  })

  it("takes the requests off the page once", () => {
    const scope: Record<string, unknown> = { [BOOT_FETCHES_GLOBAL]: [early("https://w.test/x", "GET", "", "x")] }
    expect(takeBootFetches(scope)).toHaveLength(1)
    expect(BOOT_FETCHES_GLOBAL in scope).toBe(false)
    expect(takeBootFetches(scope)).toEqual([])
  })
})
