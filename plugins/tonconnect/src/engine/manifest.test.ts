import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { fetchManifest, ManifestError } from "./manifest.ts"

const answering =
  (status: number, body: string): typeof fetch =>
  async () =>
    new Response(body, { status, headers: { "content-type": "application/json" } })
const run = (f: typeof fetch) => Effect.runPromise(Effect.result(fetchManifest("https://dapp.example/tonconnect-manifest.json", { fetch: f })))

describe("dApp manifest", () => {
  it("reads name, icon, short host and the domain to sign", async () => {
    const manifest = {
      url: "https://www.dapp.example:8443/app",
      name: " Demo ",
      iconUrl: "https://dapp.example/icon.png",
      termsOfUseUrl: "https://dapp.example/terms",
    }
    const result = await run(answering(200, JSON.stringify(manifest)))
    if (result._tag !== "Success") throw new Error(result.failure.message)
    expect(result.success).toEqual({
      manifestUrl: "https://dapp.example/tonconnect-manifest.json",
      url: manifest.url,
      name: "Demo",
      iconUrl: manifest.iconUrl,
      shortHost: "dapp.example",
      domain: "www.dapp.example:8443",
      termsOfUseUrl: "https://dapp.example/terms",
    })
  })

  it("is error 2 when it cannot be fetched", async () => {
    for (const f of [answering(404, "nope"), answering(500, "{}"), (async () => Promise.reject(new TypeError("fetch failed"))) as typeof fetch]) {
      const result = await run(f)
      expect(result._tag).toBe("Failure")
      if (result._tag === "Failure") {
        expect(result.failure).toBeInstanceOf(ManifestError)
        expect(result.failure.code).toBe(2)
      }
    }
  })

  it("is error 3 when its content is wrong", async () => {
    for (const body of [
      "<html>",
      JSON.stringify({ name: "x", iconUrl: "https://a/i.png" }),
      JSON.stringify({ url: "not a url", name: "x", iconUrl: "https://a/i.png" }),
      JSON.stringify({ url: "https://a", name: "  ", iconUrl: "https://a/i.png" }),
      JSON.stringify({ url: "https://a", name: "x", iconUrl: "icon.png" }),
      JSON.stringify({ url: "https://a", name: 5, iconUrl: "https://a/i.png" }),
    ]) {
      const result = await run(answering(200, body))
      expect(result._tag === "Failure" && result.failure.code).toBe(3)
    }
  })
})
