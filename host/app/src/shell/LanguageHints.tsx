import { useEffect, useRef, useState } from "react"
import { useLocation, useNavigate } from "@tanstack/react-router"
import { Effect } from "effect"
import { LANGUAGE_NAMES, LANGUAGE_TOOLTIP_MS, languageSuggestionFor, PreferencesStore, showLanguageTooltip, type Language } from "@wallet/kernel"
import { saveViewSettings, useKernel, useT, useViewSettings, type Kernel } from "@wallet/kernel-react"
import { SHELL } from "./screens.tsx"
import styles from "./shell.module.css"

/** Pages that are not the wallet itself: no language hints over them. */
const NOT_HERE = ["/", "/error", "/unsupported_region", "/unsupported_app_store", "/unavailable", "/client-connection-error", "/attach-private-chats-error"]

/** Applies a language at once: the interface, the device preference, then the server (best effort). */
export async function applyLanguage(kernel: Kernel, language: Language) {
  await kernel.runtime.runPromise(kernel.i18n.changeLanguage(language))
  await kernel.runtime.runPromise(kernel.storage.update(PreferencesStore, (p) => ({ ...p, languageCode: language })).pipe(Effect.ignore))
  const api = await kernel.api().catch(() => undefined)
  if (api) await kernel.runtime.runPromise(api.profile.setLanguage({ payload: { language } }).pipe(Effect.ignore)).catch(() => undefined)
}

/**
 * The one-off language hints (decision 0310): the suggestion dialog for a Telegram language of hi,
 * bn or zh-TW (spec 3 §2.3: the suggested language, English or other; applied at once; shown once),
 * and the 2000 ms tooltip pointing at Settings when the bot language is English (spec 1 §4).
 * Whether each may still show is the view settings' `display_change_language_alert` /
 * `display_change_language_tooltip` (decision 0360); showing one saves it as false through
 * `saveViewSettings` (on the server, or on this device without `accessToSavingSettings`).
 */
export function LanguageHints() {
  const kernel = useKernel()
  const t = useT(SHELL)
  const navigate = useNavigate()
  const { pathname } = useLocation()
  const [tooltip, setTooltip] = useState(false)
  const started = useRef(false)
  const here = kernel.user() !== undefined && !NOT_HERE.includes(pathname)
  const userFlags = useViewSettings()?.userFlags

  useEffect(() => {
    // Decided once, when the view settings are there (a failed read shows no hint).
    if (!here || started.current || userFlags === undefined) return
    started.current = true
    const run = async () => {
      const preferences = await kernel.runtime.runPromise(kernel.storage.load(PreferencesStore))
      const input = { telegramLanguage: kernel.telegram.launchParams.languageCode, chosenLanguage: preferences.languageCode }
      const suggested = languageSuggestionFor({ ...input, shown: userFlags.display_change_language_alert === false })
      if (suggested) {
        void saveViewSettings(kernel, { changedUserFlags: { display_change_language_alert: false } })
        // The question is asked in the suggested language (English where its pack lacks a string).
        await kernel.i18n.instance.loadLanguages(suggested).catch(() => undefined)
        await kernel.i18n.instance.loadNamespaces(SHELL).catch(() => undefined)
        const ask = kernel.i18n.instance.getFixedT(suggested, SHELL)
        const choice = await kernel.telegram.popup({
          title: ask("languageSuggestion.title", { language: LANGUAGE_NAMES[suggested] }),
          message: ask("languageSuggestion.text", { language: LANGUAGE_NAMES[suggested] }),
          buttons: [
            { id: "suggested", type: "default", text: LANGUAGE_NAMES[suggested] },
            { id: "en", type: "default", text: LANGUAGE_NAMES.en },
            { id: "other", type: "default", text: ask("languageSuggestion.other") },
          ],
        })
        if (choice === "suggested") await applyLanguage(kernel, suggested)
        else if (choice === "en") await applyLanguage(kernel, "en")
        else if (choice === "other") await navigate({ to: "/settings/language" } as never)
        return
      }
      if (showLanguageTooltip({ ...input, shown: userFlags.display_change_language_tooltip === false })) {
        void saveViewSettings(kernel, { changedUserFlags: { display_change_language_tooltip: false } })
        setTooltip(true)
      }
    }
    void run().catch((error: unknown) => console.warn("[i18n] language hints failed", error))
  }, [kernel, here, navigate, userFlags])

  useEffect(() => {
    if (!tooltip) return
    const timer = setTimeout(() => setTooltip(false), LANGUAGE_TOOLTIP_MS)
    return () => clearTimeout(timer)
  }, [tooltip])

  if (!tooltip) return null
  return (
    <div className={styles.languageTooltip} role="status" data-testid="language-tooltip">
      {t("languageTooltip")}
    </div>
  )
}
