import { randomBytes } from "node:crypto"
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, chmodSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { deviceKeyAad, keyIdOf, loadOrCreateKeyFile, makeKeyRing, parseKeySecret, resolveKeyRing } from "./keyring.ts"

const dirs: Array<string> = []
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "passcode-keyring-"))
  dirs.push(dir)
  return dir
}
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

const row = { externalId: "ext-1", userId: 42, address: "0:" + "ab".repeat(32) }
const aad = deviceKeyAad(row)

describe("device-key ring (encryption at rest, decision 0540)", () => {
  it("seals with AES-256-GCM under the current key id; the stored value is not the key and opens only with the ring and the row's data", () => {
    const ring = makeKeyRing(randomBytes(32))
    const key = randomBytes(32)
    const sealed = ring.seal(key, aad)
    expect(sealed).toMatch(new RegExp(`^dk1\\.${ring.currentId}\\.[A-Za-z0-9_-]{16}\\.[A-Za-z0-9_-]{64}$`))
    for (const form of [key.toString("hex"), key.toString("base64"), key.toString("base64url")]) expect(sealed).not.toContain(form)
    expect(ring.seal(key, aad)).not.toBe(sealed) // a fresh iv every time
    expect(ring.open(sealed, aad)).toEqual({ key, stale: false })
    // Another row (user, externalId or address), another server key, a flipped bit: nothing.
    expect(ring.open(sealed, deviceKeyAad({ ...row, userId: 43 }))).toBe("corrupt")
    expect(ring.open(sealed, deviceKeyAad({ ...row, externalId: "ext-2" }))).toBe("corrupt")
    expect(makeKeyRing(randomBytes(32)).open(sealed, aad)).toBe("unknown-key")
    const flipped = sealed.slice(0, -2) + (sealed.endsWith("A") ? "BA" : "AA")
    expect(ring.open(flipped, aad)).toBe("corrupt")
    expect(ring.open("dk1.nope", aad)).toBe("corrupt")
  })

  it("reads legacy plaintext rows as stale (to be sealed)", () => {
    const ring = makeKeyRing(randomBytes(32))
    const key = randomBytes(32)
    expect(ring.open(key.toString("base64"), aad)).toEqual({ key, stale: true })
    expect(ring.open("not a key", aad)).toBe("corrupt")
  })

  it("rotation: a ring with the new key current and the old one kept opens old values as stale and seals under the new key", () => {
    const oldKey = randomBytes(32)
    const newKey = randomBytes(32)
    const key = randomBytes(32)
    const before = makeKeyRing(oldKey).seal(key, aad)
    const rotated = makeKeyRing(newKey, [oldKey])
    expect(rotated.currentId).toBe(keyIdOf(newKey))
    expect(rotated.ids).toEqual([keyIdOf(newKey), keyIdOf(oldKey)])
    expect(rotated.open(before, aad)).toEqual({ key, stale: true })
    const resealed = rotated.seal(key, aad)
    expect(resealed.split(".")[1]).toBe(keyIdOf(newKey))
    // Once everything is resealed the old key can go.
    expect(makeKeyRing(newKey).open(resealed, aad)).toEqual({ key, stale: false })
    expect(makeKeyRing(newKey).open(before, aad)).toBe("unknown-key")
  })

  it("takes the key from WALLET_DEVICE_KEY_SECRET (base64, 32 bytes) with old keys from WALLET_DEVICE_KEY_SECRETS_OLD, before any key file", () => {
    const current = randomBytes(32)
    const old = [randomBytes(32), randomBytes(32)]
    const file = join(tempDir(), "keys", "device-keys.key")
    const { ring } = resolveKeyRing({ secret: current.toString("base64"), secretsOld: old.map((k) => k.toString("base64url")).join(" , "), file })
    expect(ring.source).toBe("env")
    expect(ring.ids).toEqual([keyIdOf(current), ...old.map(keyIdOf)])
    expect(() => statSync(file)).toThrow() // no file made when the environment has the key
    expect(() => resolveKeyRing({ secret: "c2hvcnQ=" })).toThrow(/WALLET_DEVICE_KEY_SECRET: not a base64 encoded 32-byte key/)
    expect(() => resolveKeyRing({ secret: current.toString("base64"), secretsOld: "nope" })).toThrow(/WALLET_DEVICE_KEY_SECRETS_OLD entry 1/)
    expect(() => parseKeySecret(`${current.toString("base64")}!`, "x")).toThrow(/^x: /)
  })

  it("creates the key file with mode 0600 (directory 0700) on first boot and reads the same key afterwards; extra lines are old keys", () => {
    const dir = tempDir()
    const file = join(dir, "keys", "device-keys.key")
    const first = resolveKeyRing({ file })
    expect(first.ring.source).toBe("file")
    expect(first.note).toMatch(/created/)
    expect(statSync(file).mode & 0o777).toBe(0o600)
    expect(statSync(join(dir, "keys")).mode & 0o777).toBe(0o700)
    expect(parseKeySecret(readFileSync(file, "utf8"), "file")).toHaveLength(32)
    const second = resolveKeyRing({ file })
    expect(second.ring.currentId).toBe(first.ring.currentId)
    expect(second.note).toBeUndefined()
    // Rotation with the file: a new first line, the old key kept below it.
    const next = randomBytes(32)
    writeFileSync(file, `# rotated\n${next.toString("base64")}\n${readFileSync(file, "utf8")}`)
    const rotated = resolveKeyRing({ file })
    expect(rotated.ring.ids).toEqual([keyIdOf(next), first.ring.currentId])
    // A file others can read is reported.
    chmodSync(file, 0o644)
    expect(loadOrCreateKeyFile(file).looseMode).toBe(true)
    expect(resolveKeyRing({ file }).note).toMatch(/chmod 600/)
  })

  it("without a secret or a key file (memory data) the key is random per server", () => {
    const a = resolveKeyRing({}).ring
    const b = resolveKeyRing({}).ring
    expect(a.source).toBe("memory")
    expect(a.currentId).not.toBe(b.currentId)
  })
})
