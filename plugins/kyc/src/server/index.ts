/**
 * `@wallet/plugin-kyc/server`: the plugin's server module: one migration (table `kyc_notes`) and the
 * handlers of `KycGroup`.
 */
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { SqlClient } from "effect/sql"
import { CurrentSession } from "@wallet/kernel/api"
import { defineServerPlugin, ServerConfig, sqlStatements, type Migration, type ServerPlugin } from "@wallet/kernel-server"
import { KycApi, KycGroup } from "../api.ts"

export const kycMigrations: ReadonlyArray<Migration> = [
  {
    id: 1,
    name: "kyc: notes",
    up: sqlStatements(
      `create table kyc_notes (
        id serial primary key,
        user_id bigint not null,
        text text not null,
        created_at timestamptz not null
      )`,
      `create index kyc_notes_user on kyc_notes (user_id, id)`,
    ),
  },
]

const list = Effect.gen(function* () {
  const session = yield* CurrentSession
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{ id: number; text: string }>`select id, text from kyc_notes where user_id = ${session.userId} order by id`
  return { items: rows.map((row) => ({ id: Number(row.id), text: row.text })) }
}).pipe(Effect.orDie)

const add = (text: string) =>
  Effect.gen(function* () {
    const session = yield* CurrentSession
    const sql = yield* SqlClient.SqlClient
    const config = yield* ServerConfig
    const [row] = yield* sql<{
      id: number
    }>`insert into kyc_notes (user_id, text, created_at) values (${session.userId}, ${text}, ${new Date(config.now())}) returning id`
    return { id: Number(row!.id), text }
  }).pipe(Effect.orDie)

const handlers = HttpApiBuilder.group(KycApi, "kycNotes", (group) => group.handle("list", () => list).handle("add", ({ payload }) => add(payload.text)))

export const serverPlugin: ServerPlugin = defineServerPlugin({ id: "kyc", migrations: kycMigrations, groups: [KycGroup], handlers })
export default serverPlugin
