import { QueryClient } from "@tanstack/react-query"
import { describe, expect, it } from "vitest"
import { clearQueryCache, flushQueryCache, restoreQueryCache } from "./query.tsx"

/** A Storage over a Map. */
const memoryStorage = (): Storage => {
  const items = new Map<string, string>()
  return {
    get length() {
      return items.size
    },
    key: (index) => [...items.keys()][index] ?? null,
    clear: () => items.clear(),
    getItem: (key) => items.get(key) ?? null,
    removeItem: (key) => void items.delete(key),
    setItem: (key, value) => void items.set(key, value),
  }
}

const clientWith = (banner: boolean) => {
  const client = new QueryClient()
  client.getQueryCache().build(client, { queryKey: ["view-settings"], meta: { persist: true } })
  client.setQueryData(["view-settings"], { banners: { display_terms_banner: banner } })
  return client
}

describe("flushQueryCache", () => {
  it("writes a change made just before the page is left, so the next start restores it (a banner closed in the last half second)", () => {
    const storage = memoryStorage()
    flushQueryCache(clientWith(false), 7, storage)
    const next = new QueryClient()
    restoreQueryCache(next, 7, storage)
    expect(next.getQueryData(["view-settings"])).toEqual({ banners: { display_terms_banner: false } })
  })

  it("keeps only the queries marked to persist, and writes nothing for a client whose user signed out", () => {
    const storage = memoryStorage()
    const client = clientWith(true)
    client.setQueryData(["secret"], { token: "x" })
    flushQueryCache(client, 7, storage)
    expect(storage.getItem("wallet:query-cache:7")).not.toContain("secret")
    clearQueryCache(client, 7, storage)
    flushQueryCache(client, 7, storage)
    expect(storage.getItem("wallet:query-cache:7")).toBeNull()
  })
})
