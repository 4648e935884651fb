/** The notification settings group (re-exported by ../api.ts). */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { authenticated } from "@wallet/kernel/api"

// --- notification settings (spec 1 §2 /settings/notifications/{type}) ------------------------

export const NotificationType = Schema.Literals(["market_trends", "product", "marketing", "educational", "feedback"])
export type NotificationType = typeof NotificationType.Type
export const NotificationSetting = Schema.Struct({ type: NotificationType, enabled: Schema.Boolean })
export type NotificationSetting = typeof NotificationSetting.Type
/** Every type, in the order above; a type never set is enabled. */
export const NotificationSettings = Schema.Struct({ items: Schema.Array(NotificationSetting) })
export type NotificationSettings = typeof NotificationSettings.Type
export const NotificationParams = Schema.Struct({ type: NotificationType })
export const SetNotificationRequest = Schema.Struct({ enabled: Schema.Boolean })

export const NotificationsGroup = authenticated(
  HttpApiGroup.make("custodyNotifications").add(
    HttpApiEndpoint.get("list", "/api/custody/notification-settings", { success: NotificationSettings }),
    HttpApiEndpoint.put("set", "/api/custody/notification-settings/:type", {
      params: NotificationParams,
      payload: SetNotificationRequest,
      success: NotificationSetting,
    }),
  ),
)
