import { useId, useState } from "react"
import { useParams } from "@tanstack/react-router"
import { useT } from "@wallet/kernel-react"
import { Cell, List, Section, Switch } from "@wallet/kernel-react/ui"
import { NOTIFICATION_KINDS, NOTIFICATIONS_KEY, parseNotificationPrefs, type NotificationKind, type NotificationPrefs } from "./maker.ts"
import { MessagePage, subtitleStyle } from "./makerParts.tsx"
import { idOf } from "./market.ts"
import { pageStyle, titleStyle } from "./marketParts.tsx"

const readPrefs = (): NotificationPrefs => {
  try {
    return parseNotificationPrefs(window.localStorage.getItem(NOTIFICATIONS_KEY))
  } catch {
    return parseNotificationPrefs(null)
  }
}

/** One switch with its title and note; the title names the switch. */
function PrefRow({ kind, checked, onChange }: { readonly kind: NotificationKind; readonly checked: boolean; readonly onChange: (on: boolean) => void }) {
  const t = useT("p2p")
  const labelId = useId()
  return (
    <Cell
      multiline
      title={<span id={labelId}>{t(`user.notify.${kind}`)}</span>}
      description={t(`user.notify.${kind}Note`)}
      after={<Switch checked={checked} onChange={onChange} aria-labelledby={labelId} data-testid={`p2p-notify-${kind}`} />}
    />
  )
}

/**
 * /p2p/user/$id/notifications (spec 3 §2.1): which P2P bot messages the user wants. No endpoint keeps
 * these yet, so the switches live on this device (localStorage "p2p:notifications").
 */
export default function NotificationsScreen() {
  const t = useT("p2p")
  const params = useParams({ strict: false }) as { readonly id?: string }
  const [prefs, setPrefs] = useState(readPrefs)
  if (idOf(params.id) === null) return <MessagePage testId="p2p-notifications-not-found" title={t("user.notFound")} />

  const set = (kind: NotificationKind, on: boolean) => {
    const next = { ...prefs, [kind]: on }
    setPrefs(next)
    try {
      window.localStorage.setItem(NOTIFICATIONS_KEY, JSON.stringify(next))
    } catch {
      // Storage closed: the choice holds until the screen closes.
    }
  }

  return (
    <main style={pageStyle} data-testid="p2p-notifications">
      <h1 style={titleStyle}>{t("user.notify.title")}</h1>
      <p style={subtitleStyle}>{t("user.notify.lead")}</p>
      <List>
        <Section footer={t("user.notify.deviceNote")}>
          {NOTIFICATION_KINDS.map((kind) => (
            <PrefRow key={kind} kind={kind} checked={prefs[kind]} onChange={(on) => set(kind, on)} />
          ))}
        </Section>
      </List>
    </main>
  )
}
