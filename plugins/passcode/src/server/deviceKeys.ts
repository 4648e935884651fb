/**
 * Device keys of the key vault (docs/decisions/0602, 0511): 32 random bytes per (user, address)
 * under an externalId, leaving the server only RSA-OAEP wrapped to the client's transport key, and
 * only after the passcode (or biometry token) passed the same attempt counter as verify. Plus the
 * recovery key (key, iv, shard 1) released after an email code of reason get-recovery-key.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { Effect } from "effect";
import { HttpApiBuilder } from "effect/http-api";
import { SqlClient } from "effect/sql";
import { CurrentSession } from "@wallet/kernel/api";
import { DEVICE_SERIAL_HEADER, DeviceKeyNotFound, PasscodeApi, RecoveryKeyNotFound } from "../api.ts";
import { rsaOaepWrap } from "./crypto.ts";
import { checkEmailCode, consumeEmailCodes } from "./emailCodes.ts";
import { now, verifyCredential } from "./passcodes.ts";
import { serialFrom } from "./serial.ts";

const userId = Effect.gen(function* () {
  return (yield* CurrentSession).userId;
});

const wrap = (transportPublicKey: string, key: Buffer) => Effect.try({ try: () => rsaOaepWrap(transportPublicKey, key), catch: (error) => error }).pipe(Effect.orDie);

const notFound = () => new DeviceKeyNotFound({ code: "external_id_not_found", message: "externalId not found" });

export const DeviceKeysLive = HttpApiBuilder.group(PasscodeApi, "deviceKeys", (handlers) =>
  handlers
    .handle("generate", ({ payload }) =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient;
        const user = yield* userId;
        const key = randomBytes(32);
        const deviceEncryptionKey = yield* wrap(payload.transportPublicKey, key);
        const externalId = randomUUID();
        const at = yield* now;
        yield* Effect.orDie(sql`
          insert into passcode_device_keys (external_id, user_id, address, device_key, created_at)
          values (${externalId}, ${user}, ${payload.address}, ${key.toString("base64")}, ${at})`);
        return { externalId, deviceEncryptionKey };
      }),
    )
    .handle("get", ({ payload, headers }) =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient;
        const user = yield* userId;
        const serial = yield* serialFrom(payload.deviceSerial, headers[DEVICE_SERIAL_HEADER]);
        const [row] = yield* Effect.orDie(sql<{ address: string; device_key: string }>`
          select address, device_key from passcode_device_keys where external_id = ${payload.externalId} and user_id = ${user}`);
        if (row === undefined || row.address !== payload.address) return yield* notFound();
        yield* verifyCredential(user, serial, payload);
        return { deviceEncryptionKey: yield* wrap(payload.transportPublicKey, Buffer.from(row.device_key, "base64")) };
      }),
    )
    .handle("deleteAll", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient;
        const user = yield* userId;
        yield* Effect.orDie(sql`delete from passcode_device_keys where user_id = ${user}`);
      }),
    )
    .handle("storeRecoveryKey", ({ payload }) =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient;
        const user = yield* userId;
        const at = yield* now;
        yield* Effect.orDie(sql`
          insert into passcode_recovery_keys (user_id, product, key_hex, iv_hex, shard, updated_at)
          values (${user}, ${payload.product}, ${payload.key}, ${payload.iv}, ${payload.shard}, ${at})
          on conflict (user_id, product) do update set key_hex = excluded.key_hex, iv_hex = excluded.iv_hex, shard = excluded.shard, updated_at = excluded.updated_at`);
      }),
    )
    .handle("getRecoveryKey", ({ payload }) =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient;
        const user = yield* userId;
        const read = Effect.orDie(sql<{ key_hex: string; iv_hex: string; shard: string }>`
          select key_hex, iv_hex, shard from passcode_recovery_keys where user_id = ${user} and product = ${payload.product}`);
        if ((yield* read)[0] === undefined) return yield* new RecoveryKeyNotFound({ code: "recovery_key_not_found", message: "No recovery key is stored" });
        const row = yield* sql
          .withTransaction(
            Effect.gen(function* () {
              const code = yield* checkEmailCode(user, { kind: "recovery", product: payload.product, reason: "get-recovery-key" }, payload.emailCode);
              yield* consumeEmailCodes([code]);
              return (yield* read)[0]!;
            }),
          )
          .pipe(Effect.catchTag("SqlError", (error) => Effect.die(error)));
        return { key: row.key_hex, iv: row.iv_hex, shard: row.shard };
      }),
    ),
);

/**
 * The user's device-key records (address as generated, externalId, when), for other server modules
 * that list the user's backed-up wallets (the TON space's "backups", decision 0620). Never the key.
 */
export const deviceKeyRecordsOf = (user: number) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient;
    const rows = yield* sql<{ address: string; external_id: string; created_at: Date | string }>`
      select address, external_id, created_at from passcode_device_keys where user_id = ${user} order by created_at desc`;
    return rows.map((row) => ({ address: row.address, externalId: row.external_id, createdAt: new Date(row.created_at) }));
  }).pipe(Effect.orDie);
