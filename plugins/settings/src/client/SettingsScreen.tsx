import { useEffect } from "react"
import { useSearch } from "@tanstack/react-router"
import {
  experimentsOf,
  hasPermissions,
  Icon,
  runEffect,
  saveViewSettings,
  useFlag,
  useGo,
  useGoTo,
  useKernel,
  useT,
  useViewSettings,
} from "@wallet/kernel-react"
import { Cell, List, Section, SectionFooter, Switch } from "@wallet/kernel-react/ui"
import { EXPERIMENT_NAMES } from "@wallet/kernel"
import { KERNEL_VERSION } from "@wallet/kernel"
import { settingsRoute } from "../routes.ts"
import styles from "./settings.module.css"

/** /settings: the settings entries every enabled plugin contributes, for the custodial or the TON tab. */
export default function SettingsScreen() {
  const t = useT("settings")
  const kernel = useKernel()
  const go = useGo()
  const goTo = useGoTo()
  const { tab } = useSearch({ strict: false }) as { tab: "cw" | "scw" }
  const user = kernel.user()
  const entries = kernel.composition.settings.filter(
    (entry) => (entry.section === "general" || entry.section === tab) && hasPermissions(user, entry.permissions ?? []),
  )
  const namespaceOf = (pluginId: string) => kernel.composition.plugins.find((p) => p.id === pluginId)?.i18n?.namespace ?? pluginId
  // Entries carry other plugins' label keys: load those plugins' strings (a load re-renders through useT).
  const namespaces = [...new Set(entries.map((entry) => namespaceOf(entry.pluginId)))].join(",")
  useEffect(() => {
    for (const namespace of namespaces.split(",")) if (namespace) void runEffect(kernel, kernel.i18n.loadNamespace(namespace)).catch(() => undefined)
  }, [kernel, namespaces])
  return (
    <main className={styles.screen}>
      <h1 className={styles.title}>{t("title")}</h1>
      {user?.isCustodyAvailable !== false && (
        <div role="tablist" aria-label={t("tabs.label")} className={styles.tabs}>
          {(["cw", "scw"] as const).map((id) => (
            <button
              key={id}
              role="tab"
              type="button"
              aria-selected={tab === id}
              className={tab === id ? styles.tabActive : styles.tab}
              onClick={() => go(settingsRoute, { search: { tab: id }, replace: true })}
            >
              {t(`tabs.${id}`)}
            </button>
          ))}
        </div>
      )}
      <List>
        <Section>
          {entries.map((entry) => (
            <Cell
              key={`${entry.pluginId}/${entry.id}`}
              before={<Icon name={entry.icon} />}
              title={kernel.i18n.t(`${namespaceOf(entry.pluginId)}:${entry.labelKey}`)}
              chevron
              onClick={() => goTo({ to: entry.to })}
            />
          ))}
        </Section>
        <SectionFooter>
          {tab === "scw" && entries.every((e) => e.section === "general") ? t("emptyScw") : t("version", { version: KERNEL_VERSION })}
        </SectionFooter>
        {tab === "cw" && <ShowTonSpace />}
        <DeveloperSection />
      </List>
    </main>
  )
}

/**
 * The view settings' `display_scw` (decision 0360): whether wallet main's crypto/TON switch shows the
 * TON entry. Offered to custody users where a plugin serves the TON space; saved through
 * `saveViewSettings` (on this device only without `accessToSavingSettings`).
 */
function ShowTonSpace() {
  const t = useT("settings")
  const kernel = useKernel()
  const settings = useViewSettings()
  const hasScw = kernel.composition.routes.some((route) => route.fullPath === "/scw")
  if (kernel.user()?.isCustodyAvailable !== true || !hasScw || settings === undefined) return null
  const label = t("showTonSpace")
  return (
    <Section>
      <Cell
        before={<Icon name="ton" />}
        title={label}
        after={
          <Switch
            data-testid="show-ton-space"
            checked={settings.userFlags.display_scw !== false}
            onChange={(on) => void saveViewSettings(kernel, { changedUserFlags: { display_scw: on } })}
            aria-label={label}
          />
        }
      />
    </Section>
  )
}

/** Spec 1 §6: development tools only with the dev_tools flag (re-renders when a refresh turns it on or off). */
function DeveloperSection() {
  const t = useT("settings")
  const kernel = useKernel()
  const goTo = useGoTo()
  const enabled = useFlag("dev_tools")
  if (!enabled) return null
  const hasViewer = kernel.composition.routes.some((route) => route.fullPath === "/scw/viewer")
  const buckets = EXPERIMENT_NAMES.map((name) => `${name}: ${experimentsOf(kernel).bucket(name)}`).join(", ")
  return (
    <Section header={t("developer.title")} data-testid="developer-entry">
      {hasViewer && <Cell before={<Icon name="search" />} title={t("developer.viewer")} chevron onClick={() => goTo({ to: "/scw/viewer" })} />}
      <Cell before={<Icon name="settings" />} title={t("developer.experiments")} description={buckets || t("developer.none")} />
    </Section>
  )
}
