/**
 * Uploaded documents: each is uploaded in an applicant's attempt and fills a step (IDENTITY holds one
 * of PASSPORT, ID_CARD, DRIVERS; SELFIE holds the selfie). The applicant's current documents are the
 * latest of each step: a new upload replaces the step's document, and after a RED RETRY the documents
 * not sent again carry over to the resubmission (as on Sumsub, where only the rejected steps are
 * redone). A level change retires them all. Replaced files are kept and stay fetchable by image id.
 */
import type { Applicant } from "./applicants.ts"
import type { Sql } from "./db.ts"
import { sumsubDate } from "./dates.ts"

export type IdDocType = "PASSPORT" | "ID_CARD" | "DRIVERS" | "SELFIE"
export type IdDocSetType = "IDENTITY" | "SELFIE"

export const ID_DOC_TYPES: ReadonlyArray<IdDocType> = ["PASSPORT", "ID_CARD", "DRIVERS", "SELFIE"]

export const docSetOf = (type: IdDocType): IdDocSetType => (type === "SELFIE" ? "SELFIE" : "IDENTITY")

export interface NewDocument {
  readonly idDocType: IdDocType
  readonly country: string | undefined
  readonly fileName: string
  readonly fileType: string
  readonly content: Uint8Array
}

interface Row {
  image_id: number
  attempt_id: string
  id_doc_type: IdDocType
  country: string | null
  file_name: string
  file_type: string
  file_size: number
  added_at: number
}

/** One item of `GET /resources/applicants/{id}/metadata/resources`. */
export interface DocumentItem {
  readonly id: string
  readonly idDocDef: { readonly idDocType: IdDocType; readonly country?: string }
  readonly fileMetadata: { readonly fileName: string; readonly fileType: string; readonly fileSize: number }
  readonly addedDate: string
  readonly attemptId: string
}

const COLUMNS = "image_id, attempt_id, id_doc_type, country, file_name, file_type, file_size, added_at"

const item = (r: Row): DocumentItem => ({
  id: String(r.image_id),
  idDocDef: { idDocType: r.id_doc_type, ...(r.country ? { country: r.country } : {}) },
  fileMetadata: { fileName: r.file_name, fileType: r.file_type, fileSize: r.file_size },
  addedDate: sumsubDate(Number(r.added_at)),
  attemptId: r.attempt_id,
})

export const addDocument = async (sql: Sql, a: Applicant, doc: NewDocument, now: number): Promise<DocumentItem> => {
  const set = docSetOf(doc.idDocType)
  await sql.query("update files set replaced_at = $3 where applicant_id = $1 and doc_set = $2 and replaced_at is null", [a.id, set, now])
  const { rows } = await sql.query<Row>(
    `insert into files (applicant_id, inspection_id, attempt_id, doc_set, id_doc_type, country, file_name, file_type, file_size, content, added_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) returning ${COLUMNS}`,
    [a.id, a.inspectionId, a.attemptId, set, doc.idDocType, doc.country ?? null, doc.fileName, doc.fileType, doc.content.length, doc.content, now],
  )
  if (!rows[0]) throw new Error("insert returned no file")
  return item(rows[0])
}

/** The applicant's current documents (the latest of each step), in upload order. */
export const currentDocuments = async (sql: Sql, a: Applicant): Promise<DocumentItem[]> => {
  const { rows } = await sql.query<Row>(`select ${COLUMNS} from files where applicant_id = $1 and replaced_at is null order by image_id`, [a.id])
  return rows.map(item)
}

/** A level change starts over: no document carries over to the new level's attempt. */
export const retireDocuments = async (sql: Sql, a: Applicant, now: number): Promise<void> => {
  await sql.query("update files set replaced_at = $2 where applicant_id = $1 and replaced_at is null", [a.id, now])
}

/** The steps the current documents still lack before a submission. */
export const missingSteps = (items: ReadonlyArray<DocumentItem>): IdDocSetType[] => {
  const present = new Set(items.map((i) => docSetOf(i.idDocDef.idDocType)))
  return (["IDENTITY", "SELFIE"] as const).filter((s) => !present.has(s))
}

export const imageContent = async (sql: Sql, inspectionId: string, imageId: string): Promise<{ fileType: string; content: Uint8Array } | undefined> => {
  if (!/^\d{1,18}$/.test(imageId)) return undefined
  const { rows } = await sql.query<{ file_type: string; content: Uint8Array }>(
    "select file_type, content from files where inspection_id = $1 and image_id = $2",
    [inspectionId, imageId],
  )
  return rows[0] ? { fileType: rows[0].file_type, content: rows[0].content } : undefined
}
