import { useState, type FormEvent } from "react"
import { analyticsOf, useGo, useKernel, useT } from "@wallet/kernel-react"
import { Button, TextField, useSnackbar } from "@wallet/kernel-react/ui"
import { NAME_PATTERN } from "../domain.ts"
import { kycMainRoute, kycSuccessRoute } from "../routes.ts"
import { refusalCode, setName } from "./client.ts"
import { useStatusAnswer } from "./useStatus.ts"

/**
 * /kyc/verify-name (spec 3 §2.2, the basicInfo step): first and last name as in the user's
 * documents. The server checks them again; a refusal shows under the fields and keeps what was
 * typed. Level 1 passed leads to the success screen, anything else back to the steps.
 */
export default function NameScreen() {
  const kernel = useKernel()
  const t = useT("kyc")
  const go = useGo()
  const snackbar = useSnackbar()
  const answer = useStatusAnswer()
  const [first, setFirst] = useState("")
  const [last, setLast] = useState("")
  const [saving, setSaving] = useState(false)
  const [refused, setRefused] = useState<string | null>(null)
  const firstBad = first.trim() !== "" && !NAME_PATTERN.test(first.trim())
  const lastBad = last.trim() !== "" && !NAME_PATTERN.test(last.trim())
  const ready = first.trim() !== "" && last.trim() !== "" && !firstBad && !lastBad

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    if (!ready || saving) return
    setSaving(true)
    setRefused(null)
    try {
      const result = await setName(kernel, first.trim(), last.trim())
      answer(result)
      analyticsOf(kernel).track("kyc.step_completed", { step: "basicInfo", level: result.data.level })
      if (result.data.level1Status === "PASSED" && result.data.requiredLevelAfterKyc1 === "LEVEL_1") await go(kycSuccessRoute, { replace: true })
      else await go(kycMainRoute, { search: {}, replace: true })
    } catch (error) {
      const code = refusalCode(error)
      if (code === "name_invalid") setRefused(t("errors.name_invalid"))
      else snackbar.show({ id: "kyc-name", text: t(`errors.${code ?? "generic"}`, { defaultValue: t("errors.generic") }) })
    } finally {
      setSaving(false)
    }
  }

  return (
    <main style={{ padding: "16px" }}>
      <h1 style={{ margin: "8px 0", fontSize: 28 }}>{t("name.title")}</h1>
      <p style={{ margin: "0 0 16px" }}>{t("name.text")}</p>
      <form onSubmit={(event) => void submit(event)} noValidate style={{ display: "grid", gap: 12 }}>
        <TextField
          label={t("name.first")}
          value={first}
          onChange={setFirst}
          autoComplete="given-name"
          maxLength={64}
          error={firstBad ? t("errors.name_invalid") : undefined}
        />
        <TextField
          label={t("name.last")}
          value={last}
          onChange={setLast}
          autoComplete="family-name"
          maxLength={64}
          error={lastBad ? t("errors.name_invalid") : (refused ?? undefined)}
        />
        <Button type="submit" look="primary" stretched disabled={!ready} loading={saving} loadingLabel={t("status.pending")}>
          {t("name.submit")}
        </Button>
      </form>
    </main>
  )
}
