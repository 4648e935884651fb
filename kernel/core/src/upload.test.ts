/**
 * uploadFile over a fake XMLHttpRequest: what it sends, its answers (JSON, empty, unparseable,
 * refused), the error classes (network, abort, timeout) and progress.
 */
import { describe, expect, it } from "vitest"
import { HTTP_DEFAULT_TIMEOUT_MS, HttpError } from "./http.ts"
import { uploadFile, type UploadOptions } from "./upload.ts"

type Listener = (event: unknown) => void

class Listeners {
  private readonly byType = new Map<string, Array<Listener>>()
  addEventListener(type: string, listener: Listener) {
    this.byType.set(type, [...(this.byType.get(type) ?? []), listener])
  }
  emit(type: string, event: unknown = {}) {
    for (const listener of this.byType.get(type) ?? []) listener(event)
  }
}

/** Records what the helper does with it; the test plays the network by emitting events. */
class FakeXhr extends Listeners {
  method: string | undefined
  url: string | undefined
  timeout = 0
  readonly headers: Array<[string, string]> = []
  sent: unknown = "nothing"
  aborts = 0
  status = 0
  responseText = ""
  readonly upload = new Listeners()

  open(method: string, url: string) {
    this.method = method
    this.url = url
  }
  setRequestHeader(name: string, value: string) {
    this.headers.push([name, value])
  }
  send(body: unknown) {
    this.sent = body
  }
  abort() {
    this.aborts++
    this.emit("abort")
  }
  respond(status: number, text: string) {
    this.status = status
    this.responseText = text
    this.emit("load")
  }
}

const BODY = new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8])

const start = (options: Partial<UploadOptions> = {}) => {
  const xhr = new FakeXhr()
  const promise = uploadFile(
    { url: "https://api.test/api/kyc/edd/files", body: BODY, contentType: "image/jpeg", ...options },
    () => xhr as unknown as XMLHttpRequest,
  )
  return { xhr, promise }
}

const failure = async (promise: Promise<unknown>): Promise<HttpError> => {
  const error: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(HttpError)
  return error as HttpError
}

describe("uploadFile", () => {
  it("sends the body with its content type, headers and the default timeout, and resolves with the JSON answer", async () => {
    const { xhr, promise } = start({ headers: { "x-request-id": "abcdefgh1234", "Content-Type": "text/plain" } })
    expect(xhr.method).toBe("POST")
    expect(xhr.url).toBe("https://api.test/api/kyc/edd/files")
    expect(xhr.timeout).toBe(HTTP_DEFAULT_TIMEOUT_MS)
    // The option's content type wins over one in `headers`.
    expect(xhr.headers).toEqual([
      ["x-request-id", "abcdefgh1234"],
      ["content-type", "image/jpeg"],
    ])
    expect(xhr.sent).toBe(BODY)
    xhr.respond(201, '{"id":"f1","size":8}')
    expect(await promise).toEqual({ status: 201, body: { id: "f1", size: 8 } })
  })

  it("uses PUT when asked and sends a Blob as is", async () => {
    const blob = new Blob([BODY], { type: "image/png" })
    const { xhr, promise } = start({ method: "PUT", body: blob })
    expect(xhr.method).toBe("PUT")
    expect(xhr.sent).toBe(blob)
    xhr.respond(200, "{}")
    expect(await promise).toEqual({ status: 200, body: {} })
  })

  it("answers null for an empty 2xx body", async () => {
    const { xhr, promise } = start()
    xhr.respond(204, "")
    expect(await promise).toEqual({ status: 204, body: null })
  })

  it("fails with ERR_BAD_RESPONSE on a 2xx body that is not JSON", async () => {
    const { xhr, promise } = start()
    xhr.respond(200, "<html>proxy</html>")
    const error = await failure(promise)
    expect(error).toMatchObject({ code: "ERR_BAD_RESPONSE", message: "Bad response", status: 200 })
  })

  it("fails on 4xx and 5xx like the Http policy: status, class, JSON error body and its server code", async () => {
    const refused = start()
    refused.xhr.respond(413, '{"_tag":"PayloadTooLarge","code":"payload_too_large","limitBytes":10485760}')
    const tooLarge = await failure(refused.promise)
    expect(tooLarge).toMatchObject({ code: "UNKNOWN", message: "Unknown Error: 413", status: 413, statusClass: "client-error" })
    expect(tooLarge.serverCode).toBe("payload_too_large")
    expect(tooLarge.body).toEqual({ _tag: "PayloadTooLarge", code: "payload_too_large", limitBytes: 10485760 })

    const broken = start()
    broken.xhr.respond(502, "Bad Gateway")
    const gateway = await failure(broken.promise)
    expect(gateway).toMatchObject({ code: "UNKNOWN", status: 502, statusClass: "server-error" })
    expect(gateway.body).toBeUndefined()
    expect(gateway.serverCode).toBeUndefined()
  })

  it("fails with ERR_NETWORK 'Network error' when no answer comes", async () => {
    const { xhr, promise } = start()
    xhr.emit("error")
    expect(await failure(promise)).toMatchObject({ code: "ERR_NETWORK", message: "Network error" })

    const blocked = start()
    blocked.xhr.respond(0, "")
    expect(await failure(blocked.promise)).toMatchObject({ code: "ERR_NETWORK", message: "Network error" })
  })

  it("aborts the request with the signal: ECONNABORTED 'Request aborted'", async () => {
    const controller = new AbortController()
    const { xhr, promise } = start({ signal: controller.signal })
    controller.abort()
    const error = await failure(promise)
    expect(error).toMatchObject({ code: "ECONNABORTED", message: "Request aborted" })
    expect(error.timedOut).toBeUndefined()
    expect(xhr.aborts).toBe(1)
  })

  it("sends nothing when the signal is already aborted", async () => {
    const controller = new AbortController()
    controller.abort()
    const { xhr, promise } = start({ signal: controller.signal })
    expect(await failure(promise)).toMatchObject({ code: "ECONNABORTED", message: "Request aborted" })
    expect(xhr.method).toBeUndefined()
    expect(xhr.sent).toBe("nothing")
  })

  it("times out after the given ms: ECONNABORTED with timedOut", async () => {
    const { xhr, promise } = start({ timeoutMs: 5000 })
    expect(xhr.timeout).toBe(5000)
    xhr.emit("timeout")
    const error = await failure(promise)
    expect(error).toMatchObject({ code: "ECONNABORTED", message: "Request timed out after 5000 ms", timedOut: true })
  })

  it("reports upload progress, with the body's size when the browser does not know the total", async () => {
    const seen: Array<[number, number]> = []
    const { xhr, promise } = start({ onProgress: (loaded, total) => seen.push([loaded, total]) })
    xhr.upload.emit("progress", { loaded: 3, total: 8, lengthComputable: true })
    xhr.upload.emit("progress", { loaded: 6, total: 0, lengthComputable: false })
    xhr.upload.emit("progress", { loaded: 8, total: 8, lengthComputable: true })
    xhr.respond(200, '{"ok":true}')
    xhr.upload.emit("progress", { loaded: 8, total: 8, lengthComputable: true })
    await promise
    expect(seen).toEqual([
      [3, 8],
      [6, 8],
      [8, 8],
    ])
  })

  it("settles once: events after the answer change nothing", async () => {
    const { xhr, promise } = start()
    xhr.respond(200, '{"ok":true}')
    xhr.emit("error")
    xhr.emit("timeout")
    expect(await promise).toEqual({ status: 200, body: { ok: true } })
  })
})
