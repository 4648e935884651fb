/**
 * The upload helper (spec 1 §7): sends one file body with XMLHttpRequest, because fetch reports no
 * upload progress. It takes a timeout in ms (default `HTTP_DEFAULT_TIMEOUT_MS`) and a progress
 * callback, and fails with the kernel's `HttpError` classified as the Http policy does, so callers
 * handle an upload's failure like any other call's: a non-2xx answer is `UNKNOWN` with its status
 * and JSON error body (`serverCode`), a 2xx body that is not JSON `ERR_BAD_RESPONSE`, no answer
 * `ERR_NETWORK` ("Network error"), an abort `ECONNABORTED` ("Request aborted") and a timeout
 * `ECONNABORTED` ("Request timed out after {ms} ms", `timedOut`).
 *
 * It adds no token and never retries: `uploadWithSession` (kernel-react) adds the session's.
 */
import { HTTP_DEFAULT_TIMEOUT_MS, HttpError, httpStatusClass } from "./http.ts"

export interface UploadOptions {
  readonly url: string
  /** Default POST. */
  readonly method?: "POST" | "PUT"
  readonly body: Blob | Uint8Array
  readonly contentType: string
  readonly headers?: Readonly<Record<string, string>>
  /** Default `HTTP_DEFAULT_TIMEOUT_MS` (30 s), for the whole request (upload and answer). */
  readonly timeoutMs?: number
  /** Bytes sent so far and in all, as the upload goes. */
  readonly onProgress?: (loaded: number, total: number) => void
  readonly signal?: AbortSignal
}

export interface UploadResult {
  readonly status: number
  /** The parsed JSON answer; null for an empty one. */
  readonly body: unknown
}

const parseJson = (text: string): { readonly ok: true; readonly value: unknown } | { readonly ok: false } => {
  if (text.trim() === "") return { ok: true, value: null }
  try {
    return { ok: true, value: JSON.parse(text) as unknown }
  } catch {
    return { ok: false }
  }
}

/** XMLHttpRequest sends BufferSource views over an ArrayBuffer; a view over a shared buffer is copied. */
const sendable = (body: Blob | Uint8Array): Blob | Uint8Array<ArrayBuffer> =>
  body instanceof Uint8Array ? (body.buffer instanceof ArrayBuffer ? (body as Uint8Array<ArrayBuffer>) : new Uint8Array(body)) : body

/**
 * Uploads `body` to `url` (the kernel's timeout, progress, abort and error classes; see the module
 * header). Resolves with the status and the parsed JSON answer of a 2xx; rejects with `HttpError`.
 * `xhr` makes the request object (tests pass a fake).
 */
export const uploadFile = (options: UploadOptions, xhr: () => XMLHttpRequest = () => new XMLHttpRequest()): Promise<UploadResult> =>
  new Promise<UploadResult>((resolve, reject) => {
    const timeoutMs = options.timeoutMs ?? HTTP_DEFAULT_TIMEOUT_MS
    const aborted = () => new HttpError({ code: "ECONNABORTED", message: "Request aborted" })
    if (options.signal?.aborted === true) {
      reject(aborted())
      return
    }
    const total = options.body instanceof Uint8Array ? options.body.byteLength : options.body.size
    const request = xhr()
    let settled = false
    const onAbortSignal = () => {
      fail(aborted())
      request.abort()
    }
    const settle = () => {
      settled = true
      options.signal?.removeEventListener("abort", onAbortSignal)
    }
    const fail = (error: HttpError) => {
      if (settled) return
      settle()
      reject(error)
    }

    request.open(options.method ?? "POST", options.url)
    request.timeout = timeoutMs
    for (const [name, value] of Object.entries(options.headers ?? {})) {
      if (name.toLowerCase() !== "content-type") request.setRequestHeader(name, value)
    }
    request.setRequestHeader("content-type", options.contentType)

    request.upload.addEventListener("progress", (event) => {
      if (!settled) options.onProgress?.(event.loaded, event.lengthComputable ? event.total : total)
    })
    request.addEventListener("load", () => {
      if (settled) return
      const status = request.status
      // A request the browser gave up on (CORS, offline) can end with status 0.
      if (status === 0) return fail(new HttpError({ code: "ERR_NETWORK", message: "Network error" }))
      const parsed = parseJson(request.responseText)
      if (status >= 300) {
        return fail(
          new HttpError({
            code: "UNKNOWN",
            message: `Unknown Error: ${status}`,
            status,
            statusClass: httpStatusClass(status),
            // As the Http policy: the JSON error body when there is one.
            body: parsed.ok && request.responseText.trim() !== "" ? parsed.value : undefined,
          }),
        )
      }
      if (!parsed.ok) return fail(new HttpError({ code: "ERR_BAD_RESPONSE", message: "Bad response", status }))
      settle()
      resolve({ status, body: parsed.value })
    })
    request.addEventListener("error", () => fail(new HttpError({ code: "ERR_NETWORK", message: "Network error" })))
    request.addEventListener("abort", () => fail(aborted()))
    request.addEventListener("timeout", () => fail(new HttpError({ code: "ECONNABORTED", message: `Request timed out after ${timeoutMs} ms`, timedOut: true })))
    options.signal?.addEventListener("abort", onAbortSignal, { once: true })

    request.send(sendable(options.body))
  })
