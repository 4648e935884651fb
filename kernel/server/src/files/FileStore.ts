/**
 * The `FileStore` kernel service: where server modules keep users' files (identity-verification
 * evidence) by key, outside the database. Two implementations:
 *
 * - `localFileStore(dir)`: a folder. `<dir>/<key>` holds the bytes and `<dir>/<key>.meta.json` the
 *   content type, size and sha256. Every write goes to a temp file in `<dir>/.tmp` (fsynced) and is
 *   renamed into place, so a reader never sees half a file; files are 0600, folders 0700. A read
 *   checks the bytes against the recorded sha256.
 * - `s3FileStore(options)`: an S3-compatible bucket over its REST API (path-style URLs), every
 *   request signed with AWS Signature Version 4 over the body's sha256 (never UNSIGNED-PAYLOAD).
 *
 * Keys are lowercase paths (`kyc/123/edd/passport.jpg`) checked by `isValidFileKey`: a key can never
 * name anything outside the store (no `..`, `.` or empty segment, no leading or trailing `/`).
 */
import { createHash, createHmac, randomUUID } from "node:crypto"
import { mkdir, open, readFile, rename, unlink } from "node:fs/promises"
import { dirname, join, resolve } from "node:path"
import { Context, Duration, Effect, Schema } from "effect"

export interface StoredFile {
  readonly key: string
  readonly contentType: string
  readonly size: number
  /** Lowercase hex sha256 of the bytes. */
  readonly sha256: string
}

export class FileStoreError extends Schema.TaggedError<FileStoreError>()("FileStoreError", { message: Schema.String }) {}

export interface FileStoreShape {
  /** Writes the bytes under `key` (replacing), atomically. */
  readonly put: (key: string, bytes: Uint8Array, contentType: string) => Effect.Effect<StoredFile, FileStoreError>
  /** The file, or undefined when there is none. */
  readonly get: (key: string) => Effect.Effect<{ readonly bytes: Uint8Array; readonly contentType: string } | undefined, FileStoreError>
  readonly remove: (key: string) => Effect.Effect<void, FileStoreError>
}

export class FileStore extends Context.Service<FileStore, FileStoreShape>()("wallet/server/FileStore") {}

// ---------------------------------------------------------------------------------------------
// Keys

const KEY_PATTERN = /^[a-z0-9][a-z0-9/_.-]{0,200}$/
/** `<key>.meta.json` is the local store's metadata file of `<key>`: no key may be one. */
const META_SUFFIX = ".meta.json"

/**
 * Whether `key` is a valid file key: `/^[a-z0-9][a-z0-9/_.-]{0,200}$/`, no trailing `/`, no empty
 * (`a//b`), `.` or `..` segment, and not ending in `.meta.json`.
 */
export const isValidFileKey = (key: string): boolean =>
  KEY_PATTERN.test(key) &&
  !key.endsWith("/") &&
  !key.endsWith(META_SUFFIX) &&
  key.split("/").every((segment) => segment !== "" && segment !== "." && segment !== "..")

const checkKey = (key: string): Effect.Effect<string, FileStoreError> =>
  isValidFileKey(key) ? Effect.succeed(key) : Effect.fail(new FileStoreError({ message: `Invalid file key ${JSON.stringify(key.slice(0, 80))}` }))

/** A content type is sent as a header and stored as is: printable ASCII, no line breaks. */
const CONTENT_TYPE_PATTERN = /^[\x20-\x7e]{1,255}$/
const checkContentType = (contentType: string): Effect.Effect<string, FileStoreError> =>
  CONTENT_TYPE_PATTERN.test(contentType) ? Effect.succeed(contentType) : Effect.fail(new FileStoreError({ message: "Invalid content type" }))

const sha256Hex = (data: Uint8Array | string): string => createHash("sha256").update(data).digest("hex")

const errorCode = (cause: unknown): string | undefined => {
  const code = (cause as { readonly code?: unknown } | null)?.code
  return typeof code === "string" ? code : undefined
}
const causeText = (cause: unknown): string => errorCode(cause) ?? (cause instanceof Error ? cause.message : String(cause))

// ---------------------------------------------------------------------------------------------
// A folder

const Meta = Schema.Struct({ contentType: Schema.String, sha256: Schema.String, size: Schema.Number })
type Meta = typeof Meta.Type
const decodeMeta = Schema.decodeUnknownSync(Meta)

/** A replace in progress is seen as a meta and bytes that do not match: read again a few times. */
const READ_ATTEMPTS = 4
const READ_RETRY_MS = 25

const isMissing = (cause: unknown) => errorCode(cause) === "ENOENT"
const delay = (ms: number) => new Promise<void>((done) => setTimeout(done, ms))

export const localFileStore = (dir: string): FileStoreShape => {
  const root = resolve(dir)
  // Keys start with [a-z0-9]: no key reaches this folder.
  const tempDir = join(root, ".tmp")
  const dataPath = (key: string) => join(root, ...key.split("/"))
  const metaPath = (key: string) => `${dataPath(key)}${META_SUFFIX}`

  const writeAtomic = async (target: string, data: Uint8Array | string) => {
    await mkdir(tempDir, { recursive: true, mode: 0o700 })
    const temp = join(tempDir, randomUUID())
    try {
      const handle = await open(temp, "wx", 0o600)
      try {
        await handle.writeFile(data)
        await handle.sync()
      } finally {
        await handle.close()
      }
      await mkdir(dirname(target), { recursive: true, mode: 0o700 })
      await rename(temp, target)
    } catch (cause) {
      await unlink(temp).catch(() => undefined)
      throw cause
    }
  }

  const readOrUndefined = async (path: string) => {
    try {
      return await readFile(path)
    } catch (cause) {
      if (isMissing(cause)) return undefined
      throw cause
    }
  }

  const failure = (action: string, key: string) => (cause: unknown) => new FileStoreError({ message: `Cannot ${action} file ${key}: ${causeText(cause)}` })

  const put: FileStoreShape["put"] = (key, bytes, contentType) =>
    Effect.gen(function* () {
      yield* checkKey(key)
      yield* checkContentType(contentType)
      const stored: StoredFile = { key, contentType, size: bytes.byteLength, sha256: sha256Hex(bytes) }
      const meta: Meta = { contentType, sha256: stored.sha256, size: stored.size }
      // The meta first: a first write is invisible until its bytes land (a read without bytes is
      // "none"); a replace shows new meta over old bytes for an instant, which `get` reads again.
      yield* Effect.tryPromise({
        try: async () => {
          await writeAtomic(metaPath(key), JSON.stringify(meta))
          await writeAtomic(dataPath(key), bytes)
        },
        catch: failure("write", key),
      })
      return stored
    })

  const get: FileStoreShape["get"] = (key) =>
    Effect.gen(function* () {
      yield* checkKey(key)
      return yield* Effect.tryPromise({
        try: async () => {
          for (let attempt = 1; ; attempt++) {
            const rawMeta = await readOrUndefined(metaPath(key))
            const bytes = await readOrUndefined(dataPath(key))
            if (bytes === undefined) return undefined
            const meta = rawMeta === undefined ? undefined : decodeMeta(JSON.parse(rawMeta.toString("utf8")))
            if (meta !== undefined && meta.sha256 === sha256Hex(bytes)) {
              return { bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength), contentType: meta.contentType }
            }
            if (attempt >= READ_ATTEMPTS) throw new Error(meta === undefined ? "its metadata is missing" : "its bytes do not match the recorded sha256")
            await delay(READ_RETRY_MS)
          }
        },
        catch: failure("read", key),
      })
    })

  const remove: FileStoreShape["remove"] = (key) =>
    Effect.gen(function* () {
      yield* checkKey(key)
      // The bytes first: a read in between finds no file.
      yield* Effect.tryPromise({
        try: async () => {
          for (const path of [dataPath(key), metaPath(key)]) {
            await unlink(path).catch((cause: unknown) => {
              if (!isMissing(cause)) throw cause
            })
          }
        },
        catch: failure("remove", key),
      })
    })

  return { put, get, remove }
}

// ---------------------------------------------------------------------------------------------
// AWS Signature Version 4

export interface AwsV4Credentials {
  readonly accessKeyId: string
  readonly secretAccessKey: string
  readonly region: string
  readonly service: string
}

export interface AwsV4Request {
  readonly method: string
  /** Its path must already be URI-encoded the way the service expects (S3: each segment once). */
  readonly url: string
  /** The headers to sign besides `host`, `x-amz-date` and `x-amz-content-sha256` (added here). */
  readonly headers: Readonly<Record<string, string>>
  /** Lowercase hex sha256 of the body (of "" for none). */
  readonly payloadSha256: string
}

const hmac = (key: Uint8Array | string, data: string) => createHmac("sha256", key).update(data).digest()

/** `20130524T000000Z` */
const amzDate = (date: Date) =>
  date
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}/, "")

/** RFC 3986 encoding of a query component (the canonical query string's names and values). */
const encodeRfc3986 = (text: string) => encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)

const canonicalQuery = (search: URLSearchParams) =>
  [...search.entries()]
    .map(([name, value]) => [encodeRfc3986(name), encodeRfc3986(value)] as const)
    .sort(([a, av], [b, bv]) => (a < b ? -1 : a > b ? 1 : av < bv ? -1 : av > bv ? 1 : 0))
    .map(([name, value]) => `${name}=${value}`)
    .join("&")

/**
 * Signs a request with AWS Signature Version 4 (the `Authorization` header form). Returns the
 * headers to send: the given ones plus `x-amz-date`, `x-amz-content-sha256` and `authorization`
 * (`host` is signed from the URL and left to the HTTP client).
 */
export const signAwsV4 = (request: AwsV4Request, credentials: AwsV4Credentials, date: Date): Record<string, string> => {
  const url = new URL(request.url)
  const stamp = amzDate(date)
  const day = stamp.slice(0, 8)
  const headers: Record<string, string> = {}
  for (const [name, value] of Object.entries(request.headers)) headers[name.toLowerCase()] = value
  headers["x-amz-date"] = stamp
  headers["x-amz-content-sha256"] = request.payloadSha256
  const signing: Record<string, string> = { ...headers, host: url.host }
  const names = Object.keys(signing).sort()
  const canonicalHeaders = names.map((name) => `${name}:${(signing[name] ?? "").trim().replace(/\s+/g, " ")}\n`).join("")
  const signedHeaders = names.join(";")
  const canonicalRequest = [
    request.method.toUpperCase(),
    url.pathname || "/",
    canonicalQuery(url.searchParams),
    canonicalHeaders,
    signedHeaders,
    request.payloadSha256,
  ].join("\n")
  const scope = `${day}/${credentials.region}/${credentials.service}/aws4_request`
  const stringToSign = ["AWS4-HMAC-SHA256", stamp, scope, sha256Hex(canonicalRequest)].join("\n")
  const key = hmac(hmac(hmac(hmac(`AWS4${credentials.secretAccessKey}`, day), credentials.region), credentials.service), "aws4_request")
  const signature = createHmac("sha256", key).update(stringToSign).digest("hex")
  headers.authorization = `AWS4-HMAC-SHA256 Credential=${credentials.accessKeyId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`
  return headers
}

// ---------------------------------------------------------------------------------------------
// An S3-compatible bucket

export interface S3Options {
  /** The service's base URL, e.g. `https://s3.eu-central-1.amazonaws.com` or `http://127.0.0.1:9000`. */
  readonly endpoint: string
  readonly region: string
  readonly bucket: string
  readonly accessKeyId: string
  readonly secretAccessKey: string
  /** Put before every key as is (e.g. `wallet/`). */
  readonly prefix?: string
  readonly fetch?: typeof fetch
  /** The signing clock (tests); default the wall clock. */
  readonly now?: () => Date
}

/** A request that has not answered by then fails (the handler waiting on it must not hang). */
const S3_TIMEOUT_MS = 60_000

/** The S3 error code in an XML error body (`<Code>NoSuchBucket</Code>`), if any. */
const s3ErrorCode = (body: string) => /<Code>([A-Za-z0-9.]{1,64})<\/Code>/.exec(body)?.[1]

export const s3FileStore = (options: S3Options): FileStoreShape => {
  const endpoint = new URL(options.endpoint)
  if (endpoint.protocol !== "https:" && endpoint.protocol !== "http:") throw new Error(`S3 endpoint must be an http(s) URL (got ${endpoint.protocol})`)
  const basePath = endpoint.pathname.replace(/\/+$/, "")
  const prefix = options.prefix ?? ""
  const fetchFn = options.fetch ?? ((input, init) => globalThis.fetch(input, init))
  const now = options.now ?? (() => new Date())
  const credentials: AwsV4Credentials = {
    accessKeyId: options.accessKeyId,
    secretAccessKey: options.secretAccessKey,
    region: options.region,
    service: "s3",
  }
  // S3's canonical URI encodes each segment once; the URL is built from the same encoded path.
  const objectUrl = (key: string) => {
    const path = [options.bucket, ...`${prefix}${key}`.split("/")].map(encodeRfc3986).join("/")
    return `${endpoint.origin}${basePath}/${path}`
  }

  const send = (method: "PUT" | "GET" | "DELETE", key: string, body?: Uint8Array, headers: Readonly<Record<string, string>> = {}) =>
    Effect.tryPromise({
      try: (signal) => {
        const url = objectUrl(key)
        const signed = signAwsV4({ method, url, headers, payloadSha256: sha256Hex(body ?? new Uint8Array()) }, credentials, now())
        return fetchFn(url, { method, headers: signed, signal, ...(body !== undefined ? { body: new Uint8Array(body) } : {}) })
      },
      catch: (cause) => new FileStoreError({ message: `S3 ${method} ${key} failed: ${causeText(cause)}` }),
    }).pipe(
      Effect.timeoutOrElse({
        duration: Duration.millis(S3_TIMEOUT_MS),
        orElse: () => Effect.fail(new FileStoreError({ message: `S3 ${method} ${key} timed out after ${S3_TIMEOUT_MS} ms` })),
      }),
    )

  const refused = (method: string, key: string, response: Response) =>
    Effect.promise(() => response.text().catch(() => "")).pipe(
      Effect.flatMap((text) => {
        const code = s3ErrorCode(text)
        return Effect.fail(new FileStoreError({ message: `S3 ${method} ${key} answered ${response.status}${code !== undefined ? ` (${code})` : ""}` }))
      }),
    )

  const put: FileStoreShape["put"] = (key, bytes, contentType) =>
    Effect.gen(function* () {
      yield* checkKey(key)
      yield* checkContentType(contentType)
      const sha256 = sha256Hex(bytes)
      const response = yield* send("PUT", key, bytes, { "content-type": contentType, "x-amz-meta-sha256": sha256 })
      if (!response.ok) return yield* refused("PUT", key, response)
      yield* Effect.promise(() => response.arrayBuffer().catch(() => undefined))
      return { key, contentType, size: bytes.byteLength, sha256 }
    })

  const get: FileStoreShape["get"] = (key) =>
    Effect.gen(function* () {
      yield* checkKey(key)
      const response = yield* send("GET", key)
      if (response.status === 404) {
        yield* Effect.promise(() => response.arrayBuffer().catch(() => undefined))
        return undefined
      }
      if (!response.ok) return yield* refused("GET", key, response)
      const body = yield* Effect.tryPromise({
        try: () => response.arrayBuffer(),
        catch: (cause) => new FileStoreError({ message: `S3 GET ${key} failed: ${causeText(cause)}` }),
      })
      const bytes = new Uint8Array(body)
      const recorded = response.headers.get("x-amz-meta-sha256")
      if (recorded !== null && recorded !== sha256Hex(bytes)) {
        return yield* Effect.fail(new FileStoreError({ message: `S3 GET ${key}: the bytes do not match the recorded sha256` }))
      }
      return { bytes, contentType: response.headers.get("content-type") ?? "application/octet-stream" }
    })

  const remove: FileStoreShape["remove"] = (key) =>
    Effect.gen(function* () {
      yield* checkKey(key)
      const response = yield* send("DELETE", key)
      if (!response.ok && response.status !== 404) return yield* refused("DELETE", key, response)
      yield* Effect.promise(() => response.arrayBuffer().catch(() => undefined))
    })

  return { put, get, remove }
}
