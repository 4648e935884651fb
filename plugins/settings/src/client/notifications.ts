/**
 * Notification settings on the server, through the custody plugin's contract (its public `api`
 * entry): a typed client over the kernel's Http policy, built once per kernel.
 */
import { makeApiClient } from "@wallet/kernel/client"
import { clientPerKernel, runEffect, type Kernel } from "@wallet/kernel-react"
import { CustodyApi, type NotificationSetting, type NotificationType } from "@wallet/plugin-custody/api"

/** Spec 1 §2 /settings/notifications/{type}, in display order. */
export const NOTIFICATION_TYPES: ReadonlyArray<NotificationType> = ["market_trends", "product", "marketing", "educational", "feedback"]

export const isNotificationType = (value: unknown): value is NotificationType =>
  typeof value === "string" && (NOTIFICATION_TYPES as ReadonlyArray<string>).includes(value)

const client = clientPerKernel(makeApiClient(CustodyApi))

/** Every type with its state; a type the server does not list counts as enabled (the contract's default). */
export const loadNotificationSettings = async (kernel: Kernel): Promise<ReadonlyMap<NotificationType, boolean>> => {
  const api = await client(kernel)
  const answer = await runEffect(kernel, api.custodyNotifications.list())
  return mergeSettings(answer.items)
}

export const mergeSettings = (items: ReadonlyArray<NotificationSetting>): ReadonlyMap<NotificationType, boolean> =>
  new Map(NOTIFICATION_TYPES.map((type) => [type, items.find((item) => item.type === type)?.enabled ?? true]))

export const saveNotificationSetting = async (kernel: Kernel, type: NotificationType, enabled: boolean): Promise<boolean> => {
  const api = await client(kernel)
  const saved = await runEffect(kernel, api.custodyNotifications.set({ params: { type }, payload: { enabled } }))
  return saved.enabled
}
