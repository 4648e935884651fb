/**
 * Device keys of the key vault (docs/decisions/0602, 0511, 0540): 32 random bytes per (user,
 * address) under an externalId, leaving the server only RSA-OAEP wrapped to the client's transport
 * key, and only after a passcode (or biometry token) proven for this user on the device serial of
 * the request, on the user's one attempt counter (`generate` as well as `get`). At rest they are
 * AES-256-GCM sealed under the server key of `keyring.ts`, which is not in the database. Plus the
 * recovery key (key, iv, shard 1) released after an email code of reason get-recovery-key.
 */
import { randomBytes, randomUUID } from "node:crypto"
import { Effect, Layer } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { SqlClient } from "effect/sql"
import { CurrentSession } from "@wallet/kernel/api"
import { DEVICE_SERIAL_HEADER, DeviceKeyNotFound, InvalidTransportKey, PasscodeApi, RecoveryKeyNotFound } from "../api.ts"
import { parseTransportKey, rsaOaepWrap } from "./crypto.ts"
import { checkEmailCode, consumeEmailCodes } from "./emailCodes.ts"
import { deviceKeyAad, DeviceKeyRing, type DeviceKeyRingShape } from "./keyring.ts"
import { now, verifyCredential } from "./passcodes.ts"
import { serialFrom } from "./serial.ts"

const userId = Effect.gen(function* () {
  return (yield* CurrentSession).userId
})

const notFound = () => new DeviceKeyNotFound({ code: "external_id_not_found", message: "externalId not found" })

/** The transport key as an RSA-2048+ key, or a 400 (before any passcode check: a bad key burns no attempt). */
const transportKey = (spki: string) => {
  const key = parseTransportKey(spki)
  return key === undefined
    ? Effect.fail(new InvalidTransportKey({ code: "invalid_transport_key", message: "transportPublicKey is not an RSA-2048 (or larger) SPKI public key" }))
    : Effect.succeed(key)
}

interface StoredRow {
  readonly external_id: string
  readonly user_id: unknown
  readonly address: string
  readonly device_key: string
}

const aadOf = (row: StoredRow) => deviceKeyAad({ externalId: row.external_id, userId: Number(row.user_id), address: row.address })

/**
 * The plain key of a stored row; a plaintext (pre-0540) or old-key row is re-encrypted under the
 * current key on the way (conditional on the value read, so concurrent readers agree).
 */
const openStored = (ring: DeviceKeyRingShape, row: StoredRow) =>
  Effect.gen(function* () {
    const opened = ring.open(row.device_key, aadOf(row))
    if (opened === "unknown-key" || opened === "corrupt") {
      // Server misconfiguration (a key left out of WALLET_DEVICE_KEY_SECRETS_OLD / the key file) or tampering.
      return yield* Effect.die(
        new Error(`device key ${row.external_id}: ${opened === "unknown-key" ? "sealed under a key this server does not have" : "not readable"}`),
      )
    }
    if (opened.stale) yield* reseal(ring, row, opened.key)
    return opened.key
  })

const reseal = (ring: DeviceKeyRingShape, row: StoredRow, key: Buffer) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* Effect.orDie(sql`update passcode_device_keys set device_key = ${ring.seal(key, aadOf(row))}
      where external_id = ${row.external_id} and device_key = ${row.device_key}`)
  })

/**
 * Boot step: seals every plaintext row and re-encrypts every row of an old key under the current
 * one (rotation), in batches; rows under unknown keys are counted and reported, never touched.
 */
export const resealDeviceKeys = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const ring = yield* DeviceKeyRing
  const current = `dk1.${ring.currentId}.%`
  let after = ""
  let resealed = 0
  let unreadable = 0
  for (;;) {
    const rows = yield* sql<StoredRow>`
      select external_id, user_id, address, device_key from passcode_device_keys
      where device_key not like ${current} and external_id > ${after}
      order by external_id limit 200`
    for (const row of rows) {
      const opened = ring.open(row.device_key, aadOf(row))
      if (opened === "unknown-key" || opened === "corrupt") unreadable++
      else {
        yield* reseal(ring, row, opened.key)
        resealed++
      }
    }
    if (rows.length < 200) break
    after = rows[rows.length - 1]!.external_id
  }
  if (resealed > 0) yield* Effect.logInfo(`[passcode] device keys sealed under key ${ring.currentId}: ${resealed}`)
  if (unreadable > 0)
    yield* Effect.logError(
      `[passcode] ${unreadable} device keys are sealed under a key this server does not have (or unreadable): add the old key (decision 0540)`,
    )
  return { resealed, unreadable }
})

/** Runs the reseal once at boot, in the background (reads reseal on their own meanwhile). */
export const DeviceKeysAtRest = Layer.effectDiscard(Effect.forkScoped(resealDeviceKeys.pipe(Effect.ignore)))

export const DeviceKeysLive = HttpApiBuilder.group(PasscodeApi, "deviceKeys", (handlers) =>
  handlers
    .handle("generate", ({ payload, headers }) =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const ring = yield* DeviceKeyRing
        const user = yield* userId
        const serial = yield* serialFrom(payload.deviceSerial, headers[DEVICE_SERIAL_HEADER])
        const transport = yield* transportKey(payload.transportPublicKey)
        yield* verifyCredential(user, serial, payload)
        const key = randomBytes(32)
        const externalId = randomUUID()
        const at = yield* now
        const sealed = ring.seal(key, deviceKeyAad({ externalId, userId: user, address: payload.address }))
        yield* Effect.orDie(sql`
          insert into passcode_device_keys (external_id, user_id, address, device_key, created_at)
          values (${externalId}, ${user}, ${payload.address}, ${sealed}, ${at})`)
        return { externalId, deviceEncryptionKey: rsaOaepWrap(transport, key) }
      }),
    )
    .handle("get", ({ payload, headers }) =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const ring = yield* DeviceKeyRing
        const user = yield* userId
        const serial = yield* serialFrom(payload.deviceSerial, headers[DEVICE_SERIAL_HEADER])
        const [row] = yield* Effect.orDie(sql<StoredRow>`
          select external_id, user_id, address, device_key from passcode_device_keys where external_id = ${payload.externalId} and user_id = ${user}`)
        if (row === undefined || row.address !== payload.address) return yield* notFound()
        const transport = yield* transportKey(payload.transportPublicKey)
        yield* verifyCredential(user, serial, payload)
        const key = yield* openStored(ring, row)
        return { deviceEncryptionKey: rsaOaepWrap(transport, key) }
      }),
    )
    .handle("deleteAll", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const user = yield* userId
        yield* Effect.orDie(sql`delete from passcode_device_keys where user_id = ${user}`)
      }),
    )
    .handle("storeRecoveryKey", ({ payload }) =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const user = yield* userId
        const at = yield* now
        yield* Effect.orDie(sql`
          insert into passcode_recovery_keys (user_id, product, key_hex, iv_hex, shard, updated_at)
          values (${user}, ${payload.product}, ${payload.key}, ${payload.iv}, ${payload.shard}, ${at})
          on conflict (user_id, product) do update set key_hex = excluded.key_hex, iv_hex = excluded.iv_hex, shard = excluded.shard, updated_at = excluded.updated_at`)
      }),
    )
    .handle("getRecoveryKey", ({ payload }) =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const user = yield* userId
        const read = Effect.orDie(sql<{ key_hex: string; iv_hex: string; shard: string }>`
          select key_hex, iv_hex, shard from passcode_recovery_keys where user_id = ${user} and product = ${payload.product}`)
        if ((yield* read)[0] === undefined) return yield* new RecoveryKeyNotFound({ code: "recovery_key_not_found", message: "No recovery key is stored" })
        const row = yield* sql
          .withTransaction(
            Effect.gen(function* () {
              const code = yield* checkEmailCode(user, { kind: "recovery", product: payload.product, reason: "get-recovery-key" }, payload.emailCode)
              yield* consumeEmailCodes([code])
              return (yield* read)[0]!
            }),
          )
          .pipe(Effect.catchTag("SqlError", (error) => Effect.die(error)))
        return { key: row.key_hex, iv: row.iv_hex, shard: row.shard }
      }),
    ),
)

/**
 * The user's device-key records (address as generated, externalId, when), for other server modules
 * that list the user's backed-up wallets (the TON space's "backups", decision 0620). Never the key.
 */
export const deviceKeyRecordsOf = (user: number) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<{ address: string; external_id: string; created_at: Date | string }>`
      select address, external_id, created_at from passcode_device_keys where user_id = ${user} order by created_at desc`
    return rows.map((row) => ({ address: row.address, externalId: row.external_id, createdAt: new Date(row.created_at) }))
  }).pipe(Effect.orDie)
