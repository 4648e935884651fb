/**
 * `@wallet/kernel-server/outbox`: the Outbox service (`outbox_messages`), its sender interface,
 * its migration module and the dev-only endpoints listing what was sent.
 *
 * Composition: `outboxModule` belongs to every server (it is kernel); `outboxDevModule` only to a
 * dev server. `outboxModules({ dev })` returns the right list.
 */
import { defineServerPlugin, type ServerPlugin } from "../plugin.ts"
import { OutboxDevGroup } from "./api.ts"
import { outboxDevHandlers } from "./handlers.ts"
import { outboxMigrations } from "./Outbox.ts"

export {
  Outbox,
  OutboxSender,
  OutboxSendError,
  OutboxChannel,
  OutboxStatus,
  makeOutbox,
  outboxMigrations,
  type OutboxDraft,
  type OutboxMessage,
  type OutboxSenderShape,
  type OutboxShape,
} from "./Outbox.ts"
export { OutboxDevApi, OutboxDevGroup, OutboxMessageJson, OutboxQuery } from "./api.ts"
export { renderOutboxPage } from "./page.ts"

/** The table; no endpoints outside dev. Handlers of other modules use `Outbox.layer`. */
export const outboxModule: ServerPlugin = defineServerPlugin({ id: "outbox", migrations: outboxMigrations })

/** `GET /api/dev/outbox` and `GET /api/dev/outbox.html`: only in a dev server. */
export const outboxDevModule: ServerPlugin = defineServerPlugin({
  id: "outbox-dev",
  dependsOn: ["outbox"],
  groups: [OutboxDevGroup],
  handlers: outboxDevHandlers,
})

export const outboxModules = (options: { readonly dev: boolean }): ReadonlyArray<ServerPlugin> =>
  options.dev ? [outboxModule, outboxDevModule] : [outboxModule]
