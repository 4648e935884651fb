import { useId } from "react"
import { useParams } from "@tanstack/react-router"
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { useKernel, useT } from "@wallet/kernel-react"
import { Cell, List, Section, SkeletonList, Switch } from "@wallet/kernel-react/ui"
import type { NotifySettings } from "../api.ts"
import { NOTIFY_GROUPS, type NotifyGroup } from "../chatRules.ts"
import { withGroup } from "./chat.ts"
import { chatKeys, loadNotifySettings, updateNotifySettings } from "./client.ts"
import { MessagePage, subtitleStyle } from "./makerParts.tsx"
import { idOf } from "./market.ts"
import { alertStyle, LoadError, pageStyle, titleStyle } from "./marketParts.tsx"

/** One group's switch with its title and note; the title names the switch. */
function GroupRow({ group, checked, onChange }: { readonly group: NotifyGroup; readonly checked: boolean; readonly onChange: (on: boolean) => void }) {
  const t = useT("p2p")
  const labelId = useId()
  return (
    <Cell
      multiline
      title={<span id={labelId}>{t(`chat.notify.${group}`)}</span>}
      description={t(`chat.notify.${group}Note`)}
      after={<Switch checked={checked} onChange={onChange} aria-labelledby={labelId} data-testid={`p2p-notify-${group}`} />}
    />
  )
}

/**
 * /p2p/user/$id/notifications (spec 3 §2.1; issue 21): which P2P bot messages the user gets: order
 * moves, chat messages, appeals. Kept on the server with the account (every device, and the bot obeys
 * them); a switch shows its new value at once and goes back when the save fails.
 */
export default function NotificationsScreen() {
  const kernel = useKernel()
  const t = useT("p2p")
  const queryClient = useQueryClient()
  const params = useParams({ strict: false }) as { readonly id?: string }
  const query = useQuery({ queryKey: chatKeys.notify, queryFn: () => loadNotifySettings(kernel) })
  const save = useMutation({
    mutationFn: (change: { readonly group: NotifyGroup; readonly on: boolean }) => updateNotifySettings(kernel, { [change.group]: change.on }),
    onMutate: async (change) => {
      await queryClient.cancelQueries({ queryKey: chatKeys.notify })
      const before = queryClient.getQueryData<NotifySettings>(chatKeys.notify)
      if (before !== undefined) queryClient.setQueryData(chatKeys.notify, withGroup(before, change.group, change.on))
      return { before }
    },
    onError: (_error, _change, context) => {
      if (context?.before !== undefined) queryClient.setQueryData(chatKeys.notify, context.before)
    },
    onSuccess: (saved) => queryClient.setQueryData(chatKeys.notify, saved),
  })
  if (idOf(params.id) === null) return <MessagePage testId="p2p-notifications-not-found" title={t("user.notFound")} />

  const settings = query.data
  return (
    <main style={pageStyle} data-testid="p2p-notifications">
      <h1 style={titleStyle}>{t("chat.notify.title")}</h1>
      <p style={subtitleStyle}>{t("chat.notify.lead")}</p>
      {settings === undefined ? (
        query.status === "error" ? (
          <LoadError title={t("chat.notify.loadError")} retry={() => void query.refetch()} />
        ) : (
          <SkeletonList rows={3} label={t("chat.notify.loading")} />
        )
      ) : (
        <List>
          <Section footer={t("chat.notify.accountNote")}>
            {NOTIFY_GROUPS.map((group) => (
              <GroupRow key={group} group={group} checked={settings[group]} onChange={(on) => save.mutate({ group, on })} />
            ))}
          </Section>
        </List>
      )}
      {save.isError && (
        <p role="alert" style={alertStyle} data-testid="p2p-notify-error">
          {t("chat.notify.saveError")}
        </p>
      )}
    </main>
  )
}
