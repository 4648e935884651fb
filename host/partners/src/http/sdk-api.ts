/**
 * The WebSDK's API, called by the frame page with `X-Access-Token`: open a session (binds the token,
 * creates the applicant or moves it to the token's level), upload a document image, submit, and
 * poll the status.
 */
import {
  acceptsDocuments,
  changeLevel,
  createApplicant,
  findByExternalUserId,
  inReview,
  markPending,
  requireApplicant,
  statusView,
  type Applicant,
} from "../applicants.ts"
import type { SandboxContext } from "../context.ts"
import type { Sql } from "../db.ts"
import { addDocument, currentDocuments, ID_DOC_TYPES, missingSteps, retireDocuments, type IdDocType } from "../documents.ts"
import { EXTENSIONS, IMAGE_TYPES, MAX_IMAGE_BYTES, mediaType, sniffImage, type ImageType } from "../images.ts"
import { attachApplicant, bindSession, requireSessionToken } from "../tokens.ts"
import { enqueueWebhook, type WebhookType } from "../webhooks.ts"
import { header, json, jsonBody, param, SumsubError, type Request, type Route } from "./http.ts"

const NOT_AN_IMAGE = "the file is not a JPEG, PNG or WebP image"

const isDocType = (value: string | null): value is IdDocType => ID_DOC_TYPES.some((t) => t === value)
const isImageType = (value: string): value is ImageType => IMAGE_TYPES.some((t) => t === value)

/** The name the frame sends in `X-File-Name` (URL-encoded), reduced to a safe base name. */
const fileNameOf = (req: Request, idDocType: IdDocType, type: ImageType): string => {
  const fallback = `${idDocType.toLowerCase()}.${EXTENSIONS[type]}`
  const raw = header(req, "x-file-name")
  if (!raw) return fallback
  let decoded: string
  try {
    decoded = decodeURIComponent(raw)
  } catch {
    return fallback
  }
  // oxlint-disable-next-line no-control-regex
  const base = (decoded.split(/[/\\]/).pop() ?? "").replace(/[\u0000-\u001f\u007f]/g, "").trim()
  return base ? base.slice(0, 200) : fallback
}

const conflict = (a: Applicant): SumsubError => new SumsubError(409, `documents cannot be changed while the review is ${a.reviewStatus}`, "conflict")

export const sdkRoutes = (ctx: SandboxContext): Route[] => {
  const { db, config } = ctx
  const emit = (sql: Sql, a: Applicant, type: WebhookType, req: Request, now: number) =>
    enqueueWebhook(sql, a, type, { correlationId: req.correlationId, now, reorder: ctx.chaos().reorder })

  const session = async (req: Request) => {
    const token = header(req, "x-access-token")
    const sessionId = jsonBody(req)["sessionId"]
    if (typeof sessionId !== "string" || !/^[\w-]{8,128}$/.test(sessionId))
      throw new SumsubError(400, "sessionId must be 8 to 128 letters, digits, _ or -", "bad-request")
    if (!token) throw new SumsubError(401, "the X-Access-Token header is missing", "invalid-token")
    return db.transaction(async (tx) => {
      const now = config.now()
      const grant = await bindSession(tx, token, sessionId, now)
      let a = await findByExternalUserId(tx, grant.userId)
      if (!a) {
        a = await createApplicant(tx, grant.userId, grant.levelName, now)
        await emit(tx, a, "applicantCreated", req, now)
      } else if (a.levelName !== grant.levelName && !inReview(a)) {
        a = await changeLevel(tx, a, grant.levelName, now)
        await retireDocuments(tx, a, now)
        await emit(tx, a, "applicantLevelChanged", req, now)
      }
      await attachApplicant(tx, token, a.id)
      const files = await currentDocuments(tx, a)
      return json({
        applicantId: a.id,
        levelName: a.levelName,
        status: statusView(a),
        // attemptId tells the frame which documents were sent again after a RED RETRY
        files: files.map((f) => ({ idDocType: f.idDocDef.idDocType, fileName: f.fileMetadata.fileName, attemptId: f.attemptId })),
      })
    })
  }

  const upload = async (req: Request) => {
    const applicantId = param(req, "id")
    await requireSessionToken(db, header(req, "x-access-token"), applicantId, config.now())
    const idDocType = req.query.get("idDocType")
    if (!isDocType(idDocType)) throw new SumsubError(400, `idDocType must be one of ${ID_DOC_TYPES.join(", ")}`, "bad-request")
    const country = req.query.get("country") || undefined
    if (country !== undefined && !/^[A-Z]{3}$/.test(country)) throw new SumsubError(400, "country must be an ISO 3166-1 alpha-3 code", "bad-request")
    if (req.oversize) throw new SumsubError(413, "the file is larger than 5 MB", "file-too-large")
    const declared = mediaType(header(req, "content-type"))
    if (req.body.length === 0 || !isImageType(declared) || sniffImage(req.body) !== declared) throw new SumsubError(400, NOT_AN_IMAGE, "bad-image")
    const doc = { idDocType, country, fileName: fileNameOf(req, idDocType, declared), fileType: declared, content: req.body }
    return db.transaction(async (tx) => {
      const a = await requireApplicant(tx, applicantId)
      if (!acceptsDocuments(a)) throw conflict(a)
      return json(await addDocument(tx, a, doc, config.now()))
    })
  }

  const submit = async (req: Request) => {
    const applicantId = param(req, "id")
    await requireSessionToken(db, header(req, "x-access-token"), applicantId, config.now())
    return db.transaction(async (tx) => {
      const a = await requireApplicant(tx, applicantId)
      if (!acceptsDocuments(a)) throw new SumsubError(409, `the applicant cannot be submitted while the review is ${a.reviewStatus}`, "conflict")
      const documents = await currentDocuments(tx, a)
      const missing = missingSteps(documents)
      if (missing.length > 0) {
        const names = missing.map((s) => (s === "IDENTITY" ? "IDENTITY (an identity document)" : "SELFIE (a selfie)"))
        throw new SumsubError(400, `documents are missing: ${names.join(", ")}`, "documents-missing")
      }
      // a resubmission after RED RETRY is built from what was uploaded after the rejection (the rest carries over)
      if (a.reviewStatus === "completed" && !documents.some((d) => d.attemptId === a.attemptId)) {
        throw new SumsubError(400, "upload at least one document again after the rejection", "documents-missing")
      }
      const now = config.now()
      const pending = await markPending(tx, a, now)
      await emit(tx, pending, "applicantPending", req, now)
      return json(statusView(pending))
    })
  }

  const status = async (req: Request) => {
    const applicantId = param(req, "id")
    await requireSessionToken(db, header(req, "x-access-token"), applicantId, config.now())
    return json(statusView(await requireApplicant(db, applicantId)))
  }

  return [
    { method: "POST", pattern: /^\/resources\/sdk\/session$/, handler: session },
    { method: "POST", pattern: /^\/resources\/sdk\/applicants\/(?<id>[^/]+)\/idDoc$/, handler: upload, maxBody: MAX_IMAGE_BYTES },
    { method: "POST", pattern: /^\/resources\/sdk\/applicants\/(?<id>[^/]+)\/submit$/, handler: submit },
    { method: "GET", pattern: /^\/resources\/sdk\/applicants\/(?<id>[^/]+)\/status$/, handler: status },
  ]
}
