/** The trusted-merchant badge (issue 21) of many users in one query: the market's lists read it beside the traders' stats. */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/** The ids among `userIds` that hold an approved application. */
export const trustedOf = (userIds: ReadonlyArray<number>) =>
  Effect.gen(function* () {
    const unique = [...new Set(userIds)]
    if (unique.length === 0) return new Set<number>()
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<{ user_id: string }>`select user_id::text as user_id from p2p_merchant_applications
      where status = 'APPROVED' and user_id = any(${unique as Array<number>}::bigint[])`
    return new Set(rows.map((row) => Number(row.user_id)))
  })
