import { useId, useLayoutEffect, useSyncExternalStore, type CSSProperties, type ReactNode } from "react"
import styles from "./TabBar.module.css"
import { TAB_BAR_STRIP_HEIGHT, isCompactStrip, tabBarHeight, type PlatformStyle } from "./tabBarLayout.ts"
import { cx } from "./utils.ts"
import { VisuallyHidden } from "./VisuallyHidden.tsx"

export interface TabBarItem {
  id: string
  label: string
  icon: ReactNode
  /** Icon of the active tab (filled variant); default `icon`. */
  activeIcon?: ReactNode
  /** A number or short text in a red badge; `true` shows a dot. */
  badge?: number | string | boolean
  /** Spoken instead of the visual badge (i18n, e.g. "3 new orders"). */
  badgeLabel?: string
}

/** A one-off hint bubble pointing at a tab (spec: the earn / trade tab tooltip). */
export interface TabBarTooltip {
  tabId: string
  content: ReactNode
  /** Tap on the bubble (or its tab). The app records that it was shown and drops the prop. */
  onDismiss: () => void
}

export interface TabBarStripContext {
  compact: boolean
}

export interface TabBarProps {
  items: ReadonlyArray<TabBarItem>
  activeId: string | undefined
  /** Tap on an inactive tab. */
  onSelect: (id: string) => void
  /** Tap on the active tab (the app scrolls to top). */
  onActiveTabPress?: (id: string) => void
  platformStyle?: PlatformStyle
  /** Content of the strip above the bar (e.g. active P2P orders); absent means no strip. */
  strip?: ReactNode | ((context: TabBarStripContext) => ReactNode)
  /** Hide the bar (slides out, not focusable). When to hide is the app's decision. */
  hidden?: boolean
  "aria-label"?: string
  /** Overrides the measured viewport width (compact strip rule). */
  viewportWidth?: number
  /** Hint bubble above one tab; when and how often to show it is the app's decision. */
  tooltip?: TabBarTooltip
  /** Publish the height as --wk-tab-bar-height on <html> (default true). */
  publishHeight?: boolean
  className?: string
}

function subscribeResize(cb: () => void) {
  window.addEventListener("resize", cb)
  return () => window.removeEventListener("resize", cb)
}
const readWidth = () => window.innerWidth
const serverWidth = () => 390

function badgeText(badge: number | string): string {
  return typeof badge === "number" && badge > 99 ? "99+" : String(badge)
}

export function TabBar({
  items,
  activeId,
  onSelect,
  onActiveTabPress,
  platformStyle = "apple",
  strip,
  hidden = false,
  viewportWidth,
  publishHeight = true,
  tooltip,
  className,
  ...rest
}: TabBarProps) {
  const measured = useSyncExternalStore(subscribeResize, readWidth, serverWidth)
  const width = viewportWidth ?? measured
  const compact = isCompactStrip(platformStyle, width)
  const withStrip = strip !== undefined && strip !== null && strip !== false
  const height = tabBarHeight({ platformStyle, withStrip })
  const barHeight = tabBarHeight({ platformStyle, withStrip: false })
  const tooltipIndex = tooltip && !hidden ? items.findIndex((item) => item.id === tooltip.tabId) : -1
  const tooltipId = useId()

  useLayoutEffect(() => {
    if (!publishHeight) return
    const root = document.documentElement
    root.style.setProperty("--wk-tab-bar-height", hidden ? "0px" : `${height}px`)
    return () => {
      root.style.removeProperty("--wk-tab-bar-height")
    }
  }, [publishHeight, hidden, height])

  return (
    <nav
      aria-label={rest["aria-label"]}
      className={cx(styles.root, className)}
      data-platform={platformStyle}
      data-hidden={hidden || undefined}
      aria-hidden={hidden || undefined}
      inert={hidden || undefined}
      style={{ height: `calc(${height}px + var(--wk-safe-area-bottom))`, "--wk-tab-count": items.length } as CSSProperties}
    >
      {tooltip && tooltipIndex >= 0 && (
        <div
          id={tooltipId}
          role="status"
          className={styles.tooltip}
          data-align={tooltipIndex === 0 ? "start" : tooltipIndex === items.length - 1 ? "end" : "center"}
          style={{ "--wk-tooltip-at": `${((tooltipIndex + 0.5) / items.length) * 100}%` } as CSSProperties}
          onClick={tooltip.onDismiss}
        >
          {tooltip.content}
        </div>
      )}
      {withStrip && (
        <div className={styles.strip} data-compact={compact || undefined} data-testid="tab-bar-strip" style={{ height: TAB_BAR_STRIP_HEIGHT }}>
          {typeof strip === "function" ? strip({ compact }) : strip}
        </div>
      )}
      <div className={styles.bar} style={{ height: barHeight }}>
        {items.map((item) => {
          const active = item.id === activeId
          const badge = item.badge
          const hasBadge = badge !== undefined && badge !== false && badge !== "" && badge !== 0
          return (
            <button
              key={item.id}
              type="button"
              className={styles.tab}
              aria-current={active ? "page" : undefined}
              aria-describedby={tooltipIndex >= 0 && items[tooltipIndex] === item ? tooltipId : undefined}
              onClick={() => {
                if (tooltipIndex >= 0 && items[tooltipIndex] === item) tooltip?.onDismiss()
                if (active) onActiveTabPress?.(item.id)
                else onSelect(item.id)
              }}
            >
              <span className={styles.iconWrap}>
                <span className={styles.icon} aria-hidden="true">
                  {active ? (item.activeIcon ?? item.icon) : item.icon}
                </span>
                {hasBadge && (
                  <span className={cx(styles.badge, badge === true && styles.dot)} aria-hidden="true" data-testid="tab-badge">
                    {badge === true ? null : badgeText(badge)}
                  </span>
                )}
              </span>
              <span className={styles.label}>{item.label}</span>
              {hasBadge && item.badgeLabel && <VisuallyHidden>{`, ${item.badgeLabel}`}</VisuallyHidden>}
            </button>
          )
        })}
      </div>
    </nav>
  )
}
