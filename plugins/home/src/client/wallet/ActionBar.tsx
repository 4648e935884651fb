import type { ReactNode } from "react"
import { useKernel, useT } from "@wallet/kernel-react"
import type { Availability } from "@wallet/plugin-custody/availability"
import type { MainActionName } from "./mainActions.ts"
import styles from "./content.module.css"

const glyphs: Record<MainActionName, ReactNode> = {
  receive: <path d="M11 4h2v11.2l4.6-4.6 1.4 1.4-7 7-7-7 1.4-1.4 4.6 4.6V4Z" />,
  send: <path d="M11 20h2V8.8l4.6 4.6 1.4-1.4-7-7-7 7 1.4 1.4L11 8.8V20Z" />,
  exchange: <path d="M7 4 3 8l4 4V9h9V7H7V4Zm10 8v3H8v2h9v3l4-4-4-4Z" />,
  buy: <path d="M11 5h2v6h6v2h-6v6h-2v-6H5v-2h6V5Z" />,
}

export interface MainAction {
  readonly name: MainActionName
  readonly availability: Availability
  readonly onRun: () => void
}

/**
 * The round action buttons under the balance. An action that cannot run now stays pressable and
 * explains why in a Telegram popup (spec 1 §4): the date and time when scheduled, "never available"
 * (buy offers to deposit instead), or the functionality-unavailable popup when an access flag is off.
 */
export function ActionBar({ actions }: { readonly actions: ReadonlyArray<MainAction> }) {
  const t = useT("home")
  // Popup texts live in the custody namespace, loaded while main renders.
  const tc = useT("custody")
  const kernel = useKernel()
  const explain = async (action: MainAction) => {
    const label = t(`actions.${action.name}`)
    const { availability } = action
    kernel.telegram.haptic({ type: "notification", kind: "warning" })
    if (availability.kind === "scheduled") {
      const language = kernel.i18n.language()
      const date = new Intl.DateTimeFormat(language, { dateStyle: "long" }).format(availability.at)
      const time = new Intl.DateTimeFormat(language, { timeStyle: "short" }).format(availability.at)
      await kernel.telegram.popup({ title: tc("actions.scheduledTitle"), message: tc("actions.scheduledText", { action: label, date, time }), buttons: [{ id: "ok", type: "ok" }] })
    } else if (availability.kind === "restricted") {
      await kernel.telegram.popup({ title: tc("actions.restrictedTitle"), message: tc("actions.restrictedText"), buttons: [{ id: "ok", type: "ok" }] })
    } else if (action.name === "buy") {
      const choice = await kernel.telegram.popup({
        title: tc("actions.neverTitle"),
        message: tc("actions.mainBuyNeverText"),
        buttons: [{ id: "cancel", type: "cancel" }, { id: "ok", type: "ok" }],
      })
      if (choice === "ok") actions.find((a) => a.name === "receive")?.onRun()
    } else {
      await kernel.telegram.popup({ title: tc("actions.neverTitle"), message: tc("actions.mainNeverText", { action: label }), buttons: [{ id: "ok", type: "ok" }] })
    }
  }
  return (
    <nav className={styles.actions} aria-label={t("actions.label")}>
      {actions.map((action) => (
        <button
          key={action.name}
          type="button"
          className={styles.action}
          aria-disabled={action.availability.kind !== "available" || undefined}
          data-availability={action.availability.kind}
          onClick={() => (action.availability.kind === "available" ? action.onRun() : void explain(action))}
        >
          <span className={styles.actionIcon} aria-hidden="true">
            <svg width="24" height="24" viewBox="0 0 24 24" fill="currentColor" focusable="false">{glyphs[action.name]}</svg>
          </span>
          <span className={styles.actionLabel}>{t(`actions.${action.name}`)}</span>
        </button>
      ))}
    </nav>
  )
}
