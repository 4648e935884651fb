import { ConfigProvider, Effect, Layer } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import http from "node:http"
import type { AddressInfo } from "node:net"
import { Chain, ChainLive } from "./index.ts"

let server: http.Server
let url = ""
const seen: Array<{ path: string; auth?: string }> = []

beforeAll(async () => {
  server = http.createServer((req, res) => {
    seen.push({ path: req.url ?? "", ...(req.headers.authorization ? { auth: req.headers.authorization } : {}) })
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ seqno: 42 }))
  })
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => new Promise<void>((r) => server.close(() => r())))

const run = <A, E>(effect: Effect.Effect<A, E, Chain>, env: Record<string, string>) =>
  Effect.runPromise(effect.pipe(Effect.provide(ChainLive.pipe(Layer.provide(ConfigProvider.layer(ConfigProvider.fromEnvRecord(env)))))))

describe("server Chain layer", () => {
  it("reads CHAIN_API_URL and CHAIN_API_KEY from config", async () => {
    const seqno = await run(
      Effect.gen(function* () {
        return yield* (yield* Chain).getSeqno("0:1")
      }),
      { CHAIN_API_URL: url, CHAIN_API_KEY: "secret-key" },
    )
    expect(seqno).toBe(42)
    expect(seen.at(-1)).toEqual({ path: "/v2/wallet/0%3A1/seqno", auth: "Bearer secret-key" })
  })

  it("sends no authorization without a key", async () => {
    await run(
      Effect.gen(function* () {
        return yield* (yield* Chain).getSeqno("0:2")
      }),
      { CHAIN_API_URL: url },
    )
    expect(seen.at(-1)).toEqual({ path: "/v2/wallet/0%3A2/seqno" })
  })
})
