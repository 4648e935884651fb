/**
 * Body limits per route: a module's declared upload route takes bodies up to its own limit (declared
 * or chunked), every other route keeps the server's 1 MiB, and both refuse with the API's 413 naming
 * their limit. The probe's raw routes read the body and keep it in the server's `FileStore`.
 */
import { createHash, randomBytes } from "node:crypto"
import { mkdtemp, readFile, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { FileStore, localFileStore } from "../files/FileStore.ts"
import { defineServerPlugin } from "../plugin.ts"
import { startServer, type RunningServer } from "../server.ts"

const MIB = 1024 * 1024
const UPLOAD_PATH = "/api/upload-probe/file"
const OTHER_PATH = "/api/upload-probe/other"
const UPLOAD_LIMIT = 3 * MIB

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex")

/** Reads the body, keeps it under `probe/<name>` and answers its size and hash (400 when it cannot be read). */
const keep = (name: string) => (request: HttpServerRequest.HttpServerRequest) =>
  Effect.gen(function* () {
    const body = yield* request.arrayBuffer.pipe(Effect.orElseSucceed(() => undefined))
    if (body === undefined) return HttpServerResponse.jsonUnsafe({ _tag: "Unread", code: "unread", message: "The body could not be read" }, { status: 400 })
    const files = yield* FileStore
    const stored = yield* Effect.orDie(files.put(`probe/${name}`, new Uint8Array(body), "application/octet-stream"))
    return HttpServerResponse.jsonUnsafe({ bytes: stored.size, sha256: stored.sha256 })
  })

// Raw routes as a plugin writes them: the handler runs with the context captured when the layer was built.
const probeRoutes = HttpRouter.use((router) =>
  Effect.gen(function* () {
    const context = yield* Effect.context<FileStore>()
    yield* router.add("POST", UPLOAD_PATH, (request) => Effect.provideContext(keep("upload")(request), context))
    yield* router.add("POST", OTHER_PATH, (request) => Effect.provideContext(keep("other")(request), context))
  }),
)

const probePlugin = defineServerPlugin({
  id: "upload-probe",
  handlers: probeRoutes,
  uploads: [{ method: "POST", path: UPLOAD_PATH, maxBytes: UPLOAD_LIMIT }],
})

describe("body limits of upload routes", () => {
  let server: RunningServer
  let filesDir: string

  beforeAll(async () => {
    filesDir = await mkdtemp(join(tmpdir(), "upload-probe-"))
    server = await startServer({
      port: 0,
      database: { kind: "pglite" },
      botToken: "1111111111:test-bot-token",
      plugins: [probePlugin],
      files: localFileStore(filesDir),
    })
  }, 60_000)

  afterAll(async () => {
    await server?.close()
    if (filesDir !== undefined) await rm(filesDir, { recursive: true, force: true })
  })

  const post = async (path: string, body: Uint8Array | ReadableStream<Uint8Array>, method = "POST") => {
    const init = { method, body, headers: { "content-type": "application/octet-stream" }, duplex: "half" } as RequestInit
    const response = await fetch(`${server.url}${path}`, init)
    const text = await response.text()
    return { status: response.status, body: (text === "" ? undefined : JSON.parse(text)) as Record<string, unknown> | undefined }
  }

  /** A body sent without Content-Length (chunked), in 64 KiB pieces. */
  const chunked = (size: number) => {
    let sent = 0
    return new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= size) return controller.close()
        const piece = Math.min(64 * 1024, size - sent)
        sent += piece
        controller.enqueue(new Uint8Array(piece).fill(7))
      },
    })
  }

  it("takes 2 MiB on the declared upload route, and the route keeps it in the FileStore", async () => {
    const bytes = new Uint8Array(randomBytes(2 * MIB))
    const reply = await post(UPLOAD_PATH, bytes)
    expect(reply).toEqual({ status: 200, body: { bytes: 2 * MIB, sha256: sha256(bytes) } })
    expect(sha256(new Uint8Array(await readFile(join(filesDir, "probe", "upload"))))).toBe(sha256(bytes))
    // The query is not part of the route.
    expect((await post(`${UPLOAD_PATH}?attempt=2`, bytes)).status).toBe(200)
  })

  it("keeps 1 MiB on every other route, and for another method on the upload path", async () => {
    const bytes = new Uint8Array(2 * MIB)
    for (const reply of [await post(OTHER_PATH, bytes), await post(UPLOAD_PATH, bytes, "PUT")]) {
      expect(reply.status).toBe(413)
      expect(reply.body).toMatchObject({
        _tag: "PayloadTooLarge",
        code: "payload_too_large",
        message: "The request body is larger than 1 MiB",
        limitBytes: MIB,
      })
    }
    expect((await post(OTHER_PATH, new Uint8Array(1000))).status).toBe(200)
  })

  it("refuses the upload route above its own limit, naming it", async () => {
    const reply = await post(UPLOAD_PATH, new Uint8Array(UPLOAD_LIMIT + 1))
    expect(reply.status).toBe(413)
    expect(reply.body).toMatchObject({
      _tag: "PayloadTooLarge",
      code: "payload_too_large",
      message: "The request body is larger than 3 MiB",
      limitBytes: UPLOAD_LIMIT,
    })
  })

  it("applies the same limits to a body sent without a length", async () => {
    expect(await post(UPLOAD_PATH, chunked(2 * MIB))).toMatchObject({ status: 200, body: { bytes: 2 * MIB } })
    expect((await post(OTHER_PATH, chunked(2 * MIB))).status).not.toBe(200)
    expect((await post(UPLOAD_PATH, chunked(UPLOAD_LIMIT + 64 * 1024))).status).not.toBe(200)
  })
})
