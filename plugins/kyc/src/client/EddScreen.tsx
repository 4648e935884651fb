import { useId, useState } from "react"
import { useQuery, useQueryClient } from "@tanstack/react-query"
import { useGo, useKernel, useT, uploadWithSession } from "@wallet/kernel-react"
import { Button, Cell, List, Placeholder, Section, SkeletonList, useSnackbar } from "@wallet/kernel-react/ui"
import type { EddState, EvidenceFile } from "../api.ts"
import { EVIDENCE_TYPES, MAX_EVIDENCE_BYTES, type EvidenceGroup, type EvidenceKind } from "../domain.ts"
import { walletMainRoute } from "../routes.ts"
import { eddKey, loadEdd, refusalCode, removeEvidence, statusKey, submitEdd } from "./client.ts"
import { LoadError } from "./LoadError.tsx"

/** An evidence upload's timeout (spec 1 §7: the upload helper's timeout). */
export const EVIDENCE_UPLOAD_TIMEOUT_MS = 120_000

const kb = (size: number) => `${Math.max(1, Math.ceil(size / 1024))} kB`

/** One attachment list: its files, and a button that picks and uploads another with its progress. */
function KindFiles(props: {
  readonly group: EvidenceGroup
  readonly kind: EvidenceKind
  readonly files: ReadonlyArray<EvidenceFile>
  readonly editable: boolean
  readonly onState: (state: EddState) => void
}) {
  const kernel = useKernel()
  const t = useT("kyc")
  const snackbar = useSnackbar()
  const inputId = useId()
  const [progress, setProgress] = useState<number | null>(null)
  const [removing, setRemoving] = useState<number | null>(null)

  const upload = async (file: File) => {
    if (file.size > MAX_EVIDENCE_BYTES) return snackbar.show({ id: "kyc-evidence", text: t("edd.errors.file_too_large") })
    setProgress(0)
    try {
      const query = new URLSearchParams({ group: props.group, kind: props.kind, name: file.name.slice(0, 120) || props.kind })
      const answer = await uploadWithSession(kernel, {
        url: `/api/kyc/evidence?${query}`,
        body: file,
        contentType: (EVIDENCE_TYPES as ReadonlyArray<string>).includes(file.type) ? file.type : "application/octet-stream",
        timeoutMs: EVIDENCE_UPLOAD_TIMEOUT_MS,
        onProgress: (loaded, total) => setProgress(total > 0 ? Math.round((loaded / total) * 100) : 0),
      })
      props.onState(answer.body as EddState)
    } catch (error) {
      const code = refusalCode(error) ?? "generic"
      snackbar.show({
        id: "kyc-evidence",
        text: t(`edd.errors.${code}`, { defaultValue: error instanceof Error && error.message ? error.message : t("errors.generic") }),
      })
    } finally {
      setProgress(null)
    }
  }

  const remove = async (id: number) => {
    setRemoving(id)
    try {
      props.onState(await removeEvidence(kernel, id))
    } catch (error) {
      snackbar.show({ id: "kyc-evidence", text: t(`edd.errors.${refusalCode(error) ?? "generic"}`, { defaultValue: t("errors.generic") }) })
    } finally {
      setRemoving(null)
    }
  }

  return (
    <>
      <Cell data-evidence-kind={props.kind} title={t(`edd.kinds.${props.kind}`)} subtitle={props.files.length === 0 ? t("edd.noFiles") : undefined} multiline />
      {props.files.map((file) => (
        <Cell
          key={file.id}
          data-evidence-file={file.fileName}
          title={file.fileName}
          subtitle={kb(file.size)}
          after={
            props.editable ? (
              <Button
                look="secondary"
                size="s"
                loading={removing === file.id}
                loadingLabel={t("status.pending")}
                aria-label={t("edd.remove", { name: file.fileName })}
                onClick={() => void remove(file.id)}
              >
                {t("edd.removeShort")}
              </Button>
            ) : undefined
          }
        />
      ))}
      {props.editable ? (
        <div style={{ padding: "8px 16px 12px" }}>
          {progress !== null ? (
            <div role="status">
              <progress max={100} value={progress} aria-label={t("edd.uploading", { kind: t(`edd.kinds.${props.kind}`) })} style={{ width: "100%" }} />
              <span>{t("edd.progress", { percent: progress })}</span>
            </div>
          ) : (
            <label htmlFor={inputId} className="kyc-evidence-add" style={{ cursor: "pointer", color: "var(--tg-theme-link-color, #2481cc)" }}>
              {t("edd.add")}
              <input
                id={inputId}
                data-evidence-input={props.kind}
                type="file"
                accept={EVIDENCE_TYPES.join(",")}
                style={{ position: "absolute", width: 1, height: 1, opacity: 0 }}
                onChange={(event) => {
                  const file = event.currentTarget.files?.[0]
                  event.currentTarget.value = ""
                  if (file) void upload(file)
                }}
              />
            </label>
          )}
        </div>
      ) : null}
    </>
  )
}

/**
 * /kyc/edd (start param `edd`; decision 0940): the evidence staff asked for, group by group and list
 * by list. The user adds files (a photo or PDF up to 10 MB each, uploaded with progress and a
 * timeout), removes them, and sends the lot; then waits for staff's decision, or reads why it was not
 * accepted and sends again.
 */
export default function EddScreen() {
  const kernel = useKernel()
  const t = useT("kyc")
  const go = useGo()
  const snackbar = useSnackbar()
  const queries = useQueryClient()
  const state = useQuery({ queryKey: eddKey, queryFn: () => loadEdd(kernel), refetchOnWindowFocus: false })
  const [sending, setSending] = useState(false)
  const setState = (next: EddState) => queries.setQueryData(eddKey, next)

  const send = async () => {
    setSending(true)
    try {
      setState(await submitEdd(kernel))
      void queries.invalidateQueries({ queryKey: statusKey })
    } catch (error) {
      snackbar.show({ id: "kyc-evidence", text: t(`edd.errors.${refusalCode(error) ?? "generic"}`, { defaultValue: t("errors.generic") }) })
    } finally {
      setSending(false)
    }
  }

  if (state.status === "pending") return <SkeletonList rows={4} before={false} label={t("loading")} />
  if (state.status === "error") return <LoadError retry={() => void state.refetch()} />
  const request = state.data.request
  const home = (
    <Button look="secondary" onClick={() => void go(walletMainRoute, { replace: true })}>
      {t("success.done")}
    </Button>
  )
  if (request === null) return <Placeholder title={t("edd.none")} action={home} />
  if (request.status === "submitted") return <Placeholder title={t("edd.submitted")} description={t("edd.submittedText")} action={home} />
  if (request.status === "approved") return <Placeholder title={t("edd.approved")} action={home} />
  const editable = true
  const complete = request.groups.every((group) => group.kinds.some((list) => list.files.length > 0))
  return (
    <main style={{ padding: "16px 0" }}>
      <h1 style={{ margin: "8px 16px 8px", fontSize: 28 }}>{t("edd.title")}</h1>
      <p style={{ margin: "0 16px 16px" }}>{request.note ?? t("edd.text")}</p>
      {request.status === "rejected" && request.reason ? (
        <p role="alert" data-testid="kyc-edd-reason" style={{ margin: "0 16px 16px", color: "var(--tg-theme-destructive-text-color, #e53935)" }}>
          {t("edd.rejected", { reason: request.reason })}
        </p>
      ) : null}
      <List>
        {request.groups.map((group) => (
          <Section key={group.group} header={t(`edd.groups.${group.group}.title`)} footer={t(`edd.groups.${group.group}.text`)}>
            {group.kinds.map((list) => (
              <KindFiles key={list.kind} group={group.group} kind={list.kind} files={list.files} editable={editable} onState={setState} />
            ))}
          </Section>
        ))}
        <div style={{ padding: 16 }}>
          <Button look="primary" stretched disabled={!complete} loading={sending} loadingLabel={t("status.pending")} onClick={() => void send()}>
            {t("edd.send")}
          </Button>
          {complete ? null : <p style={{ margin: "8px 0 0", fontSize: 14 }}>{t("edd.needOnePerGroup")}</p>}
        </div>
      </List>
    </main>
  )
}
