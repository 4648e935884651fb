import { useMemo, useState } from "react"
import { analyticsOf, useGo, useKernel, useT } from "@wallet/kernel-react"
import { Cell, List, SearchInput, Section, useSnackbar } from "@wallet/kernel-react/ui"
import { kycMainRoute } from "../routes.ts"
import { refusalCode, setCountry } from "./client.ts"
import { COUNTRY_CODES, countryName } from "./countries.ts"
import { useStatusAnswer } from "./useStatus.ts"

/**
 * /kyc/verify-country (spec 3 §2.2): the country of residence, chosen from a searchable list in the
 * user's language. Choosing one saves it and returns to the steps; a refusal (an unsupported
 * country) keeps the list open with the reason.
 */
export default function CountryScreen() {
  const kernel = useKernel()
  const t = useT("kyc")
  const go = useGo()
  const snackbar = useSnackbar()
  const answer = useStatusAnswer()
  const [query, setQuery] = useState("")
  const [saving, setSaving] = useState<string | null>(null)
  const language = kernel.i18n.language()
  const countries = useMemo(
    () => COUNTRY_CODES.map((code) => ({ code, name: countryName(code, language) })).sort((a, b) => a.name.localeCompare(b.name, language)),
    [language],
  )
  const needle = query.trim().toLocaleLowerCase(language)
  const shown =
    needle === ""
      ? countries
      : countries.filter((country) => country.name.toLocaleLowerCase(language).includes(needle) || country.code.toLowerCase() === needle)

  const choose = async (code: string) => {
    if (saving !== null) return
    setSaving(code)
    try {
      const saved = await setCountry(kernel, code)
      answer(saved)
      analyticsOf(kernel).track("kyc.step_completed", { step: "country", level: saved.data.level })
      await go(kycMainRoute, { search: {}, replace: true })
    } catch (error) {
      snackbar.show({ id: "kyc-country", text: t(`errors.${refusalCode(error) ?? "generic"}`, { defaultValue: t("errors.generic") }) })
    } finally {
      setSaving(null)
    }
  }

  return (
    <main style={{ padding: "16px 0" }}>
      <h1 style={{ margin: "8px 16px 8px", fontSize: 28 }}>{t("country.title")}</h1>
      <p style={{ margin: "0 16px 12px" }}>{t("country.text")}</p>
      <div style={{ padding: "0 16px 8px" }}>
        <SearchInput value={query} onChange={setQuery} aria-label={t("country.search")} placeholder={t("country.search")} clearLabel={t("country.clear")} />
      </div>
      <List>
        <Section>
          {shown.length === 0 ? (
            <Cell title={t("country.none")} />
          ) : (
            shown.map((country) => (
              <Cell
                key={country.code}
                data-country={country.code}
                title={country.name}
                after={saving === country.code ? t("status.pending") : undefined}
                onClick={() => void choose(country.code)}
              />
            ))
          )}
        </Section>
      </List>
    </main>
  )
}
