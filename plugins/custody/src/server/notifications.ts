/** Notification settings by type (spec 1 §2 /settings/notifications/{type}); a type never set is on. */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ServerConfig } from "@wallet/kernel-server"
import { NotificationType, type NotificationSetting } from "../api.ts"

const TYPES = NotificationType.literals

export const notificationSettings = (userId: number) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<{ type: string; enabled: boolean }>`select type, enabled from custody_notification_settings where user_id = ${userId}`
    const stored = new Map(rows.map((row) => [row.type, row.enabled === true]))
    return { items: TYPES.map((type): NotificationSetting => ({ type, enabled: stored.get(type) ?? true })) }
  }).pipe(Effect.orDie)

export const setNotification = (userId: number, type: NotificationType, enabled: boolean) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const config = yield* ServerConfig
    yield* sql`insert into custody_notification_settings (user_id, type, enabled, updated_at) values (${userId}, ${type}, ${enabled}, ${new Date(config.now())})
      on conflict (user_id, type) do update set enabled = excluded.enabled, updated_at = excluded.updated_at`
    return { type, enabled }
  }).pipe(Effect.orDie)
