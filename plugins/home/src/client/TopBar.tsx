import { analyticsOf, namespaceOfPlugin, runSlot, Icon, useKernel, useMainSlots, type MainSlotHost } from "@wallet/kernel-react"
import { IconButton } from "@wallet/kernel-react/ui"
import styles from "./main.module.css"

/**
 * Wallet main's top-bar icon buttons: every enabled plugin's `main.topBar` entries the user may see,
 * in order, labelled in the contributing plugin's namespace. A press runs the entry's lazily loaded
 * module or opens its path.
 */
export function TopBarButtons({ host }: { readonly host: MainSlotHost }) {
  const kernel = useKernel()
  const { topBar } = useMainSlots()
  return (
    <div className={styles.topActions}>
      {topBar.map((slot) => (
        <IconButton
          key={slot.globalId}
          aria-label={kernel.i18n.t(`${namespaceOfPlugin(kernel, slot.pluginId)}:${slot.labelKey}`)}
          onClick={() =>
            void (analyticsOf(kernel).track("home.slot_press", { slot: slot.globalId, kind: "topBar" }), runSlot(slot, host)).catch((error: unknown) =>
              console.warn(`main.topBar '${slot.globalId}' failed:`, error instanceof Error ? error.message : error),
            )
          }
        >
          <Icon name={slot.icon} />
        </IconButton>
      ))}
    </div>
  )
}
