import { useEffect, useMemo, useState } from "react"
import { Effect } from "effect"
import { PreferencesStore } from "@wallet/kernel"
import { Icon, runEffect, useKernel, useT } from "@wallet/kernel-react"
import { Cell, List, Placeholder, Section, SkeletonList, useSnackbar } from "@wallet/kernel-react/ui"
import { currencyName, FIAT_CURRENCIES } from "../fiat.ts"
import { settingsConfig } from "../config.ts"
import styles from "./settings.module.css"

/** /settings/default-currency: the fiat the wallet shows values in (default USD). */
export default function CurrencyScreen() {
  const t = useT("settings")
  const kernel = useKernel()
  const snackbar = useSnackbar()
  const [current, setCurrent] = useState<string | null>(null)
  const [query, setQuery] = useState("")
  const [searchEnabled, setSearchEnabled] = useState(true)
  const config = settingsConfig(kernel)
  const language = kernel.i18n.language()

  useEffect(() => {
    void runEffect(kernel, kernel.storage.load(PreferencesStore)).then((p) => setCurrent(p.fiatCurrency))
    void runEffect(kernel, kernel.flags.isEnabled("settings_currency_search")).then(setSearchEnabled)
  }, [kernel])

  const currencies = useMemo(() => {
    const allowed = config?.fiatCurrencies ?? FIAT_CURRENCIES
    const q = query.trim().toLowerCase()
    return allowed.filter((code) => q === "" || code.toLowerCase().includes(q) || currencyName(code, language).toLowerCase().includes(q))
  }, [config, query, language])

  const choose = async (code: string) => {
    setCurrent(code)
    kernel.telegram.haptic({ type: "selection_change" })
    const ok = await runEffect(
      kernel,
      kernel.storage
        .update(PreferencesStore, (p) => ({ ...p, fiatCurrency: code }))
        .pipe(
          Effect.as(true),
          Effect.catch(() => Effect.succeed(false)),
        ),
    )
    snackbar.show({ id: "settings-currency", text: ok ? t("currencySaved", { currency: code }) : t("saveFailed") })
  }

  return (
    <main className={styles.screen}>
      <h1 className={styles.title}>{t("defaultCurrency")}</h1>
      {searchEnabled && (
        <label className={styles.search}>
          <Icon name="search" size={20} />
          <input type="search" value={query} placeholder={t("searchCurrency")} aria-label={t("searchCurrency")} onChange={(e) => setQuery(e.target.value)} />
        </label>
      )}
      {current === null ? (
        <SkeletonList />
      ) : currencies.length === 0 ? (
        <Placeholder title={t("noCurrency", { query })} />
      ) : (
        <List>
          <Section>
            {currencies.map((code) => (
              <Cell
                key={code}
                role="radio"
                aria-checked={code === current}
                title={code}
                subtitle={currencyName(code, language)}
                after={code === current ? <Icon name="check" label={t("selected")} /> : undefined}
                onClick={() => void choose(code)}
              />
            ))}
          </Section>
        </List>
      )}
    </main>
  )
}
