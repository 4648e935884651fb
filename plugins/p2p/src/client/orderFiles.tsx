/**
 * An order's files on the screens (issue 21): chat photos and appeal receipts, fetched with the
 * session's token (the server answers only the order's two sides, `no-store`) and shown through an
 * object URL; a photo opens larger in a sheet; the receipt picker of a statement (upload with
 * progress, remove, at most three).
 */
import { useEffect, useId, useState, type CSSProperties } from "react"
import { useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query"
import { useKernel, useT } from "@wallet/kernel-react"
import { BottomSheet, Button, Cell, Skeleton } from "@wallet/kernel-react/ui"
import type { OrderFile, PendingReceipts } from "../api.ts"
import { MAX_RECEIPTS, RECEIPT_TYPES } from "../chatRules.ts"
import { chatErrorKey, fileProblem, isImage, sizeText } from "./chat.ts"
import { chatKeys, errorCode, loadOrderFile, loadPendingReceipts, removeReceipt, uploadReceipt } from "./client.ts"

type Kind = "chat" | "receipt"

/** Object URLs live as long as their query: revoked when the cache drops it (once per query client). */
const watched = new WeakSet<QueryClient>()
const revokeOnRemoval = (client: QueryClient) => {
  if (watched.has(client)) return
  watched.add(client)
  client.getQueryCache().subscribe((event) => {
    const data = event.query.state.data
    if (event.type === "removed" && event.query.queryKey[1] === "file" && typeof data === "string") URL.revokeObjectURL(data)
  })
}

/** The file's bytes (fetched with the session's token) as an object URL an <img> or a link can use. */
function useFileUrl(orderId: number, kind: Kind, file: OrderFile) {
  const kernel = useKernel()
  const queryClient = useQueryClient()
  const query = useQuery({
    queryKey: chatKeys.file(orderId, kind, file.id),
    queryFn: async () => {
      const bytes = await loadOrderFile(kernel, orderId, kind, file.id)
      revokeOnRemoval(queryClient)
      return URL.createObjectURL(new Blob([new Uint8Array(bytes)], { type: file.mime }))
    },
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 5 * 60_000,
    retry: 2,
  })
  return { url: query.data ?? null, failed: query.status === "error", retry: () => void query.refetch() }
}

const thumbStyle: CSSProperties = {
  display: "block",
  padding: 0,
  border: "none",
  background: "var(--wk-color-secondary-bg)",
  borderRadius: "var(--wk-radius-m, 12px)",
  overflow: "hidden",
  cursor: "zoom-in",
}

/** A photo as a thumbnail button; pressing it opens the photo larger. */
export function OrderImage({
  orderId,
  kind,
  file,
  alt,
  width = 200,
}: {
  readonly orderId: number
  readonly kind: Kind
  readonly file: OrderFile
  readonly alt: string
  readonly width?: number
}) {
  const t = useT("p2p")
  const { url, failed, retry } = useFileUrl(orderId, kind, file)
  const [open, setOpen] = useState(false)
  if (failed) {
    return (
      <span role="alert" style={{ display: "inline-flex", gap: 8, alignItems: "center", color: "var(--wk-color-hint)" }}>
        {t("chat.image.error")}
        <Button look="plain" size="s" onClick={retry}>
          {t("chat.retry")}
        </Button>
      </span>
    )
  }
  if (url === null) {
    return (
      <span role="status" aria-label={t("chat.image.loading")} style={{ display: "block", width }}>
        <Skeleton shape="rect" width={width} height={Math.round(width * 0.75)} radius={12} />
      </span>
    )
  }
  return (
    <>
      <button
        type="button"
        style={{ ...thumbStyle, width }}
        onClick={() => setOpen(true)}
        aria-label={t("chat.image.open", { name: alt })}
        data-testid="p2p-file-image"
      >
        <img src={url} alt={alt} style={{ display: "block", width: "100%", maxHeight: width * 1.5, objectFit: "cover" }} />
      </button>
      <BottomSheet open={open} onClose={() => setOpen(false)} title={t("chat.image.title")} closeLabel={t("chat.close")}>
        <img
          src={url}
          alt={alt}
          data-testid="p2p-file-image-large"
          style={{ display: "block", width: "100%", maxHeight: "70vh", objectFit: "contain", borderRadius: 12 }}
        />
      </BottomSheet>
    </>
  )
}

/** A PDF receipt as a row with a link that opens it (its bytes fetched with the session's token). */
function PdfLink({ orderId, file }: { readonly orderId: number; readonly file: OrderFile }) {
  const t = useT("p2p")
  const { url, failed, retry } = useFileUrl(orderId, "receipt", file)
  const name = file.name ?? "receipt.pdf"
  return (
    <div data-testid="p2p-file-pdf" style={{ display: "flex", alignItems: "center", gap: 12, padding: "4px 0" }}>
      <span style={{ flex: 1, minWidth: 0, display: "flex", flexDirection: "column" }}>
        <span style={{ overflow: "hidden", textOverflow: "ellipsis", whiteSpace: "nowrap" }}>{name}</span>
        <span style={{ color: "var(--wk-color-hint)", fontSize: "var(--wk-font-size-footnote, 13px)" }}>{`PDF · ${sizeText(file.size)}`}</span>
      </span>
      {failed ? (
        <Button look="plain" size="s" onClick={retry}>
          {t("chat.retry")}
        </Button>
      ) : url === null ? (
        <Skeleton shape="text" width={48} />
      ) : (
        <a href={url} download={name} target="_blank" rel="noopener" aria-label={t("chat.receipts.open", { name })} style={{ color: "var(--wk-color-link)" }}>
          {t("chat.receipts.openShort")}
        </a>
      )}
    </div>
  )
}

/** A statement's receipts: photos as thumbnails, PDFs as links. */
export function ReceiptFiles({ orderId, files, author }: { readonly orderId: number; readonly files: ReadonlyArray<OrderFile>; readonly author: string }) {
  const t = useT("p2p")
  if (files.length === 0) return null
  return (
    <div data-testid="p2p-receipts" style={{ display: "flex", flexWrap: "wrap", gap: 8, padding: "0 16px 12px" }}>
      {files.map((file) =>
        isImage(file) ? (
          <OrderImage key={file.id} orderId={orderId} kind="receipt" file={file} width={96} alt={t("chat.receipts.alt", { name: file.name ?? "", author })} />
        ) : (
          <div key={file.id} style={{ flexBasis: "100%" }}>
            <PdfLink orderId={orderId} file={file} />
          </div>
        ),
      )}
    </div>
  )
}

/**
 * The receipts the next statement carries: those uploaded and not sent yet (kept by the server, so a
 * reopened screen shows them), a picker with progress and a clear refusal, a remove button each.
 * `onIds` hears the ids to send with the statement.
 */
export function ReceiptPicker({ orderId, onIds }: { readonly orderId: number; readonly onIds: (ids: ReadonlyArray<number>) => void }) {
  const kernel = useKernel()
  const t = useT("p2p")
  const queryClient = useQueryClient()
  const inputId = useId()
  const [progress, setProgress] = useState<number | null>(null)
  const [problem, setProblem] = useState<string | null>(null)
  const [removing, setRemoving] = useState<number | null>(null)
  const query = useQuery({ queryKey: chatKeys.receipts(orderId), queryFn: () => loadPendingReceipts(kernel, orderId) })
  const files = query.data?.files ?? []
  const ids = files.map((file) => file.id).join(",")
  useEffect(() => onIds(ids === "" ? [] : ids.split(",").map(Number)), [ids, onIds])

  const settle = (next: PendingReceipts) => queryClient.setQueryData(chatKeys.receipts(orderId), next)
  const upload = async (file: File) => {
    setProblem(null)
    const local = fileProblem(file, "receipt")
    if (local !== null) return setProblem(t(local === "file_invalid" ? "chat.errors.receipt_invalid" : "chat.errors.file_too_large"))
    setProgress(0)
    try {
      settle(await uploadReceipt(kernel, orderId, file, setProgress))
    } catch (error) {
      const code = errorCode(error)
      setProblem(t(code === "file_invalid" ? "chat.errors.receipt_invalid" : chatErrorKey(code)))
    } finally {
      setProgress(null)
    }
  }
  const remove = async (id: number) => {
    setRemoving(id)
    try {
      settle(await removeReceipt(kernel, orderId, id))
    } catch (error) {
      setProblem(t(chatErrorKey(errorCode(error))))
      void query.refetch()
    } finally {
      setRemoving(null)
    }
  }

  return (
    <div data-testid="p2p-receipt-picker" style={{ display: "flex", flexDirection: "column", gap: 4 }}>
      <span style={{ color: "var(--wk-color-hint)", fontSize: "var(--wk-font-size-footnote, 13px)" }}>{t("chat.receipts.hint", { max: MAX_RECEIPTS })}</span>
      {files.map((file) => (
        <Cell
          key={file.id}
          data-testid="p2p-receipt-pending"
          title={file.name ?? t("chat.receipts.unnamed")}
          subtitle={`${isImage(file) ? t("chat.receipts.photo") : "PDF"} · ${sizeText(file.size)}`}
          after={
            <Button
              look="plain"
              size="s"
              loading={removing === file.id}
              loadingLabel={t("chat.receipts.removing")}
              aria-label={t("chat.receipts.remove", { name: file.name ?? "" })}
              onClick={() => void remove(file.id)}
            >
              {t("chat.receipts.removeShort")}
            </Button>
          }
        />
      ))}
      {progress !== null ? (
        <div role="status">
          <progress max={100} value={progress} aria-label={t("chat.receipts.uploading")} style={{ width: "100%" }} />
          <span>{t("chat.progress", { percent: progress })}</span>
        </div>
      ) : files.length < MAX_RECEIPTS ? (
        <label htmlFor={inputId} style={{ cursor: "pointer", color: "var(--wk-color-link)", padding: "6px 0" }}>
          {t("chat.receipts.add")}
          <input
            id={inputId}
            data-testid="p2p-receipt-input"
            type="file"
            accept={RECEIPT_TYPES.join(",")}
            style={{ position: "absolute", width: 1, height: 1, opacity: 0 }}
            onChange={(event) => {
              const file = event.currentTarget.files?.[0]
              event.currentTarget.value = ""
              if (file) void upload(file)
            }}
          />
        </label>
      ) : null}
      {problem !== null && (
        <p role="alert" data-testid="p2p-receipt-error" style={{ margin: 0, color: "var(--wk-color-destructive)" }}>
          {problem}
        </p>
      )}
    </div>
  )
}
