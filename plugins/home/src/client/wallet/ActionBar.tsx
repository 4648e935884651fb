import type { SlotAvailability } from "@wallet/kernel"
import { Icon, useExperiment, useFlag, useKernel, useT } from "@wallet/kernel-react"
import styles from "./content.module.css"

export interface MainAction {
  readonly id: string
  readonly label: string
  readonly icon: string
  readonly availability: SlotAvailability
  readonly onRun: () => void
  /** Tells the user why the action cannot run now (the contributing plugin's popup). */
  readonly explain: () => void
}

/**
 * The layout of the action buttons (decision 0360): the `new_action_buttons` flag off brings the
 * classic square buttons back; with it on, bucket "b" of the `wallet-action-buttons` experiment gets
 * a compact row of pills, the others the round buttons.
 */
export const actionLayout = (newButtons: boolean, bucket: string): "classic" | "compact" | "round" =>
  !newButtons ? "classic" : bucket === "b" ? "compact" : "round"

/**
 * The action buttons under the balance, as the plugins contribute them (`main.actions`). An
 * action that cannot run now stays pressable and its plugin explains why (spec 1 §4): the date and
 * time when scheduled, "never available", or the functionality-unavailable popup when an access
 * flag is off.
 */
export function ActionBar({ actions }: { readonly actions: ReadonlyArray<MainAction> }) {
  const t = useT("home")
  const kernel = useKernel()
  const layout = actionLayout(useFlag("new_action_buttons"), useExperiment("wallet-action-buttons"))
  return (
    <nav className={styles.actions} aria-label={t("actions.label")} data-layout={layout}>
      {actions.map((action) => (
        <button
          key={action.id}
          type="button"
          className={styles.action}
          aria-disabled={action.availability.kind !== "available" || undefined}
          data-availability={action.availability.kind}
          onClick={() => {
            if (action.availability.kind === "available") return action.onRun()
            kernel.telegram.haptic({ type: "notification", kind: "warning" })
            action.explain()
          }}
        >
          <span className={styles.actionIcon} aria-hidden="true">
            <Icon name={action.icon} />
          </span>
          <span className={styles.actionLabel}>{action.label}</span>
        </button>
      ))}
    </nav>
  )
}
