import { randomBytes, randomUUID } from "node:crypto"
import { Address } from "@ton/core"
import { Effect, Layer } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { signInitData, startServer, type RunningServer } from "@wallet/kernel-server"
import { startTestDatabase, testDatabases, type TestDatabase } from "@wallet/kernel-server/testing"
import { generateTransportKeyPair } from "@wallet/kernel/keyvault"
import { serverPlugin as passcodeServerPlugin } from "@wallet/plugin-passcode/server"
import { BackupKeys, makeTonSpaceServerPlugin, serverPlugin, type BackupKeyRecord } from "../src/server/index.ts"

const BOT_TOKEN = "1234567:ton-space-test"
const clock = { now: Date.UTC(2026, 10, 1, 9, 0, 0) }

/** Key records per user, as the passcode plugin's device keys would answer them. */
const keyRecords = new Map<number, Array<BackupKeyRecord>>()
const backupKeys = Layer.succeed(BackupKeys, BackupKeys.of({ list: (user) => Effect.sync(() => keyRecords.get(user) ?? []) }))

/** A fresh random wallet address in its three spellings. */
const newAddress = () => {
  const address = new Address(0, randomBytes(32))
  return {
    raw: address.toRawString(),
    friendly: address.toString({ bounceable: false, urlSafe: true }),
    testnet: address.toString({ bounceable: false, urlSafe: true, testOnly: true }),
  }
}

let nextUser = 7_100_000_001

describe.each(testDatabases)("ton-space server on %s", (kind) => {
  let database: TestDatabase
  let server: RunningServer

  beforeAll(async () => {
    database = await startTestDatabase(kind)
    server = await startServer({
      port: 0,
      database: database.options,
      botToken: BOT_TOKEN,
      dev: true,
      now: () => clock.now,
      accessTokenTtlSeconds: 365 * 24 * 3600,
      plugins: [passcodeServerPlugin, makeTonSpaceServerPlugin({ backupKeys })],
    })
  }, 90_000)

  afterAll(async () => {
    await server?.close()
    await database?.stop()
  })

  interface Reply {
    readonly status: number
    readonly body: any
  }

  const request = async (token: string | undefined, method: string, path: string, body?: unknown): Promise<Reply> => {
    const response = await fetch(`${server.url}${path}`, {
      method,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { "content-type": "application/json" }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
    const text = await response.text()
    return { status: response.status, body: text === "" ? undefined : JSON.parse(text) }
  }

  const signIn = async (id = nextUser++) => {
    const initData = signInitData(
      { user: { id, first_name: "Ton", language_code: "en" }, authDate: new Date(clock.now), queryId: randomUUID(), chatType: "sender" },
      BOT_TOKEN,
    )
    const auth = await fetch(`${server.url}/api/auth/init`, { method: "POST", headers: { authorization: `tma ${initData}` } })
    expect(auth.status).toBe(200)
    const { access_token: token } = (await auth.json()) as { access_token: string }
    return {
      id,
      list: () => request(token, "GET", "/api/ton-space/addresses"),
      register: (address: string, extra: Partial<{ walletClass: string; network: string; source: string }> = {}) =>
        request(token, "POST", "/api/ton-space/addresses", { address, walletClass: "v5r1", network: "mainnet", source: "create", ...extra }),
      backup: (address: unknown) => request(token, "POST", "/api/ton-space/backup/manual", { address }),
      claim: (address: unknown) => request(token, "POST", "/api/ton-space/addresses/claim", { address }),
      untrack: (address: string) => request(token, "POST", "/api/ton-space/addresses/untrack", { address }),
      externalId: (address: string) => request(token, "GET", `/api/ton-space/external-id?address=${encodeURIComponent(address)}`),
    }
  }

  describe("GET /api/ton-space/addresses", () => {
    it("needs a signed-in user", async () => {
      const reply = await request(undefined, "GET", "/api/ton-space/addresses")
      expect(reply.status).toBe(401)
      expect(reply.body.code).toBe("token_missing")
    })

    it("is empty for a new user and lists only the user's tracked addresses, raw", async () => {
      const alice = await signIn()
      const bob = await signIn()
      expect((await alice.list()).body).toEqual({ actives: [], backups: [] })
      const a = newAddress()
      const b = newAddress()
      expect((await alice.register(a.friendly)).status).toBe(200)
      expect((await bob.register(b.friendly)).status).toBe(200)
      const list = await alice.list()
      expect(list.status).toBe(200)
      expect(list.body.actives).toEqual([
        { address: a.raw, walletClass: "v5r1", network: "mainnet", source: "create", manualBackupComplete: false, backedUpAt: null },
      ])
    })

    it("lists the user's key records as backups with raw addresses, newest first", async () => {
      const user = await signIn()
      const a = newAddress()
      keyRecords.set(user.id, [
        { address: a.friendly, externalId: "ext-old", createdAt: new Date(clock.now - 60_000) },
        { address: a.raw, externalId: "ext-new", createdAt: new Date(clock.now) },
        { address: "not-an-address", externalId: "ext-broken", createdAt: new Date(clock.now) },
      ])
      const list = await user.list()
      expect(list.body.backups).toEqual([
        { address: a.raw, externalId: "ext-new" },
        { address: a.raw, externalId: "ext-old" },
      ])
    })
  })

  describe("POST /api/ton-space/addresses (create and import)", () => {
    it("tracks the address once; a second call updates version and network", async () => {
      const user = await signIn()
      const a = newAddress()
      const first = await user.register(a.friendly)
      expect(first.body).toMatchObject({ address: a.raw, walletClass: "v5r1", network: "mainnet", source: "create" })
      const again = await user.register(a.raw, { walletClass: "v4r2", network: "testnet", source: "import" })
      expect(again.status).toBe(200)
      expect(again.body).toMatchObject({ address: a.raw, walletClass: "v4r2", network: "testnet", source: "import" })
      expect((await user.list()).body.actives).toHaveLength(1)
    })

    it("refuses an address another user tracks (409)", async () => {
      const alice = await signIn()
      const bob = await signIn()
      const a = newAddress()
      await alice.register(a.friendly)
      const reply = await bob.register(a.friendly, { source: "import" })
      expect(reply.status).toBe(409)
      expect(reply.body).toMatchObject({ code: "address_owned_by_another_user", message: `Address ${a.raw} is tracked by another user` })
      expect((await bob.list()).body.actives).toEqual([])
    })

    it("answers 400 with the field for a bad body and a bad checksum", async () => {
      const user = await signIn()
      const shape = await user.register("hello")
      expect(shape.status).toBe(400)
      expect(shape.body.code).toBe("invalid_request")
      expect(JSON.stringify(shape.body.issues)).toContain("address")
      const a = newAddress()
      const broken = a.friendly.slice(0, -1) + (a.friendly.endsWith("A") ? "B" : "A")
      const checksum = await user.register(broken)
      expect(checksum.status).toBe(400)
      expect(checksum.body).toMatchObject({ code: "invalid_address", message: `Invalid address: ${broken}` })
      const version = await user.register(a.friendly, { walletClass: "v9" })
      expect(version.status).toBe(400)
      expect(JSON.stringify(version.body.issues)).toContain("walletClass")
    })
  })

  describe("POST /api/ton-space/backup/manual", () => {
    it("sets the flag once (idempotent, the first time stays) and the list shows it", async () => {
      const user = await signIn()
      const a = newAddress()
      await user.register(a.friendly)
      const first = await user.backup(a.friendly)
      expect(first.status).toBe(200)
      expect(first.body).toMatchObject({ address: a.raw, manualBackupComplete: true, backedUpAt: new Date(clock.now).toISOString() })
      clock.now += 60_000
      const second = await user.backup(a.raw)
      expect(second.status).toBe(200)
      expect(second.body.backedUpAt).toBe(first.body.backedUpAt)
      expect((await user.list()).body.actives[0]).toMatchObject({ address: a.raw, manualBackupComplete: true })
    })

    it("is 404 for an address that is not the user's, and leaves the owner's flag alone", async () => {
      const alice = await signIn()
      const bob = await signIn()
      const a = newAddress()
      await alice.register(a.friendly)
      const foreign = await bob.backup(a.friendly)
      expect(foreign.status).toBe(404)
      expect(foreign.body).toMatchObject({ code: "address_not_found", message: `Address ${a.raw} is not one of your wallets` })
      const unknown = await bob.backup(newAddress().friendly)
      expect(unknown.status).toBe(404)
      expect((await alice.list()).body.actives[0].manualBackupComplete).toBe(false)
    })

    it("answers 400 for a missing or invalid address", async () => {
      const user = await signIn()
      expect((await user.backup(undefined)).status).toBe(400)
      expect((await user.backup(42)).status).toBe(400)
    })

    it("keeps the flag across logout (untrack) and a later import of the same address", async () => {
      const user = await signIn()
      const a = newAddress()
      await user.register(a.friendly)
      await user.backup(a.friendly)
      expect((await user.untrack(a.friendly)).status).toBe(204)
      expect((await user.list()).body.actives).toEqual([])
      const imported = await user.register(a.friendly, { source: "import" })
      expect(imported.body).toMatchObject({ manualBackupComplete: true, source: "import" })
    })
  })

  describe("POST /api/ton-space/addresses/claim", () => {
    it("tracks an unknown address with the network of its spelling, and is idempotent", async () => {
      const user = await signIn()
      const a = newAddress()
      const claimed = await user.claim(a.testnet)
      expect(claimed.status).toBe(200)
      expect(claimed.body).toEqual({ address: a.raw, walletClass: null, network: "testnet", source: "claim", manualBackupComplete: false, backedUpAt: null })
      expect((await user.claim(a.raw)).status).toBe(200)
      expect((await user.list()).body.actives).toHaveLength(1)
    })

    it("keeps the version, network and backup flag of the user's own untracked address", async () => {
      const user = await signIn()
      const a = newAddress()
      await user.register(a.friendly, { walletClass: "v4r2" })
      await user.backup(a.friendly)
      await user.untrack(a.friendly)
      const claimed = await user.claim(a.raw)
      expect(claimed.body).toMatchObject({ walletClass: "v4r2", network: "mainnet", source: "create", manualBackupComplete: true })
    })

    it("refuses an address another user tracks (409); after their logout it can be claimed, without their backup flag", async () => {
      const alice = await signIn()
      const bob = await signIn()
      const a = newAddress()
      await alice.register(a.friendly)
      await alice.backup(a.friendly)
      const refused = await bob.claim(a.friendly)
      expect(refused.status).toBe(409)
      expect(refused.body.code).toBe("address_owned_by_another_user")
      await alice.untrack(a.friendly)
      const claimed = await bob.claim(a.friendly)
      expect(claimed.status).toBe(200)
      expect(claimed.body).toMatchObject({ address: a.raw, source: "claim", manualBackupComplete: false })
      expect((await alice.register(a.friendly)).status).toBe(409)
    })

    it("answers 400 for an invalid address", async () => {
      const user = await signIn()
      const reply = await user.claim("0:zz")
      expect(reply.status).toBe(400)
      expect(reply.body.code).toBe("invalid_request")
    })
  })

  describe("POST /api/ton-space/addresses/untrack", () => {
    it("is 404 for another user's address", async () => {
      const alice = await signIn()
      const bob = await signIn()
      const a = newAddress()
      await alice.register(a.friendly)
      const reply = await bob.untrack(a.friendly)
      expect(reply.status).toBe(404)
      expect((await alice.list()).body.actives).toHaveLength(1)
    })
  })

  describe("GET /api/ton-space/external-id", () => {
    it("answers the newest key record of the address in any spelling", async () => {
      const user = await signIn()
      const a = newAddress()
      keyRecords.set(user.id, [
        { address: a.friendly, externalId: "first", createdAt: new Date(clock.now - 1000) },
        { address: a.friendly, externalId: "second", createdAt: new Date(clock.now) },
      ])
      const reply = await user.externalId(a.raw)
      expect(reply.status).toBe(200)
      expect(reply.body).toEqual({ address: a.raw, externalId: "second" })
    })

    it("is 404 'externalId not found' without a record, and 400 for a bad address", async () => {
      const user = await signIn()
      const missing = await user.externalId(newAddress().friendly)
      expect(missing.status).toBe(404)
      expect(missing.body).toMatchObject({ code: "external_id_not_found", message: "externalId not found" })
      expect((await user.externalId("nope")).status).toBe(400)
    })
  })
})

describe("ton-space server with its default key records (the passcode plugin's device keys)", () => {
  let database: TestDatabase
  let server: RunningServer

  beforeAll(async () => {
    database = await startTestDatabase("pglite")
    server = await startServer({
      port: 0,
      database: database.options,
      botToken: BOT_TOKEN,
      dev: true,
      now: () => clock.now,
      plugins: [passcodeServerPlugin, serverPlugin],
    })
  }, 90_000)

  afterAll(async () => {
    await server?.close()
    await database?.stop()
  })

  it("lists an address whose device key was generated as a backup with that key's externalId", async () => {
    const initData = signInitData(
      { user: { id: nextUser++, first_name: "Keys", language_code: "en" }, authDate: new Date(clock.now), queryId: randomUUID(), chatType: "sender" },
      BOT_TOKEN,
    )
    const auth = (await (await fetch(`${server.url}/api/auth/init`, { method: "POST", headers: { authorization: `tma ${initData}` } })).json()) as {
      access_token: string
    }
    const call = async (method: string, path: string, body?: unknown) => {
      const response = await fetch(`${server.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${auth.access_token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      })
      return { status: response.status, body: (await response.json()) as any }
    }
    const address = newAddress()
    expect((await call("GET", "/api/ton-space/addresses")).body.backups).toEqual([])
    // A device key needs a passcode proven on this device (decision 0540): recovery email and passcode first.
    const email = `keys${randomUUID()}@example.com`
    const device = randomUUID()
    expect((await call("POST", "/api/recovery-email/request-code", { product: "wallet", reason: "confirm-email", language: "en", email })).status).toBe(200)
    const outbox = await (await fetch(`${server.url}/api/dev/outbox.html?recipient=${encodeURIComponent(email)}`)).text()
    const emailCode = /Your code: (\d{6})/.exec(outbox)![1]!
    expect(
      (await call("POST", "/api/passcode/create", { email, emailCode, newPasscode: "2468", newPasscodeType: "4-digit", deviceSerial: device })).status,
    ).toBe(200)
    const transport = await generateTransportKeyPair()
    const generated = await call("POST", "/api/device-keys/generate", {
      address: address.friendly,
      transportPublicKey: transport.publicKey,
      passcode: "2468",
      deviceSerial: device,
    })
    expect(generated.status).toBe(200)
    expect((await call("GET", "/api/ton-space/addresses")).body.backups).toEqual([{ address: address.raw, externalId: generated.body.externalId }])
    const found = await call("GET", `/api/ton-space/external-id?address=${encodeURIComponent(address.raw)}`)
    expect(found.body).toMatchObject({ externalId: generated.body.externalId })
  })
})
