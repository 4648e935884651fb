import { Effect, Exit, Fiber } from "effect"
import { TestClock } from "effect/testing"
import { describe, expect, it } from "vitest"
import { makeHttp, memoryBackend, noAuthTokens, Storage } from "@wallet/kernel"
import { ADDRESSES_TIMEOUT_MS, fetchAddresses, refreshAddresses, registerCurrent, reportManualBackup, untrackAddress, type SyncDeps } from "./server-sync.ts"
import { createWalletStateStore, isBackupComplete, initialWalletState, type WalletState } from "./store.ts"

const ORIGIN = "https://wallet.test"
const ADDRESS = "UQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAJKZ"
const RAW = `0:${"0".repeat(64)}`

interface Seen {
  readonly method: string
  readonly path: string
  readonly body: unknown
  readonly cache: string | null
}

/** A fake server: answers by method and path, records every request. */
const fakeServer = (answer: (method: string, path: string, body: any) => { status: number; body?: unknown } | "hang") => {
  const seen: Array<Seen> = []
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init)
    const text = await request.text()
    const body = text === "" ? undefined : JSON.parse(text)
    const path = new URL(request.url).pathname
    seen.push({ method: request.method, path, body, cache: request.headers.get("cache-control") })
    const reply = answer(request.method, path, body)
    if (reply === "hang") return new Promise<Response>(() => undefined)
    return new Response(reply.body === undefined ? null : JSON.stringify(reply.body), { status: reply.status, headers: { "content-type": "application/json" } })
  }) as typeof globalThis.fetch
  return { seen, fetch }
}

const makeDeps = (fetch: typeof globalThis.fetch, state: WalletState = { ...initialWalletState, address: ADDRESS, raw: RAW }): SyncDeps => {
  const store = createWalletStateStore(Storage.make(memoryBackend()))
  store.update(() => state)
  return { http: makeHttp(noAuthTokens, fetch), origin: ORIGIN, store }
}

const active = (backedUp: boolean) => ({
  address: RAW,
  walletClass: "v5r1",
  network: "mainnet",
  source: "create",
  manualBackupComplete: backedUp,
  backedUpAt: backedUp ? "2026-11-01T09:00:00.000Z" : null,
})

describe("server sync of the wallet addresses", () => {
  it("registers the current address with its version, network and source", async () => {
    const server = fakeServer(() => ({ status: 200, body: active(false) }))
    const deps = makeDeps(server.fetch)
    expect(await Effect.runPromise(registerCurrent(deps, "import"))).toBe("registered")
    expect(server.seen).toEqual([
      { method: "POST", path: "/api/ton-space/addresses", body: { address: ADDRESS, walletClass: "v5r1", network: "mainnet", source: "import" }, cache: null },
    ])
  })

  it("says 'taken' when another user tracks the address, and sends nothing without a wallet", async () => {
    const server = fakeServer(() => ({ status: 409, body: { code: "address_owned_by_another_user", message: "taken" } }))
    expect(await Effect.runPromise(registerCurrent(makeDeps(server.fetch), "create"))).toBe("taken")
    expect(await Effect.runPromise(registerCurrent(makeDeps(server.fetch, initialWalletState), "create"))).toBe("no-wallet")
    expect(server.seen).toHaveLength(1)
  })

  it("after the word test posts the backup, refreshes the list, and the server flag completes the backup", async () => {
    let backedUp = false
    const server = fakeServer((method, path) => {
      if (method === "POST" && path === "/api/ton-space/backup/manual") {
        backedUp = true
        return { status: 200, body: active(true) }
      }
      return { status: 200, body: { actives: [active(backedUp)], backups: [] } }
    })
    const deps = makeDeps(server.fetch)
    expect(isBackupComplete(deps.store.get())).toBe(false)
    expect(await Effect.runPromise(reportManualBackup(deps, ADDRESS))).toBe(true)
    expect(server.seen.map((s) => `${s.method} ${s.path}`)).toEqual(["POST /api/ton-space/backup/manual", "GET /api/ton-space/addresses"])
    expect(server.seen[0]!.body).toEqual({ address: ADDRESS })
    // Only the server says so: the local flags are still off (a reinstall on a new device).
    const state = deps.store.get()
    expect(state.manualBackupComplete).toBe(false)
    expect(state.manualSetups).toEqual([])
    expect(state.serverBackups).toEqual([RAW])
    expect(isBackupComplete(state)).toBe(true)
  })

  it("registers an address the server does not know before posting its backup again", async () => {
    let registered = false
    const server = fakeServer((method, path) => {
      if (path === "/api/ton-space/backup/manual")
        return registered ? { status: 200, body: active(true) } : { status: 404, body: { code: "address_not_found", message: "no" } }
      if (method === "POST") {
        registered = true
        return { status: 200, body: active(false) }
      }
      return { status: 200, body: { actives: [active(true)], backups: [] } }
    })
    expect(await Effect.runPromise(reportManualBackup(makeDeps(server.fetch), ADDRESS))).toBe(true)
    expect(server.seen.map((s) => `${s.method} ${s.path}`)).toEqual([
      "POST /api/ton-space/backup/manual",
      "POST /api/ton-space/addresses",
      "POST /api/ton-space/backup/manual",
      "GET /api/ton-space/addresses",
    ])
  })

  it("answers false when the server refuses the backup, and the state keeps no server flag", async () => {
    const server = fakeServer(() => ({ status: 400, body: { code: "invalid_address", message: "bad" } }))
    const deps = makeDeps(server.fetch)
    expect(await Effect.runPromise(reportManualBackup(deps, ADDRESS))).toBe(false)
    expect(isBackupComplete(deps.store.get())).toBe(false)
  })

  it("a list without the flag clears an earlier server flag", async () => {
    const server = fakeServer(() => ({ status: 200, body: { actives: [active(false)], backups: [] } }))
    const deps = makeDeps(server.fetch, { ...initialWalletState, address: ADDRESS, raw: RAW, serverBackups: [RAW] })
    await Effect.runPromise(refreshAddresses(deps))
    expect(deps.store.get().serverBackups).toEqual([])
    expect(server.seen[0]!.cache).toBe("no-cache")
  })

  it("gives up on the list after 20 s", async () => {
    const server = fakeServer(() => "hang")
    const deps = makeDeps(server.fetch)
    const exit = await Effect.runPromise(
      Effect.gen(function* () {
        const fiber = yield* Effect.forkChild(Effect.exit(fetchAddresses(deps)))
        yield* TestClock.adjust(ADDRESSES_TIMEOUT_MS - 1)
        expect(fiber.pollUnsafe()).toBeUndefined()
        yield* TestClock.adjust(1)
        return yield* Fiber.join(fiber)
      }).pipe(Effect.provide(TestClock.layer())),
    )
    expect(Exit.isFailure(exit)).toBe(true)
    expect(JSON.stringify(exit)).toContain("Request timed out after 20000 ms")
  })

  it("untrack treats an unknown address (404) as done and fails on other errors", async () => {
    const notFound = fakeServer(() => ({ status: 404, body: { code: "address_not_found", message: "no" } }))
    await expect(Effect.runPromise(untrackAddress(makeDeps(notFound.fetch), ADDRESS))).resolves.toBeUndefined()
    const broken = fakeServer(() => ({ status: 400, body: { code: "invalid_address", message: "bad" } }))
    await expect(Effect.runPromise(untrackAddress(makeDeps(broken.fetch), ADDRESS))).rejects.toBeDefined()
  })
})
