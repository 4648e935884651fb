import { useId, useState } from "react"
import { useParams } from "@tanstack/react-router"
import { useKernel, useT } from "@wallet/kernel-react"
import { Button, Cell, List, Placeholder, Section, SkeletonList, Switch, useSnackbar } from "@wallet/kernel-react/ui"
import { isNotificationType, saveNotificationSetting } from "./notifications.ts"
import { useNotificationSettings } from "./NotificationsScreen.tsx"
import styles from "./settings.module.css"

/** /settings/notifications/$type: one notification type, switched on or off on the server. */
export default function NotificationTypeScreen() {
  const t = useT("settings")
  const kernel = useKernel()
  const snackbar = useSnackbar()
  const { type } = useParams({ strict: false }) as { type?: string }
  const { settings, setSettings, reload } = useNotificationSettings()
  const [saving, setSaving] = useState(false)
  const labelId = useId()

  if (!isNotificationType(type)) {
    return (
      <main className={styles.screen}>
        <Placeholder kind="error" title={t("notifications.unknown")} />
      </main>
    )
  }
  const enabled = settings instanceof Map ? settings.get(type) === true : false

  const toggle = async (next: boolean) => {
    if (!(settings instanceof Map) || saving) return
    kernel.telegram.haptic({ type: "selection_change" })
    setSaving(true)
    // Shown at once; put back if the server does not take it.
    await setSettings(new Map(settings).set(type, next))
    try {
      const saved = await saveNotificationSetting(kernel, type, next)
      await setSettings(new Map(settings).set(type, saved))
      snackbar.show({ id: "settings-notifications", text: saved ? t("notifications.turnedOn") : t("notifications.turnedOff") })
    } catch {
      await setSettings(new Map(settings).set(type, !next))
      snackbar.show({ id: "settings-notifications", text: t("notifications.saveError") })
    } finally {
      setSaving(false)
    }
  }

  return (
    <main className={styles.screen}>
      <h1 className={styles.title}>{t(`notifications.types.${type}.title`)}</h1>
      <List>
        {settings === "loading" ? (
          <Section>
            <SkeletonList rows={1} before={false} label={t("notifications.loading")} />
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
          <Section footer={t(`notifications.types.${type}.description`)}>
            <Cell
              title={<span id={labelId}>{t("notifications.receive")}</span>}
              after={<Switch checked={enabled} disabled={saving} aria-labelledby={labelId} onChange={(next) => void toggle(next)} />}
            />
          </Section>
        )}
      </List>
    </main>
  )
}
