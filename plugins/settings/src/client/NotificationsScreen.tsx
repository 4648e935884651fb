import { useCallback } from "react"
import { useQuery, useQueryClient } from "@tanstack/react-query"
import { useGo, useKernel, useT } from "@wallet/kernel-react"
import { Button, Cell, List, Placeholder, Section, SkeletonList } from "@wallet/kernel-react/ui"
import type { NotificationType } from "@wallet/plugin-custody/api"
import { loadNotificationSettings, NOTIFICATION_TYPES } from "./notifications.ts"
import { notificationTypeRoute } from "../routes.ts"
import { settingsKeys } from "./queryKeys.ts"
import styles from "./settings.module.css"

/**
 * The notification settings as a query (decision 0320; not persisted). `reload` asks again (after an
 * error); `setSettings` shows a change at once (a fetch still under way is cancelled first, so its
 * older answer cannot overwrite it).
 */
export function useNotificationSettings() {
  const kernel = useKernel()
  const client = useQueryClient()
  const query = useQuery({ queryKey: settingsKeys.notifications(), queryFn: () => loadNotificationSettings(kernel) })
  const settings: ReadonlyMap<NotificationType, boolean> | "loading" | "error" =
    query.data !== undefined ? query.data : query.status === "error" && !query.isFetching ? "error" : "loading"
  const setSettings = useCallback(
    async (next: ReadonlyMap<NotificationType, boolean>) => {
      await client.cancelQueries({ queryKey: settingsKeys.notifications() })
      client.setQueryData(settingsKeys.notifications(), next)
    },
    [client],
  )
  const { refetch } = query
  const reload = useCallback(() => void refetch(), [refetch])
  return { settings, setSettings, reload }
}

/** /settings/notifications: the five notification types and whether each is on (spec 1 §2). */
export default function NotificationsScreen() {
  const t = useT("settings")
  const go = useGo()
  const { settings, reload } = useNotificationSettings()
  return (
    <main className={styles.screen}>
      <h1 className={styles.title}>{t("notifications.title")}</h1>
      <List>
        {settings === "loading" ? (
          <Section>
            <SkeletonList rows={NOTIFICATION_TYPES.length} before={false} label={t("notifications.loading")} />
          </Section>
        ) : settings === "error" ? (
          <Placeholder
            kind="error"
            title={t("notifications.loadError")}
            action={
              <Button look="secondary" size="s" onClick={reload}>
                {t("retry")}
              </Button>
            }
          />
        ) : (
          <Section footer={t("notifications.footer")}>
            {NOTIFICATION_TYPES.map((type) => (
              <Cell
                key={type}
                title={t(`notifications.types.${type}.title`)}
                subtitle={settings.get(type) ? t("notifications.on") : t("notifications.off")}
                chevron
                onClick={() => void go(notificationTypeRoute, { params: { type } })}
              />
            ))}
          </Section>
        )}
      </List>
    </main>
  )
}
