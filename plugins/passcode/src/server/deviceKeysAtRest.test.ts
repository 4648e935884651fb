/**
 * Device keys at rest across restarts (decision 0540): the key file made on first boot keeps them
 * readable, legacy plaintext rows are sealed at boot, and a rotation (a new first line in the key
 * file) re-encrypts every row at the next boot so the old key can then be dropped.
 */
import { randomBytes, randomUUID } from "node:crypto"
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { signInitData, startServer, type RunningServer } from "@wallet/kernel-server"
import { generateTransportKeyPair, rsaUnwrap, toHex } from "@wallet/kernel/keyvault"
import { makePasscodeServerPlugin } from "./index.ts"
import { keyIdOf, parseKeySecret } from "./keyring.ts"

const BOT_TOKEN = "1234567:passcode-at-rest"
const ADDRESS = "0:" + "ab".repeat(32)
const USER = 9_300_000_001
const dir = mkdtempSync(join(tmpdir(), "passcode-at-rest-"))
const keyFile = join(dir, "keys", "device-keys.key")
let server: RunningServer | undefined

afterAll(async () => {
  await server?.close()
  rmSync(dir, { recursive: true, force: true })
})

const boot = async () => {
  await server?.close()
  server = await startServer({
    port: 0,
    database: { kind: "pglite", dataDir: join(dir, "pglite") },
    botToken: BOT_TOKEN,
    dev: true,
    plugins: [makePasscodeServerPlugin()],
    pluginConfig: { passcode: { deviceKeyFile: keyFile } },
  })
  const initData = signInitData(
    { user: { id: USER, first_name: "Rest", language_code: "en" }, authDate: new Date(), queryId: randomUUID(), chatType: "sender" },
    BOT_TOKEN,
  )
  const auth = (await (await fetch(`${server.url}/api/auth/init`, { method: "POST", headers: { authorization: `tma ${initData}` } })).json()) as {
    access_token: string
  }
  const s = server
  const post = async (path: string, body: unknown) => {
    const response = await fetch(`${s.url}${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${auth.access_token}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    })
    const text = await response.text()
    return { status: response.status, body: text === "" ? undefined : JSON.parse(text) }
  }
  return { server: s, post }
}

const storedKeys = async (s: RunningServer) =>
  (await s.sql("select external_id, device_key from passcode_device_keys order by external_id")).map((row) => ({
    externalId: String(row.external_id),
    stored: String(row.device_key),
  }))

describe("device keys at rest across restarts (key file, boot reseal, rotation)", () => {
  it("keeps device keys readable across restarts, seals legacy rows at boot and re-encrypts every row after a rotation", async () => {
    const device = randomUUID()
    const email = `rest${USER}@example.com`
    const first = await boot()
    // The key file is made on first boot, mode 0600, outside the database.
    expect(statSync(keyFile).mode & 0o777).toBe(0o600)
    const firstKey = parseKeySecret(readFileSync(keyFile, "utf8"), "key file")
    expect((await first.post("/api/recovery-email/request-code", { product: "wallet", reason: "confirm-email", language: "en", email })).status).toBe(200)
    const outbox = await (await fetch(`${first.server.url}/api/dev/outbox.html?recipient=${encodeURIComponent(email)}`)).text()
    const code = /Your code: (\d{6})/.exec(outbox)![1]!
    expect(
      (await first.post("/api/passcode/create", { email, emailCode: code, newPasscode: "2468", newPasscodeType: "4-digit", deviceSerial: device })).status,
    ).toBe(200)
    const transport = await generateTransportKeyPair()
    const generated = await first.post("/api/device-keys/generate", {
      address: ADDRESS,
      transportPublicKey: transport.publicKey,
      passcode: "2468",
      deviceSerial: device,
    })
    expect(generated.status).toBe(200)
    const generatedKey = toHex(await rsaUnwrap(transport.privateKey, generated.body.deviceEncryptionKey))
    // A row as the plugin stored it before decision 0540: the key in plain base64.
    const legacy = randomBytes(32)
    const legacyId = randomUUID()
    await first.server.sql("insert into passcode_device_keys (external_id, user_id, address, device_key, created_at) values ($1, $2, $3, $4, now())", [
      legacyId,
      USER,
      ADDRESS,
      legacy.toString("base64"),
    ])

    const get = async (api: Awaited<ReturnType<typeof boot>>, externalId: string) => {
      const reply = await api.post("/api/device-keys/get", {
        externalId,
        address: ADDRESS,
        transportPublicKey: transport.publicKey,
        passcode: "2468",
        deviceSerial: device,
      })
      expect(reply.status, JSON.stringify(reply.body)).toBe(200)
      return toHex(await rsaUnwrap(transport.privateKey, reply.body.deviceEncryptionKey))
    }
    const allUnder = (s: RunningServer, keyId: string) => async () => (await storedKeys(s)).every((row) => row.stored.startsWith(`dk1.${keyId}.`))

    // Restart: the boot step seals the legacy row; both keys still open with the passcode.
    const second = await boot()
    await expect.poll(allUnder(second.server, keyIdOf(firstKey)), { timeout: 20_000 }).toBe(true)
    expect(JSON.stringify(await storedKeys(second.server))).not.toContain(legacy.toString("base64"))
    expect(await get(second, generated.body.externalId)).toBe(generatedKey)
    expect(await get(second, legacyId)).toBe(legacy.toString("hex"))

    // Rotation: a new first line in the key file, the old key below it; the next boot re-encrypts everything.
    const nextKey = randomBytes(32)
    writeFileSync(keyFile, `${nextKey.toString("base64")}\n${firstKey.toString("base64")}\n`, { mode: 0o600 })
    const third = await boot()
    await expect.poll(allUnder(third.server, keyIdOf(nextKey)), { timeout: 20_000 }).toBe(true)
    expect(await get(third, generated.body.externalId)).toBe(generatedKey)

    // Then the old key can go.
    writeFileSync(keyFile, `${nextKey.toString("base64")}\n`, { mode: 0o600 })
    const fourth = await boot()
    expect(await get(fourth, generated.body.externalId)).toBe(generatedKey)
    expect(await get(fourth, legacyId)).toBe(legacy.toString("hex"))
  }, 120_000)
})
