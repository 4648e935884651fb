import { describe, expect, it } from "vitest"
import { makeQueryCache } from "./cache.ts"

const setup = () => {
  let clock = 1_000
  let calls = 0
  let fail = false
  const cache = makeQueryCache(
    async (key: string) => {
      calls++
      if (fail) throw new Error("down")
      return `${key}#${calls}`
    },
    { staleMs: 60_000, now: () => clock },
  )
  return { cache, advance: (ms: number) => (clock += ms), calls: () => calls, setFail: (value: boolean) => (fail = value) }
}

describe("makeQueryCache", () => {
  it("loads once, serves fresh data without a request, refetches after the stale time", async () => {
    const t = setup()
    expect(t.cache.get("USD").status).toBe("loading")
    await t.cache.ensure("USD")
    expect(t.cache.get("USD")).toEqual({ status: "ready", data: "USD#1" })
    t.advance(59_999)
    await t.cache.ensure("USD")
    expect(t.calls()).toBe(1)
    t.advance(1)
    await t.cache.ensure("USD")
    expect(t.cache.get("USD").data).toBe("USD#2")
  })

  it("shares one request between callers and forces a refetch on demand", async () => {
    const t = setup()
    await Promise.all([t.cache.ensure("EUR"), t.cache.ensure("EUR"), t.cache.ensure("EUR")])
    expect(t.calls()).toBe(1)
    await t.cache.ensure("EUR", true)
    expect(t.calls()).toBe(2)
  })

  it("keeps the last data beside an error, and a retry recovers", async () => {
    const t = setup()
    await t.cache.ensure("USD")
    t.setFail(true)
    await t.cache.ensure("USD", true)
    expect(t.cache.get("USD")).toMatchObject({ status: "error", data: "USD#1" })
    t.setFail(false)
    await t.cache.ensure("USD")
    expect(t.cache.get("USD")).toEqual({ status: "ready", data: "USD#3" })
  })

  it("tells subscribers when an answer arrives", async () => {
    const t = setup()
    let told = 0
    const stop = t.cache.subscribe(() => told++)
    await t.cache.ensure("USD")
    stop()
    await t.cache.ensure("USD", true)
    expect(told).toBe(1)
  })
})
