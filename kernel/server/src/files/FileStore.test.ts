/**
 * FileStore: the local folder (round trip, replace, modes, refused keys, tampered bytes) and the S3
 * store over a scripted `fetch`, its Authorization checked against a SigV4 signature computed here
 * with Web Crypto, and the signer against AWS's published "GET Object" example.
 */
import { createHash } from "node:crypto"
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect } from "effect"
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { FileStoreError, isValidFileKey, localFileStore, s3FileStore, signAwsV4, type FileStoreShape } from "./FileStore.ts"

const run = <A, E>(effect: Effect.Effect<A, E>) => Effect.runPromise(effect)
const failureOf = <A, E>(effect: Effect.Effect<A, E>) => Effect.runPromise(Effect.flip(effect))
const hex = (data: Uint8Array | string) => createHash("sha256").update(data).digest("hex")
const bytesOf = (text: string) => new TextEncoder().encode(text)

const BAD_KEYS = ["", "../x", "/abs", "a//b", "a/../b", "a/./b", "a/", "..", ".hidden", "A/b", "a\\b", "a b", "a%2fb", "x.meta.json", "k/".repeat(101) + "x"]

describe("isValidFileKey", () => {
  it("takes lowercase paths and refuses anything that could leave the folder or collide", () => {
    for (const key of ["a", "kyc/123/edd/passport.jpg", "0/a_b-c.d", "a/b..c/d", "x".repeat(201)]) expect(isValidFileKey(key), key).toBe(true)
    for (const key of [...BAD_KEYS, "x".repeat(202)]) expect(isValidFileKey(key), key).toBe(false)
  })
})

describe("localFileStore", () => {
  let dir: string
  let store: FileStoreShape

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "filestore-test-"))
    store = localFileStore(join(dir, "files"))
  })
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  it("puts, gets and removes a file, with its metadata beside it and private modes", async () => {
    const bytes = bytesOf("passport scan")
    const stored = await run(store.put("kyc/42/passport.jpg", bytes, "image/jpeg"))
    expect(stored).toEqual({ key: "kyc/42/passport.jpg", contentType: "image/jpeg", size: bytes.byteLength, sha256: hex(bytes) })

    const file = await run(store.get("kyc/42/passport.jpg"))
    expect(file?.contentType).toBe("image/jpeg")
    expect(file !== undefined && Buffer.from(file.bytes).equals(Buffer.from(bytes))).toBe(true)

    const path = join(dir, "files", "kyc", "42", "passport.jpg")
    expect(JSON.parse(await readFile(`${path}.meta.json`, "utf8"))).toEqual({ contentType: "image/jpeg", sha256: hex(bytes), size: bytes.byteLength })
    expect((await stat(path)).mode & 0o777).toBe(0o600)
    expect((await stat(`${path}.meta.json`)).mode & 0o777).toBe(0o600)
    expect((await stat(join(dir, "files", "kyc", "42"))).mode & 0o777).toBe(0o700)
    expect((await stat(join(dir, "files"))).mode & 0o777).toBe(0o700)

    await run(store.remove("kyc/42/passport.jpg"))
    expect(await run(store.get("kyc/42/passport.jpg"))).toBeUndefined()
    await expect(stat(path)).rejects.toThrow()
    await expect(stat(`${path}.meta.json`)).rejects.toThrow()
    // Removing what is not there is fine.
    await run(store.remove("kyc/42/passport.jpg"))
  })

  it("answers undefined for a key never written", async () => {
    expect(await run(store.get("nothing/here"))).toBeUndefined()
  })

  it("replaces a file whole and leaves no temp files", async () => {
    await run(store.put("a/b", bytesOf("first version, longer"), "text/plain"))
    const second = await run(store.put("a/b", bytesOf("second"), "application/pdf"))
    expect(second.size).toBe(6)
    const file = await run(store.get("a/b"))
    expect(file !== undefined && new TextDecoder().decode(file.bytes)).toBe("second")
    expect(file?.contentType).toBe("application/pdf")
    expect(await readdir(join(dir, "files", ".tmp"))).toEqual([])
  })

  it("refuses bad keys for every operation and writes nothing", async () => {
    for (const key of BAD_KEYS) {
      expect(await failureOf(store.put(key, bytesOf("x"), "text/plain")), key).toBeInstanceOf(FileStoreError)
      expect(await failureOf(store.get(key)), key).toBeInstanceOf(FileStoreError)
      expect(await failureOf(store.remove(key)), key).toBeInstanceOf(FileStoreError)
    }
    expect(await readdir(dir)).toEqual([])
  })

  it("refuses a content type that is not one header line", async () => {
    const error = await failureOf(store.put("a", bytesOf("x"), "text/plain\r\nx-evil: 1"))
    expect(error).toMatchObject({ _tag: "FileStoreError", message: "Invalid content type" })
  })

  it("fails on bytes that do not match their recorded sha256", async () => {
    await run(store.put("a", bytesOf("original"), "text/plain"))
    await writeFile(join(dir, "files", "a"), "tampered")
    const error = await failureOf(store.get("a"))
    expect(error._tag).toBe("FileStoreError")
    expect(error.message).toContain("sha256")
  })

  it("fails, not throws, when a key's folder is a file", async () => {
    await run(store.put("a", bytesOf("x"), "text/plain"))
    const error = await failureOf(store.put("a/b", bytesOf("y"), "text/plain"))
    expect(error._tag).toBe("FileStoreError")
  })
})

// ---------------------------------------------------------------------------------------------
// SigV4 computed independently, from the definition, with Web Crypto.

const subtle = globalThis.crypto.subtle
const toHex = (buffer: ArrayBuffer) => [...new Uint8Array(buffer)].map((b) => b.toString(16).padStart(2, "0")).join("")
const sha256 = async (data: Uint8Array | string) => toHex(await subtle.digest("SHA-256", typeof data === "string" ? bytesOf(data) : new Uint8Array(data)))
const hmacSha256 = async (key: ArrayBuffer | Uint8Array, data: string): Promise<ArrayBuffer> => {
  const imported = await subtle.importKey("raw", key instanceof Uint8Array ? new Uint8Array(key) : key, { name: "HMAC", hash: "SHA-256" }, false, ["sign"])
  return subtle.sign("HMAC", imported, bytesOf(data))
}

interface Expected {
  readonly method: string
  readonly host: string
  readonly path: string
  /** Lowercase names; `host` is added. */
  readonly headers: Record<string, string>
  readonly payloadHash: string
  readonly amzDate: string
  readonly accessKeyId: string
  readonly secret: string
  readonly region: string
}

const expectedAuthorization = async (e: Expected) => {
  const all: Record<string, string> = { ...e.headers, host: e.host }
  const names = Object.keys(all).sort()
  const canonical = `${e.method}\n${e.path}\n\n${names.map((n) => `${n}:${all[n]}\n`).join("")}\n${names.join(";")}\n${e.payloadHash}`
  const day = e.amzDate.slice(0, 8)
  const scope = `${day}/${e.region}/s3/aws4_request`
  const toSign = `AWS4-HMAC-SHA256\n${e.amzDate}\n${scope}\n${await sha256(canonical)}`
  let key = await hmacSha256(bytesOf(`AWS4${e.secret}`), day)
  for (const part of [e.region, "s3", "aws4_request"]) key = await hmacSha256(key, part)
  const signature = toHex(await hmacSha256(key, toSign))
  return `AWS4-HMAC-SHA256 Credential=${e.accessKeyId}/${scope}, SignedHeaders=${names.join(";")}, Signature=${signature}`
}

describe("signAwsV4", () => {
  it("reproduces AWS's published GET Object example (Signature Version 4 docs)", () => {
    const headers = signAwsV4(
      { method: "GET", url: "https://examplebucket.s3.amazonaws.com/test.txt", headers: { Range: "bytes=0-9" }, payloadSha256: hex("") },
      { accessKeyId: "AKIAIOSFODNN7EXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", region: "us-east-1", service: "s3" },
      new Date(Date.UTC(2013, 4, 24, 0, 0, 0)),
    )
    expect(headers).toEqual({
      range: "bytes=0-9",
      "x-amz-date": "20130524T000000Z",
      "x-amz-content-sha256": "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
      authorization:
        "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41",
    })
  })
})

describe("s3FileStore", () => {
  interface Sent {
    readonly url: string
    readonly method: string
    readonly headers: Record<string, string>
    readonly body: Uint8Array | undefined
  }
  const NOW = new Date(Date.UTC(2026, 2, 14, 9, 30, 5))
  const AMZ_DATE = "20260314T093005Z"
  const credentials = { accessKeyId: "AKIDTEST", secretAccessKey: "test/secret+key", region: "eu-central-1" }

  const fakeS3 = (answer: (sent: Sent) => Response) => {
    const sent: Array<Sent> = []
    const fetch: typeof globalThis.fetch = async (input, init) => {
      const headers: Record<string, string> = {}
      new Headers(init?.headers).forEach((value, name) => {
        headers[name] = value
      })
      const body = init?.body instanceof Uint8Array ? new Uint8Array(init.body) : undefined
      const request: Sent = { url: String(input), method: init?.method ?? "GET", headers, body }
      sent.push(request)
      return answer(request)
    }
    const store = s3FileStore({ endpoint: "https://s3.example.test:9000/", bucket: "evidence", prefix: "wallet/", ...credentials, fetch, now: () => NOW })
    return { store, sent }
  }

  const authorizationFor = (method: string, path: string, headers: Record<string, string>, payloadHash: string) =>
    expectedAuthorization({
      method,
      host: "s3.example.test:9000",
      path,
      headers,
      payloadHash,
      amzDate: AMZ_DATE,
      accessKeyId: credentials.accessKeyId,
      secret: credentials.secretAccessKey,
      region: credentials.region,
    })

  it("PUTs path-style with the body's sha256 signed, the content type and the sha256 as metadata", async () => {
    const { store, sent } = fakeS3(() => new Response(null, { status: 200 }))
    const bytes = bytesOf("selfie bytes")
    const stored = await run(store.put("kyc/7/selfie.jpg", bytes, "image/jpeg"))
    const digest = hex(bytes)
    expect(stored).toEqual({ key: "kyc/7/selfie.jpg", contentType: "image/jpeg", size: bytes.byteLength, sha256: digest })
    expect(sent).toHaveLength(1)
    const request = sent[0]!
    expect(request.url).toBe("https://s3.example.test:9000/evidence/wallet/kyc/7/selfie.jpg")
    expect(request.method).toBe("PUT")
    expect(request.body !== undefined && Buffer.from(request.body).equals(Buffer.from(bytes))).toBe(true)
    const signed = { "content-type": "image/jpeg", "x-amz-meta-sha256": digest, "x-amz-content-sha256": digest, "x-amz-date": AMZ_DATE }
    expect(request.headers).toEqual({
      ...signed,
      authorization: await authorizationFor("PUT", "/evidence/wallet/kyc/7/selfie.jpg", signed, digest),
    })
    expect(request.headers.authorization).toContain("SignedHeaders=content-type;host;x-amz-content-sha256;x-amz-date;x-amz-meta-sha256,")
    expect(request.headers["x-amz-content-sha256"]).not.toBe("UNSIGNED-PAYLOAD")
  })

  it("GETs a file with its content type; a 404 is no file", async () => {
    const bytes = bytesOf("document")
    const { store, sent } = fakeS3((request) =>
      request.url.endsWith("/missing")
        ? new Response("<Error><Code>NoSuchKey</Code></Error>", { status: 404 })
        : new Response(new Uint8Array(bytes), { status: 200, headers: { "content-type": "application/pdf", "x-amz-meta-sha256": hex(bytes) } }),
    )
    const file = await run(store.get("kyc/7/doc.pdf"))
    expect(file?.contentType).toBe("application/pdf")
    expect(file !== undefined && new TextDecoder().decode(file.bytes)).toBe("document")
    const request = sent[0]!
    expect(request.url).toBe("https://s3.example.test:9000/evidence/wallet/kyc/7/doc.pdf")
    expect(request.method).toBe("GET")
    expect(request.body).toBeUndefined()
    const empty = hex("")
    const signed = { "x-amz-content-sha256": empty, "x-amz-date": AMZ_DATE }
    expect(request.headers).toEqual({ ...signed, authorization: await authorizationFor("GET", "/evidence/wallet/kyc/7/doc.pdf", signed, empty) })

    expect(await run(store.get("missing"))).toBeUndefined()
  })

  it("fails on bytes that do not match the object's recorded sha256", async () => {
    const { store } = fakeS3(() => new Response("changed", { status: 200, headers: { "x-amz-meta-sha256": hex("original") } }))
    expect((await failureOf(store.get("a"))).message).toContain("sha256")
  })

  it("DELETEs signed over the empty body; a refusal is a FileStoreError naming the status and S3 code", async () => {
    const { store, sent } = fakeS3((request) =>
      request.method === "DELETE" ? new Response(null, { status: 204 }) : new Response("<Error><Code>AccessDenied</Code></Error>", { status: 403 }),
    )
    await run(store.remove("kyc/7/selfie.jpg"))
    const request = sent[0]!
    expect(request.method).toBe("DELETE")
    expect(request.url).toBe("https://s3.example.test:9000/evidence/wallet/kyc/7/selfie.jpg")
    const signed = { "x-amz-content-sha256": hex(""), "x-amz-date": AMZ_DATE }
    expect(request.headers.authorization).toBe(await authorizationFor("DELETE", "/evidence/wallet/kyc/7/selfie.jpg", signed, hex("")))

    const error = await failureOf(store.put("a", bytesOf("x"), "text/plain"))
    expect(error).toMatchObject({ _tag: "FileStoreError", message: "S3 PUT a answered 403 (AccessDenied)" })
    expect((await failureOf(store.get("a"))).message).toBe("S3 GET a answered 403 (AccessDenied)")
  })

  it("refuses bad keys without a request, and turns a network failure into a FileStoreError", async () => {
    const { store, sent } = fakeS3(() => {
      throw new TypeError("fetch failed")
    })
    for (const key of BAD_KEYS) expect(await failureOf(store.get(key)), key).toBeInstanceOf(FileStoreError)
    expect(sent).toHaveLength(0)
    expect(await failureOf(store.get("a"))).toMatchObject({ _tag: "FileStoreError", message: "S3 GET a failed: fetch failed" })
  })
})
