/**
 * Notification settings on the server, through the custody plugin's contract (its public `api`
 * entry): a typed client over the kernel's Http policy, built once per kernel.
 */
import { Effect } from "effect"
import { FetchHttpClient } from "effect/http"
import { HttpApiClient } from "effect/http-api"
import { Http } from "@wallet/kernel"
import { runEffect, type Kernel } from "@wallet/kernel-react"
import { CustodyApi, type NotificationSetting, type NotificationType } from "@wallet/plugin-custody/api"

/** Spec 1 §2 /settings/notifications/{type}, in display order. */
export const NOTIFICATION_TYPES: ReadonlyArray<NotificationType> = ["market_trends", "product", "marketing", "educational", "feedback"]

export const isNotificationType = (value: unknown): value is NotificationType =>
  typeof value === "string" && (NOTIFICATION_TYPES as ReadonlyArray<string>).includes(value)

type Client = HttpApiClient.ForApi<typeof CustodyApi>
const clients = new WeakMap<Kernel, Promise<Client>>()

const client = (kernel: Kernel): Promise<Client> => {
  let made = clients.get(kernel)
  if (!made) {
    made = runEffect(
      kernel,
      Effect.gen(function* () {
        const http = yield* Http
        return yield* HttpApiClient.make(CustodyApi, { baseUrl: typeof window === "undefined" ? "" : window.location.origin }).pipe(
          Effect.provide(FetchHttpClient.layer),
          Effect.provideService(FetchHttpClient.Fetch, http.fetch),
        )
      }),
    )
    clients.set(kernel, made)
    made.catch(() => clients.delete(kernel))
  }
  return made
}

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
