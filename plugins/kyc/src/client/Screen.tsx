import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { useKernel, useT } from "@wallet/kernel-react"
import { Button, Cell, List, Placeholder, Section, SkeletonList } from "@wallet/kernel-react/ui"
import { configOf } from "../config.ts"
import { addNote, loadNotes, notesKey } from "./client.ts"

/** /kyc: the signed-in user's notes from the server (loading, error, empty, list) and one button. */
export default function Screen() {
  const kernel = useKernel()
  const t = useT("kyc")
  const queries = useQueryClient()
  const notes = useQuery({ queryKey: notesKey, queryFn: () => loadNotes(kernel) })
  const add = useMutation({
    mutationFn: () => addNote(kernel, t("sample")),
    onSuccess: () => queries.invalidateQueries({ queryKey: notesKey }),
  })
  const title = configOf(kernel).title ?? t("title")
  return (
    <main style={{ padding: "16px 0" }}>
      <h1 style={{ margin: "8px 16px 16px", fontSize: 28 }}>{title}</h1>
      <List>
        {notes.status === "pending" ? (
          <Section>
            <SkeletonList rows={3} before={false} label={t("loading")} />
          </Section>
        ) : notes.status === "error" ? (
          <Placeholder
            kind="error"
            title={t("loadError")}
            action={
              <Button look="secondary" size="s" onClick={() => void notes.refetch()}>
                {t("retry")}
              </Button>
            }
          />
        ) : notes.data.length === 0 ? (
          <Placeholder kind="empty" title={t("empty")} />
        ) : (
          <Section>
            {notes.data.map((note) => (
              <Cell key={note.id} title={note.text} />
            ))}
          </Section>
        )}
      </List>
      <div style={{ padding: 16 }}>
        <Button look="primary" disabled={add.isPending} onClick={() => add.mutate()}>
          {t("add")}
        </Button>
        {add.isError ? <p role="alert">{t("addError")}</p> : null}
      </div>
    </main>
  )
}
