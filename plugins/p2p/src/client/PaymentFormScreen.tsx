import { useState, type HTMLAttributes } from "react"
import { useParams, useSearch } from "@tanstack/react-router"
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { useGo, useKernel, useT } from "@wallet/kernel-react"
import { BottomSheet, Button, List, Section, SkeletonList, TextField } from "@wallet/kernel-react/ui"
import type { PaymentDetails } from "../api.ts"
import { paymentMethod, unavailableWhyOf, type FieldKind } from "../domain.ts"
import { newPaymentRoute, p2pUnavailableRoute, paymentsRoute } from "../routes.ts"
import { createPayment, deletePayment, errorCode, errorField, keys, loadPayments, updatePayment } from "./client.ts"
import { fieldProblems, fieldsToSave, formKinds, refusedFields } from "./maker.ts"
import { backOr, fieldBoxStyle, makerErrorKey, MakerLoadError, MessagePage, subtitleStyle } from "./makerParts.tsx"
import { idOf } from "./market.ts"
import { alertStyle, padStyle, pageStyle, titleStyle } from "./marketParts.tsx"

const INPUT_MODES: Partial<Record<FieldKind, HTMLAttributes<HTMLInputElement>["inputMode"]>> = {
  cardNumber: "numeric",
  accountNumber: "numeric",
  phone: "tel",
  email: "email",
}
const AUTOCOMPLETE: Partial<Record<FieldKind, string>> = { holderName: "name", phone: "tel", email: "email", cardNumber: "cc-number" }

/** The form of one method's fields: create (fiat + code) or edit (saved details). */
function PaymentForm({ code, fiat, saved }: { readonly code: string; readonly fiat: string; readonly saved?: PaymentDetails }) {
  const kernel = useKernel()
  const t = useT("p2p")
  const go = useGo()
  const queryClient = useQueryClient()
  const kinds = formKinds(code)
  const [values, setValues] = useState<Record<string, string>>(() => Object.fromEntries(kinds.map((kind) => [kind, saved?.fields[kind] ?? ""])))
  const [touched, setTouched] = useState<ReadonlySet<string>>(new Set())
  const [attempted, setAttempted] = useState(false)
  const [refused, setRefused] = useState<ReadonlyArray<string>>([])
  const [confirmDelete, setConfirmDelete] = useState(false)
  const problems = fieldProblems(code, values)
  const name = t(`methods.${code}`, { defaultValue: saved?.paymentMethod.name ?? paymentMethod(code)?.name ?? code })

  const leave = () => backOr(() => void go(paymentsRoute, { search: {}, replace: true }))
  const failed = (error: unknown) => {
    const reason = errorCode(error)
    if (reason === "p2p_unavailable") void go(p2pUnavailableRoute, { search: { why: unavailableWhyOf(errorField(error, "why")) }, replace: true })
    if (reason === "invalid_payment_details") setRefused(refusedFields(error))
  }

  const save = useMutation({
    mutationFn: (fields: Record<string, string>) =>
      saved === undefined
        ? createPayment(kernel, { code: code as never, fiat, fields })
        : updatePayment(kernel, saved.id, { code: saved.paymentMethod.code, fiat: saved.fiat, fields }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: keys.payments })
      leave()
    },
    onError: failed,
  })
  const remove = useMutation({
    mutationFn: (id: number) => deletePayment(kernel, id),
    onSuccess: () => {
      setConfirmDelete(false)
      leave()
      void queryClient.invalidateQueries({ queryKey: keys.payments })
    },
    onError: failed,
  })

  const submit = () => {
    setAttempted(true)
    setRefused([])
    const fields = fieldsToSave(code, values)
    if (fields !== null) save.mutate(fields)
  }

  const errorOf = (kind: FieldKind): string | undefined => {
    if (refused.includes(kind)) return t("payments.form.refusedField")
    const problem = problems[kind]
    if (problem === undefined || !(attempted || touched.has(kind))) return undefined
    return t(`payments.form.problems.${problem}`, { field: t(`fields.${kind}`) })
  }
  const busy = save.isPending || remove.isPending
  const error = save.error ?? remove.error
  const otherRefused = refused.filter((kind) => !kinds.includes(kind as FieldKind))

  return (
    <main style={pageStyle} data-testid="p2p-payment-form" data-code={code}>
      <h1 style={titleStyle}>{name}</h1>
      <p style={subtitleStyle}>{t(saved === undefined ? "payments.form.newLead" : "payments.form.editLead", { fiat })}</p>
      <List>
        <Section>
          {kinds.map((kind) => (
            <div key={kind} style={fieldBoxStyle}>
              <TextField
                label={kind === "comment" ? t("payments.form.optional", { label: t(`fields.${kind}`) }) : t(`fields.${kind}`)}
                value={values[kind] ?? ""}
                onChange={(value) => {
                  setValues((v) => ({ ...v, [kind]: value }))
                  if (refused.includes(kind)) setRefused((r) => r.filter((k) => k !== kind))
                }}
                onBlur={() => setTouched((s) => new Set([...s, kind]))}
                multiline={kind === "comment" ? true : undefined}
                maxLength={200}
                inputMode={INPUT_MODES[kind]}
                autoComplete={AUTOCOMPLETE[kind] ?? "off"}
                data-testid={`p2p-payment-field-${kind}`}
                hint={code === "sbp" && kind === "phone" ? t("payments.form.sbpHint") : kind === "comment" ? t("payments.form.commentHint") : undefined}
                error={errorOf(kind)}
              />
            </div>
          ))}
        </Section>
      </List>
      {error !== null && (
        <p role="alert" style={alertStyle} data-testid="p2p-payment-error">
          {t(makerErrorKey(errorCode(error)))}
          {otherRefused.length > 0 ? ` (${otherRefused.join(", ")})` : ""}
        </p>
      )}
      <div style={padStyle}>
        <Button
          look="primary"
          size="l"
          stretched
          data-testid="p2p-payment-save"
          loading={save.isPending}
          loadingLabel={t("maker.loading")}
          disabled={busy}
          onClick={submit}
        >
          {t("payments.form.save")}
        </Button>
        {saved !== undefined && (
          <Button look="plain" size="l" stretched data-testid="p2p-payment-delete" disabled={busy} onClick={() => setConfirmDelete(true)}>
            <span style={{ color: "var(--wk-color-destructive)" }}>{t("payments.form.delete")}</span>
          </Button>
        )}
      </div>
      {saved !== undefined && (
        <BottomSheet
          open={confirmDelete}
          onClose={() => !remove.isPending && setConfirmDelete(false)}
          closeLabel={t("maker.close")}
          title={t("payments.form.deleteTitle")}
          footer={
            <div style={{ display: "flex", flexDirection: "column", gap: 8 }}>
              <Button
                look="destructive"
                size="l"
                stretched
                data-testid="p2p-payment-delete-confirm"
                loading={remove.isPending}
                loadingLabel={t("maker.loading")}
                onClick={() => remove.mutate(saved.id)}
              >
                {t("payments.form.deleteConfirm")}
              </Button>
              <Button look="secondary" size="l" stretched disabled={remove.isPending} onClick={() => setConfirmDelete(false)}>
                {t("maker.cancel")}
              </Button>
            </div>
          }
        >
          <p style={{ margin: "0 16px 8px", lineHeight: 1.4 }}>{t("payments.form.deleteText", { name })}</p>
        </BottomSheet>
      )}
    </main>
  )
}

/**
 * /p2p/user/payments/create?fiat&code and /p2p/user/payments/$id/edit (spec 3 §2.1): one field per kind
 * the method needs plus an optional comment, checked as typed (sbp: a +7 phone); the server's refusal
 * marks the fields it names. Saving or deleting returns to where the user came from.
 */
export default function PaymentFormScreen() {
  const kernel = useKernel()
  const t = useT("p2p")
  const go = useGo()
  const params = useParams({ strict: false }) as { readonly id?: string }
  const search = useSearch({ strict: false }) as { readonly fiat?: string; readonly code?: string }
  const editing = params.id !== undefined
  const id = editing ? idOf(params.id) : null
  const payments = useQuery({ queryKey: keys.payments, queryFn: () => loadPayments(kernel), enabled: id !== null })

  const toList = (
    <Button look="secondary" size="s" onClick={() => void go(paymentsRoute, { search: {}, replace: true })}>
      {t("payments.toList")}
    </Button>
  )
  if (!editing) {
    const method = search.code === undefined ? undefined : paymentMethod(search.code)
    const fiat = search.fiat
    if (method === undefined || fiat === undefined || !method.fiats.includes(fiat)) {
      return (
        <MessagePage
          testId="p2p-payment-method-unknown"
          title={t("payments.form.unknownMethod")}
          action={
            <Button
              look="secondary"
              size="s"
              onClick={() => void go(newPaymentRoute, { search: fiat !== undefined && /^[A-Z]{3}$/.test(fiat) ? { fiat } : {}, replace: true })}
            >
              {t("payments.form.chooseMethod")}
            </Button>
          }
        />
      )
    }
    return <PaymentForm code={method.code} fiat={fiat} />
  }
  if (id === null) return <MessagePage testId="p2p-payment-not-found" title={t("payments.notFound")} action={toList} />
  if (payments.status === "pending") {
    return (
      <main style={pageStyle} aria-busy="true">
        <SkeletonList rows={3} before={false} label={t("maker.loading")} />
      </main>
    )
  }
  if (payments.status === "error") {
    return (
      <main style={pageStyle}>
        <MakerLoadError retry={() => void payments.refetch()} />
      </main>
    )
  }
  const saved = payments.data.find((d) => d.id === id)
  if (saved === undefined) return <MessagePage testId="p2p-payment-not-found" title={t("payments.notFound")} action={toList} />
  return <PaymentForm key={saved.id} code={saved.paymentMethod.code} fiat={saved.fiat} saved={saved} />
}
