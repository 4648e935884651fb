/** Receiver search: users of the app by username or name prefix (the caller and blocked users excluded). */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import type { Receiver } from "../api.ts"

const MAX_RESULTS = 20

const likePrefix = (text: string) => `${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`

export const searchReceivers = (userId: number, query: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const text = query.trim().replace(/^@/, "").toLowerCase()
    if (text.length === 0) return { items: [] }
    const prefix = likePrefix(text)
    const rows = yield* sql<{ id: string | number; username: string | null; first_name: string; last_name: string | null; photo_url: string | null }>`
      select id, username, first_name, last_name, photo_url from kernel_users
       where id <> ${userId} and not is_blocked
         and (lower(coalesce(username, '')) like ${prefix} or lower(first_name) like ${prefix} or lower(coalesce(last_name, '')) like ${prefix}
              or lower(first_name || ' ' || coalesce(last_name, '')) like ${prefix})
       order by (lower(coalesce(username, '')) = ${text}) desc, lower(coalesce(username, first_name)), id
       limit ${MAX_RESULTS}`
    return {
      items: rows.map((row): Receiver => ({
        userId: Number(row.id),
        username: row.username,
        firstName: row.first_name,
        lastName: row.last_name,
        photoUrl: row.photo_url,
      })),
    }
  }).pipe(Effect.orDie)
