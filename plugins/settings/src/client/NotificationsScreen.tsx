import { useCallback, useEffect, useState } from "react"
import { useNavigate } from "@tanstack/react-router"
import { useKernel, useT } from "@wallet/kernel-react"
import { Button, Cell, List, Placeholder, Section, SkeletonList } from "@wallet/kernel-react/ui"
import type { NotificationType } from "@wallet/plugin-custody/api"
import { loadNotificationSettings, NOTIFICATION_TYPES } from "./notifications.ts"
import styles from "./settings.module.css"

/** Loads the notification settings; `reload` asks again (after an error). */
export function useNotificationSettings() {
  const kernel = useKernel()
  const [settings, setSettings] = useState<ReadonlyMap<NotificationType, boolean> | "loading" | "error">("loading")
  useEffect(() => {
    let current = true
    loadNotificationSettings(kernel).then(
      (loaded) => current && setSettings(loaded),
      () => current && setSettings("error"),
    )
    return () => {
      current = false
    }
  }, [kernel])
  const reload = useCallback(() => {
    setSettings("loading")
    loadNotificationSettings(kernel).then(setSettings, () => setSettings("error"))
  }, [kernel])
  return { settings, setSettings, reload }
}

/** /settings/notifications: the five notification types and whether each is on (spec 1 §2). */
export default function NotificationsScreen() {
  const t = useT("settings")
  const navigate = useNavigate()
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
                onClick={() => void navigate({ to: "/settings/notifications/$type", params: { type } } as never)}
              />
            ))}
          </Section>
        )}
      </List>
    </main>
  )
}
