/**
 * The server key that encrypts device keys at rest (docs/decisions/0540): AES-256-GCM under a key
 * that is never in the database, so a dump of `passcode_device_keys` alone yields nothing to test
 * 4-6 digit passcodes against offline.
 *
 * Where the key comes from, first match wins:
 * 1. `WALLET_DEVICE_KEY_SECRET` (base64, 32 bytes), with `WALLET_DEVICE_KEY_SECRETS_OLD`
 *    (comma-separated) still readable;
 * 2. the key file `pluginConfig.passcode.deviceKeyFile` (the host passes `<data>/keys/device-keys.key`):
 *    one base64 key per line, the first is current, the others stay readable; created with mode
 *    0600 (directory 0700) on first boot when it does not exist;
 * 3. a random key of this process (servers on in-memory data: nothing outlives the process anyway).
 *
 * Stored value: `dk1.<key id>.<iv>.<ciphertext+tag>` (base64url), the key id being the first 16 hex
 * of SHA-256 over a label and the key, so rotation needs no bookkeeping. The row's externalId, user
 * and address are the associated data: a value copied into another row does not open. Anything else
 * is a legacy plaintext row (base64 of the 32 bytes), re-encrypted at boot and on read.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto"
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, statSync, writeSync } from "node:fs"
import { dirname } from "node:path"
import { Context, Effect, Layer } from "effect"
import { ServerConfig } from "@wallet/kernel-server"

const PREFIX = "dk1"
const KEY_BYTES = 32
const IV_BYTES = 12
const TAG_BYTES = 16

export const keyIdOf = (key: Uint8Array): string => createHash("sha256").update("wallet/passcode/device-key-kek\0").update(key).digest("hex").slice(0, 16)

/** A base64 (or base64url) 32-byte key; throws with `source` in the message otherwise (never the value). */
export const parseKeySecret = (text: string, source: string): Buffer => {
  const trimmed = text.trim()
  const bytes = /^[A-Za-z0-9+/_-]+={0,2}$/.test(trimmed) ? Buffer.from(trimmed.replace(/-/g, "+").replace(/_/g, "/"), "base64") : Buffer.alloc(0)
  if (bytes.length !== KEY_BYTES) throw new Error(`${source}: not a base64 encoded 32-byte key`)
  return bytes
}

/** The associated data binding a stored device key to its row. */
export const deviceKeyAad = (row: { readonly externalId: string; readonly userId: number; readonly address: string }) =>
  `passcode_device_keys\0${row.externalId}\0${row.userId}\0${row.address}`

export type KeySource = "env" | "file" | "memory"

export interface DeviceKeyRingShape {
  readonly source: KeySource
  readonly currentId: string
  /** The ids of every readable key (current first). */
  readonly ids: ReadonlyArray<string>
  readonly seal: (plain: Uint8Array, aad: string) => string
  /**
   * The plain key of a stored value; `stale` when it is not under the current key (plaintext or an
   * old key: re-encrypt it). `unknown-key`: sealed under a key this server does not have.
   * `corrupt`: not a device key at all, or tampered (the tag does not verify).
   */
  readonly open: (stored: string, aad: string) => { readonly key: Buffer; readonly stale: boolean } | "unknown-key" | "corrupt"
}

export const makeKeyRing = (current: Uint8Array, old: ReadonlyArray<Uint8Array> = [], source: KeySource = "memory"): DeviceKeyRingShape => {
  const keys = new Map<string, Buffer>()
  const currentId = keyIdOf(current)
  keys.set(currentId, Buffer.from(current))
  for (const key of old) if (!keys.has(keyIdOf(key))) keys.set(keyIdOf(key), Buffer.from(key))
  return {
    source,
    currentId,
    ids: [...keys.keys()],
    seal: (plain, aad) => {
      const iv = randomBytes(IV_BYTES)
      const cipher = createCipheriv("aes-256-gcm", keys.get(currentId)!, iv)
      cipher.setAAD(Buffer.from(aad, "utf8"))
      const body = Buffer.concat([cipher.update(plain), cipher.final(), cipher.getAuthTag()])
      return `${PREFIX}.${currentId}.${iv.toString("base64url")}.${body.toString("base64url")}`
    },
    open: (stored, aad) => {
      const parts = stored.split(".")
      if (parts[0] !== PREFIX) {
        // Legacy plaintext (before decision 0540): base64 of the 32 bytes.
        const legacy = /^[A-Za-z0-9+/]+={0,2}$/.test(stored) ? Buffer.from(stored, "base64") : Buffer.alloc(0)
        return legacy.length === KEY_BYTES ? { key: legacy, stale: true } : "corrupt"
      }
      if (parts.length !== 4) return "corrupt"
      const key = keys.get(parts[1]!)
      if (key === undefined) return "unknown-key"
      const iv = Buffer.from(parts[2]!, "base64url")
      const body = Buffer.from(parts[3]!, "base64url")
      if (iv.length !== IV_BYTES || body.length !== KEY_BYTES + TAG_BYTES) return "corrupt"
      try {
        const decipher = createDecipheriv("aes-256-gcm", key, iv)
        decipher.setAAD(Buffer.from(aad, "utf8"))
        decipher.setAuthTag(body.subarray(KEY_BYTES))
        const plain = Buffer.concat([decipher.update(body.subarray(0, KEY_BYTES)), decipher.final()])
        return { key: plain, stale: parts[1] !== currentId }
      } catch {
        return "corrupt"
      }
    },
  }
}

/** Reads the key file's keys (first current), creating the file with a new key when it does not exist. */
export const loadOrCreateKeyFile = (path: string): { readonly keys: ReadonlyArray<Buffer>; readonly created: boolean; readonly looseMode: boolean } => {
  if (!existsSync(path)) {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 })
    try {
      // `wx`: two processes booting at once never overwrite each other's key.
      const fd = openSync(path, "wx", 0o600)
      try {
        writeSync(fd, `${randomBytes(KEY_BYTES).toString("base64")}\n`)
      } finally {
        closeSync(fd)
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error
    }
    const keys = readKeyFile(path)
    return { keys, created: true, looseMode: false }
  }
  const mode = statSync(path).mode & 0o777
  return { keys: readKeyFile(path), created: false, looseMode: (mode & 0o077) !== 0 }
}

const readKeyFile = (path: string): ReadonlyArray<Buffer> => {
  const lines = readFileSync(path, "utf8")
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#"))
  if (lines.length === 0) throw new Error(`${path}: no device key in the key file`)
  return lines.map((line, index) => parseKeySecret(line, `${path} line ${index + 1}`))
}

export interface KeyRingInputs {
  /** WALLET_DEVICE_KEY_SECRET */
  readonly secret?: string | undefined
  /** WALLET_DEVICE_KEY_SECRETS_OLD (comma-separated) */
  readonly secretsOld?: string | undefined
  /** The key file (pluginConfig.passcode.deviceKeyFile). */
  readonly file?: string | undefined
}

/** The key ring from the environment, else the key file, else a random key of this process. */
export const resolveKeyRing = (inputs: KeyRingInputs): { readonly ring: DeviceKeyRingShape; readonly note?: string } => {
  if (inputs.secret !== undefined && inputs.secret.trim() !== "") {
    const old = (inputs.secretsOld ?? "")
      .split(",")
      .map((part) => part.trim())
      .filter((part) => part !== "")
      .map((part, index) => parseKeySecret(part, `WALLET_DEVICE_KEY_SECRETS_OLD entry ${index + 1}`))
    return { ring: makeKeyRing(parseKeySecret(inputs.secret, "WALLET_DEVICE_KEY_SECRET"), old, "env") }
  }
  if (inputs.file !== undefined && inputs.file !== "") {
    const loaded = loadOrCreateKeyFile(inputs.file)
    const [current, ...old] = loaded.keys
    const note = loaded.created
      ? `created the device-key encryption key file ${inputs.file} (mode 0600): back it up apart from the database`
      : loaded.looseMode
        ? `${inputs.file} is readable by group or others: chmod 600 it`
        : undefined
    return { ring: makeKeyRing(current!, old, "file"), ...(note ? { note } : {}) }
  }
  return { ring: makeKeyRing(randomBytes(KEY_BYTES)) }
}

/** The device-key ring of this server (built once per server from env / key file / random). */
export class DeviceKeyRing extends Context.Service<DeviceKeyRing, DeviceKeyRingShape>()("wallet/passcode/DeviceKeyRing") {
  static readonly layer = Layer.effect(
    DeviceKeyRing,
    Effect.gen(function* () {
      const config = yield* ServerConfig
      const file = (config.pluginConfig.passcode as { deviceKeyFile?: unknown } | undefined)?.deviceKeyFile
      const { ring, note } = yield* Effect.try({
        try: () =>
          resolveKeyRing({
            secret: process.env.WALLET_DEVICE_KEY_SECRET,
            secretsOld: process.env.WALLET_DEVICE_KEY_SECRETS_OLD,
            file: typeof file === "string" ? file : undefined,
          }),
        catch: (error) => new Error(`passcode: device-key encryption key: ${error instanceof Error ? error.message : String(error)}`),
      }).pipe(Effect.orDie)
      if (note !== undefined) yield* Effect.logWarning(`[passcode] ${note}`)
      return ring
    }),
  )
}
