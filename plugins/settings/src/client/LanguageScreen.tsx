import { useState } from "react"
import { Effect } from "effect"
import { LANGUAGE_NAMES, LANGUAGES, PreferencesStore, type Language } from "@wallet/kernel"
import { analyticsOf, Icon, runEffect, useKernel, useT } from "@wallet/kernel-react"
import { Cell, List, Section, useSnackbar } from "@wallet/kernel-react/ui"
import styles from "./settings.module.css"

/** /settings/language: changes the interface language at once, on the device and on the server. */
export default function LanguageScreen() {
  const t = useT("settings")
  const kernel = useKernel()
  const snackbar = useSnackbar()
  const [current, setCurrent] = useState<Language>(kernel.i18n.language())
  const [saving, setSaving] = useState<Language | null>(null)

  const choose = async (language: Language) => {
    if (language === current || saving) return
    setSaving(language)
    analyticsOf(kernel).track("settings.language_change", { language })
    kernel.telegram.haptic({ type: "selection_change" })
    await runEffect(kernel, kernel.i18n.changeLanguage(language))
    await runEffect(kernel, kernel.storage.update(PreferencesStore, (p) => ({ ...p, languageCode: language })).pipe(Effect.ignore))
    setCurrent(language)
    const api = await kernel.api().catch(() => undefined)
    const saved = api
      ? await runEffect(
          kernel,
          api.profile.setLanguage({ payload: { language } }).pipe(
            Effect.as(true),
            Effect.catch(() => Effect.succeed(false)),
          ),
        )
      : false
    setSaving(null)
    snackbar.show({ id: "settings-language", text: saved ? t("languageSaved") : t("saveFailed") })
  }

  return (
    <main className={styles.screen}>
      <h1 className={styles.title}>{t("language")}</h1>
      <List>
        <Section>
          {LANGUAGES.map((language) => (
            <Cell
              key={language}
              role="radio"
              aria-checked={language === current}
              lang={language}
              title={LANGUAGE_NAMES[language]}
              after={language === current ? <Icon name="check" label={t("selected")} /> : undefined}
              disabled={saving !== null}
              onClick={() => void choose(language)}
            />
          ))}
        </Section>
      </List>
    </main>
  )
}
