/**
 * Issue #15 cases 3 and 4 (docs/decisions/0205): inputs that crashed handlers, error shapes and
 * strictness, 5xx logging. One dev server with every plugin the default region enables (PGlite in
 * memory; the chain URL points at a closed port, nothing here reaches the chain), signed in as the
 * demo user with balances.
 *
 * The walker reads `/api/openapi.json` and sends every operation, one bad input at a time: a NUL
 * and a lone surrogate in each string field (body, query, path), 2^63 in each id and integer, wrong
 * types, unknown fields, a 2 MB body, a wrong content type, malformed JSON. Each bad input must be
 * refused by the contract (400 naming the field) or at least answered 4xx in the JSON error shape;
 * never a 5xx. Only refused requests are sent, so the demo users' balances must be unchanged.
 */
import { Effect, Schema } from "effect"
import { HttpApi, HttpApiBuilder, HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import { defineServerPlugin, signInitData } from "@wallet/kernel-server"
import { ApiId, validated } from "@wallet/kernel/api"
import { DEV_BOT_TOKEN, startServer, type HostServer } from "../src/index.ts"

// --- a module whose handler breaks (a defect), to see what a 5xx looks like ---------------------

const ProbeGroup = validated(
  HttpApiGroup.make("hardeningProbe").add(
    HttpApiEndpoint.post("crash", "/api/hardening-probe/crash", {
      payload: Schema.Struct({ secret: Schema.String }),
      success: Schema.Struct({ ok: Schema.Boolean }),
    }),
  ),
)
const probePlugin = defineServerPlugin({
  id: "hardening-probe",
  groups: [ProbeGroup],
  handlers: HttpApiBuilder.group(HttpApi.make(ApiId).add(ProbeGroup), "hardeningProbe", (handlers) =>
    handlers.handle("crash", () => Effect.die(new Error("probe: the handler broke on purpose"))),
  ),
})

// --- HTTP helpers --------------------------------------------------------------------------------

interface Reply {
  readonly status: number
  readonly body: any
  readonly text: string
  readonly requestId: string | null
  readonly contentType: string | null
}

let server: HostServer
let token: string

const send = async (
  method: string,
  path: string,
  options: {
    readonly json?: unknown
    readonly raw?: string
    readonly contentType?: string
    readonly auth?: boolean
    readonly headers?: Record<string, string>
  } = {},
): Promise<Reply> => {
  const headers: Record<string, string> = { ...options.headers }
  if (options.auth !== false && token !== undefined) headers.authorization = `Bearer ${token}`
  let body: string | undefined
  if (options.raw !== undefined) body = options.raw
  else if (options.json !== undefined) body = JSON.stringify(options.json)
  if (body !== undefined) headers["content-type"] = options.contentType ?? "application/json"
  const response = await fetch(`${server.url}${path}`, { method, headers, ...(body !== undefined ? { body } : {}) })
  const text = await response.text()
  let parsed: unknown
  try {
    parsed = text === "" ? undefined : JSON.parse(text)
  } catch {
    parsed = undefined
  }
  return { status: response.status, body: parsed, text, requestId: response.headers.get("x-request-id"), contentType: response.headers.get("content-type") }
}

/** The API's error shape: a JSON object with `_tag`, `code` and `message`. */
const isErrorShape = (reply: Reply) =>
  typeof reply.body === "object" &&
  reply.body !== null &&
  typeof reply.body._tag === "string" &&
  typeof reply.body.code === "string" &&
  typeof reply.body.message === "string"

const demoBalancesUser = 700000002
/** Carl: an existing user of the app (the demo transfers' other side), so a transfer to him is otherwise valid. */
const demoReceiver = 700000004

const signIn = async (userId: number): Promise<string> => {
  const launch = await send("POST", "/api/dev/launch", { json: { userId, platform: "ios", theme: "light", language: "en" }, auth: false })
  expect(launch.status).toBe(200)
  const auth = await send("POST", "/api/auth/init", { auth: false, headers: { authorization: `tma ${launch.body.initData}` } })
  expect(auth.status).toBe(200)
  return auth.body.access_token as string
}

/** Every balance and hold of the Ledger, and how many movements there are. */
const ledgerSnapshot = async () => ({
  accounts: await server.sql("select owner, currency, balance::text as balance, held::text as held from ledger_accounts order by owner, currency"),
  movements: await server.sql("select count(*)::int as n from ledger_transactions"),
  transfers: await server.sql("select count(*)::int as n from custody_transfers"),
})

beforeAll(async () => {
  server = await startServer({ port: 0, dataDir: "memory", dev: true, plugins: [probePlugin], chainApiUrl: "http://127.0.0.1:9" })
  token = await signIn(demoBalancesUser)
}, 120_000)

afterAll(async () => {
  await server?.close()
})

// --- the numbered cases --------------------------------------------------------------------------

const TWO_POW_63 = "9223372036854775808"

describe("issue 15 cases 3 and 4", () => {
  it("case 3: a NUL in a transfer comment is a 400, not a 500", async () => {
    const before = await ledgerSnapshot()
    for (const comment of ["thanks\u0000", "lone \ud800 surrogate", "\udc00"]) {
      const reply = await send("POST", "/api/custody/transfers", {
        json: {
          idempotencyKey: `case3-${comment.length}-${comment.charCodeAt(comment.length - 1)}`,
          receiverId: demoReceiver,
          currency: "TON",
          amount: "0.001",
          comment,
        },
      })
      expect(reply.status).toBe(400)
      expect(reply.body).toMatchObject({ _tag: "InvalidRequest", code: "invalid_request" })
      expect(reply.body.issues).toContainEqual({ path: ["payload", "comment"], message: expect.any(String) })
    }
    expect(await ledgerSnapshot()).toEqual(before)
    // Surrogate pairs (emoji) are text like any other.
    const emoji = await send("POST", "/api/visitor-id", { json: { value: "visitor \ud83d\ude00" } })
    expect(emoji.status).toBe(204)
    expect(await server.sql("select visitor_id from kernel_users where id = $1", [demoBalancesUser])).toEqual([{ visitor_id: "visitor \ud83d\ude00" }])
  })

  it("case 3: a transfer id of 2^63 is a 400", async () => {
    const cases: ReadonlyArray<readonly [string, string, string]> = [
      ["GET", `/api/custody/transfers/${TWO_POW_63}`, "transfer_id"],
      ["POST", `/api/custody/transfers/${TWO_POW_63}/approve`, "transfer_id"],
      ["POST", `/api/custody/transfers/${TWO_POW_63}/cancel`, "transfer_id"],
      ["GET", `/api/custody/transactions/${TWO_POW_63}`, "transaction_id"],
      ["GET", `/api/custody/withdrawals/${TWO_POW_63}`, "id"],
      ["GET", `/api/custody/transfers/99999999999999999999`, "transfer_id"],
      ["GET", `/api/custody/withdrawals/0`, "id"],
    ]
    for (const [method, path, param] of cases) {
      const reply = await send(method, path)
      expect(reply.status, `${method} ${path}`).toBe(400)
      expect(reply.body.issues, `${method} ${path}`).toContainEqual({ path: ["params", param], message: expect.any(String) })
    }
    // The largest bigint is a well-formed id: simply not found.
    const largest = await send("GET", "/api/custody/transfers/9223372036854775807")
    expect(largest.status).toBe(404)
    expect(largest.body.code).toBe("transfer_not_found")
  })

  it("case 4: a 2 MB body is a 413 in the JSON error shape", async () => {
    const big = JSON.stringify({ value: "x".repeat(2 * 1024 * 1024) })
    for (const path of ["/api/visitor-id", "/api/custody/transfers", "/api/device-keys/delete"]) {
      const reply = await send("POST", path, { raw: big })
      expect(reply.status, path).toBe(413)
      expect(reply.contentType).toMatch(/^application\/json/)
      expect(reply.body).toMatchObject({ _tag: "PayloadTooLarge", code: "payload_too_large", limitBytes: 1024 * 1024 })
      expect(reply.requestId).toBeTruthy()
    }
    // Without a declared length (chunked) the body is cut off while it is read: the same answer.
    const chunked = await fetch(`${server.url}/api/visitor-id`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: new Blob([big]).stream(),
      duplex: "half",
    } as RequestInit)
    expect(chunked.status).toBe(413)
    expect(await chunked.json()).toMatchObject({ code: "payload_too_large" })
  })

  it("case 4: a wrong content type is a 415 in the JSON error shape, malformed JSON a 400", async () => {
    const wrongType = await send("POST", "/api/visitor-id", { raw: "value=x", contentType: "application/x-www-form-urlencoded" })
    expect(wrongType.status).toBe(415)
    expect(wrongType.body).toMatchObject({ _tag: "UnsupportedMediaType", code: "unsupported_media_type" })
    const text = await send("POST", "/api/visitor-id", { raw: "x", contentType: "text/plain" })
    expect(text.status).toBe(415)
    expect(text.body.code).toBe("unsupported_media_type")
    const malformed = await send("POST", "/api/visitor-id", { raw: '{"value": ' })
    expect(malformed.status).toBe(400)
    expect(malformed.body).toMatchObject({ _tag: "InvalidRequest", code: "invalid_request", issues: [{ path: ["payload"], message: expect.any(String) }] })
  })

  it("case 4: initData with user id 0 opens no session", async () => {
    const sessionsBefore = await server.sql("select count(*)::int as n from kernel_sessions")
    for (const id of [0, -5, 1.5, 2 ** 60]) {
      const initData = signInitData(
        { user: { id, first_name: "Zero" }, authDate: new Date(), queryId: `AAzero${String(id).replace(/\W/g, "")}` },
        DEV_BOT_TOKEN,
      )
      const reply = await send("POST", "/api/auth/init", { auth: false, headers: { authorization: `tma ${initData}` } })
      expect(reply.status, `user id ${id}`).toBe(401)
      expect(reply.body).toMatchObject({ _tag: "Unauthorized", code: "init_data_invalid" })
    }
    const nul = signInitData({ user: { id: 5_000_000_001, first_name: "Nu\u0000l" }, authDate: new Date(), queryId: "AAnulname" }, DEV_BOT_TOKEN)
    const nulReply = await send("POST", "/api/auth/init", { auth: false, headers: { authorization: `tma ${nul}` } })
    expect(nulReply.status).toBe(401)
    expect(nulReply.body.code).toBe("init_data_invalid")
    expect(await server.sql("select count(*)::int as n from kernel_sessions")).toEqual(sessionsBefore)
    expect(await server.sql("select id from kernel_users where id <= 0 or id = 5000000001")).toEqual([])
  })

  it("case 4: unknown body fields are refused where the contract is strict", async () => {
    const spec = (await send("GET", "/api/openapi.json")).body as OpenApi
    const strict = operationsOf(spec).filter((op) => op.body !== undefined && resolve(spec, op.body).additionalProperties === false)
    expect(strict.length).toBeGreaterThanOrEqual(11)
    const failures: Array<string> = []
    for (const op of strict) {
      const body = { ...(sampleOf(spec, op.body!, op, "") as object), walkerUnknownField: 1 }
      const reply = await send(op.method, fillPath(op, {}, spec) + queryOf(spec, op, {}), { json: body, auth: op.bearer })
      const named =
        reply.status === 400 && reply.body?.issues?.some((issue: { path: ReadonlyArray<unknown> }) => samePath(issue.path, ["payload", "walkerUnknownField"]))
      if (!named) failures.push(`${op.id}: ${reply.status} ${reply.text.slice(0, 200)}`)
    }
    expect(failures).toEqual([])
  })

  it("a 5xx answers the JSON error shape with a request id and is logged with its cause, method, path and request id", async () => {
    const lines: Array<string> = []
    const capture = (...args: Array<unknown>) =>
      void lines.push(args.map((arg) => (typeof arg === "string" ? arg : (JSON.stringify(arg) ?? String(arg)))).join(" "))
    const log = vi.spyOn(console, "log").mockImplementation(capture)
    const error = vi.spyOn(console, "error").mockImplementation(capture)
    let reply: Reply
    try {
      reply = await send("POST", "/api/hardening-probe/crash?token=query-secret", {
        json: { secret: "body-secret-1234" },
        headers: { "x-request-id": "walker-req-0001" },
      })
    } finally {
      log.mockRestore()
      error.mockRestore()
    }
    expect(reply.status).toBe(500)
    expect(reply.body).toEqual({ _tag: "InternalError", code: "internal_error", message: expect.any(String), requestId: "walker-req-0001" })
    expect(reply.text).not.toContain("probe: the handler broke")
    expect(reply.requestId).toBe("walker-req-0001")
    const logged = lines.join("\n")
    expect(logged).toContain("probe: the handler broke on purpose")
    expect(logged).toContain("walker-req-0001")
    expect(logged).toContain("/api/hardening-probe/crash")
    expect(logged).toContain("POST")
    // Never the body, the headers or the query.
    expect(logged).not.toContain("body-secret-1234")
    expect(logged).not.toContain(token)
    expect(logged).not.toContain("query-secret")
  })

  it("every answer carries a request id: a safe incoming one is kept, anything else replaced", async () => {
    const kept = await send("GET", "/api/feature-flags", { headers: { "x-request-id": "client-trace-42" } })
    expect(kept.status).toBe(200)
    expect(kept.requestId).toBe("client-trace-42")
    const replaced = await send("GET", "/api/feature-flags", { headers: { "x-request-id": "bad id <script>" } })
    expect(replaced.requestId).toMatch(/^[0-9a-f-]{36}$/)
    const missing = await send("GET", "/api/nowhere")
    expect(missing.status).toBe(404)
    expect(missing.body.code).toBe("not_found")
    expect(missing.requestId).toMatch(/^[0-9a-f-]{36}$/)
    expect((await send("GET", "/bridge/events")).requestId).toBeTruthy()
  })
})

// --- the walker ----------------------------------------------------------------------------------

interface JsonSchema {
  readonly $ref?: string
  readonly type?: string
  readonly enum?: ReadonlyArray<unknown>
  readonly pattern?: string
  readonly properties?: Readonly<Record<string, JsonSchema>>
  readonly additionalProperties?: boolean | JsonSchema
  readonly items?: JsonSchema
  readonly anyOf?: ReadonlyArray<JsonSchema>
  readonly oneOf?: ReadonlyArray<JsonSchema>
  readonly allOf?: ReadonlyArray<JsonSchema>
}
interface OpenApi {
  readonly paths: Record<
    string,
    Record<
      string,
      {
        operationId: string
        parameters?: Array<{ name: string; in: string; schema: JsonSchema }>
        requestBody?: { content: Record<string, { schema: JsonSchema }> }
        security?: Array<Record<string, unknown>>
      }
    >
  >
  readonly components: { readonly schemas: Record<string, JsonSchema> }
}
interface Operation {
  readonly id: string
  readonly method: string
  readonly path: string
  readonly bearer: boolean
  readonly params: ReadonlyArray<{ readonly name: string; readonly in: "path" | "query" | "header"; readonly schema: JsonSchema }>
  readonly body: JsonSchema | undefined
  /** The request body's media types the operation declares. */
  readonly bodyTypes: ReadonlyArray<string>
}

const operationsOf = (spec: OpenApi): ReadonlyArray<Operation> =>
  Object.entries(spec.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({
      id: op.operationId,
      method: method.toUpperCase(),
      path,
      bearer: (op.security ?? []).some((entry) => "bearer" in entry),
      params: (op.parameters ?? []).map((param) => ({ name: param.name, in: param.in as "path" | "query" | "header", schema: param.schema })),
      body: op.requestBody?.content["application/json"]?.schema,
      bodyTypes: Object.keys(op.requestBody?.content ?? {}),
    })),
  )

const resolve = (spec: OpenApi, schema: JsonSchema): JsonSchema => {
  let current = schema
  while (current.$ref !== undefined) current = spec.components.schemas[current.$ref.replace("#/components/schemas/", "")]!
  return current
}

/** The pattern the kernel's `bigIntId` puts in the OpenAPI document. */
const BIGINT_ID_PATTERN = "^[1-9][0-9]{0,18}$"
/** The pattern of `Schema.BigInt` on the wire (minor units). */
const BIGINT_STRING_PATTERN = "^-?\\d+$"
const ADDRESS = `0:${"a".repeat(64)}`

/**
 * A valid value per field name (`operationId.field` first): the OpenAPI document leaves out most
 * patterns, so the walker cannot derive them. A field missing here gets a generic value; with
 * every issue reported the refusal of the mutated field is still seen.
 */
const SAMPLES: Readonly<Record<string, unknown>> = {
  session_id: "00000000-0000-4000-8000-000000000000",
  refresh_token: "walker-refresh-token",
  value: "walker-visitor",
  startParam: "walker",
  userId: demoBalancesUser,
  recipient: "walker@example.com",
  limit: "10",
  fiatCurrency: "USD",
  currency: "TON",
  tokens: "TON,USDT",
  currencies: "USD",
  crypto: "TON",
  fiat: "USD",
  query: "bob",
  idempotencyKey: "walker-key-0001",
  idempotency_key: "walker-key-0002",
  receiverId: demoReceiver,
  amount: "1",
  comment: "walker",
  cursor: "walker-cursor",
  transfer_id: "1",
  transaction_id: "1",
  id: "1",
  address: ADDRESS,
  email: "walker@example.com",
  emailCode: "123456",
  currentEmailCode: "123456",
  newPasscode: "2468",
  passcode: "1357",
  deviceSerial: "walker00-0000-4000-8000-000000000000",
  biometryToken: "walker-biometry-token",
  language: "en",
  name: "send",
  challengeId: "walker-challenge",
  externalId: "walker-external",
  transportPublicKey: "A".repeat(300),
  key: "0".repeat(64),
  iv: "0".repeat(24),
  shard: "rs1.walker",
}
/** Query parameters that are numbers on the wire as strings. */
const NUMERIC_QUERY = new Set(["limit"])

const sampleOf = (spec: OpenApi, raw: JsonSchema, op: Operation, name: string): unknown => {
  const schema = resolve(spec, raw)
  const known = SAMPLES[`${op.id}.${name}`] ?? SAMPLES[name]
  if (known !== undefined) return known
  if (schema.enum !== undefined) return schema.enum[0]
  const union = schema.anyOf ?? schema.oneOf
  if (union !== undefined) return sampleOf(spec, union.find((member) => resolve(spec, member).type !== "null") ?? union[0]!, op, name)
  if (schema.allOf !== undefined) return sampleOf(spec, schema.allOf[0]!, op, name)
  switch (schema.type) {
    case "object": {
      const out: Record<string, unknown> = {}
      for (const [key, value] of Object.entries(schema.properties ?? {})) out[key] = sampleOf(spec, value, op, key)
      if (schema.properties === undefined && typeof schema.additionalProperties === "object")
        out.sample_key = sampleOf(spec, schema.additionalProperties, op, "")
      return out
    }
    case "array":
      return schema.items ? [sampleOf(spec, schema.items, op, name)] : []
    case "integer":
    case "number":
      return 1
    case "boolean":
      return false
    default:
      return schema.pattern === BIGINT_ID_PATTERN ? "1" : "walker"
  }
}

interface Leaf {
  /** Keys from the body root. */
  readonly path: ReadonlyArray<string>
  readonly schema: JsonSchema
  /** A key of an open map (its value's schema is `schema`). */
  readonly mapKey: boolean
}

/** Every field of a sampled body, with its schema. */
const leavesOf = (spec: OpenApi, raw: JsonSchema, value: unknown, path: ReadonlyArray<string>): ReadonlyArray<Leaf> => {
  const schema = resolve(spec, raw)
  const union = schema.anyOf ?? schema.oneOf
  if (union !== undefined) {
    const member = union.find((candidate) => resolve(spec, candidate).type !== "null") ?? union[0]!
    return leavesOf(spec, member, value, path)
  }
  if (typeof value === "object" && value !== null && !Array.isArray(value) && (schema.type === "object" || schema.properties !== undefined)) {
    const own: Array<Leaf> = path.length > 0 ? [{ path, schema, mapKey: false }] : []
    for (const [key, child] of Object.entries(value)) {
      const childSchema = schema.properties?.[key] ?? (typeof schema.additionalProperties === "object" ? schema.additionalProperties : undefined)
      if (childSchema === undefined) continue
      if (schema.properties?.[key] === undefined) own.push({ path: [...path, key], schema: childSchema, mapKey: true })
      own.push(...leavesOf(spec, childSchema, child, [...path, key]))
    }
    return own
  }
  return [{ path, schema, mapKey: false }]
}

const setAt = (root: unknown, path: ReadonlyArray<string>, value: unknown): unknown => {
  if (path.length === 0) return value
  const [head, ...rest] = path
  const object = root as Record<string, unknown>
  return { ...object, [head!]: setAt(object[head!], rest, value) }
}
const renameKey = (root: unknown, path: ReadonlyArray<string>, newKey: string): unknown => {
  const parent = path.slice(0, -1)
  const key = path[path.length - 1]!
  const walk = (node: unknown, rest: ReadonlyArray<string>): unknown => {
    const object = node as Record<string, unknown>
    if (rest.length === 0) {
      const { [key]: moved, ...others } = object
      return { ...others, [newKey]: moved }
    }
    return { ...object, [rest[0]!]: walk(object[rest[0]!], rest.slice(1)) }
  }
  return walk(root, parent)
}

const samePath = (actual: ReadonlyArray<unknown>, expected: ReadonlyArray<unknown>) =>
  actual.length === expected.length && actual.every((segment, index) => String(segment) === String(expected[index]))
const startsWith = (actual: ReadonlyArray<unknown>, prefix: ReadonlyArray<unknown>) =>
  actual.length >= prefix.length && prefix.every((segment, index) => String(actual[index]) === String(segment))

const fillPath = (op: Operation, overrides: Readonly<Record<string, string>>, spec?: OpenApi) =>
  op.path.replace(/\{(\w+)\}/g, (_all, name: string) => {
    if (overrides[name] !== undefined) return overrides[name]!
    const param = op.params.find((candidate) => candidate.name === name)
    return encodeURIComponent(String(spec && param ? sampleOf(spec, param.schema, op, name) : (SAMPLES[name] ?? "1")))
  })
const queryOf = (spec: OpenApi, op: Operation, overrides: Readonly<Record<string, string>>) => {
  const parts = op.params
    .filter((param) => param.in === "query")
    .map((param) => `${param.name}=${overrides[param.name] ?? encodeURIComponent(String(sampleOf(spec, param.schema, op, param.name)))}`)
  return parts.length === 0 ? "" : `?${parts.join("&")}`
}

/** A JSON value of another type than the schema's. */
const wrongTypeFor = (schema: JsonSchema): unknown => {
  switch (schema.type) {
    case "string":
      return 12345
    case "integer":
    case "number":
      return "twelve"
    case "boolean":
      return "yes"
    case "object":
      return "an object"
    case "array":
      return { not: "an array" }
    default:
      return schema.enum !== undefined ? 12345 : []
  }
}

describe("the API walker (every operation of /api/openapi.json)", () => {
  it("refuses every bad input with a 4xx in the JSON error shape, never a 5xx, and moves no money", { timeout: 240_000 }, async () => {
    const spec = (await send("GET", "/api/openapi.json")).body as OpenApi
    const operations = operationsOf(spec).filter((op) => !op.id.startsWith("hardeningProbe."))
    expect(operations.length).toBeGreaterThan(50)
    const before = await ledgerSnapshot()
    const failures: Array<string> = []
    const tasks: Array<() => Promise<void>> = []

    // Queued, then sent four at a time (the requests are independent: each is refused on its own).
    const check = (
      op: Operation,
      label: string,
      expectation: {
        readonly named?: ReadonlyArray<unknown>
        readonly status?: number
        readonly code?: string
        readonly any4xx?: boolean
        readonly okAllowed?: boolean
      },
      request: () => Promise<Reply>,
    ): void => {
      tasks.push(async () => {
        const reply = await request()
        const where = `${op.id} (${op.method} ${op.path}) ${label}`
        if (reply.requestId === null) failures.push(`${where}: no x-request-id`)
        if (reply.status >= 500) return void failures.push(`${where}: ${reply.status} ${reply.text.slice(0, 200)}`)
        if (reply.status < 400) {
          if (!expectation.okAllowed) failures.push(`${where}: accepted (${reply.status})`)
          return
        }
        if (!isErrorShape(reply)) return void failures.push(`${where}: ${reply.status} not in the JSON error shape: ${reply.text.slice(0, 200)}`)
        if (expectation.status !== undefined && reply.status !== expectation.status)
          failures.push(`${where}: ${reply.status} ${reply.body.code}, expected ${expectation.status}`)
        if (expectation.code !== undefined && reply.body.code !== expectation.code)
          failures.push(`${where}: code ${reply.body.code}, expected ${expectation.code}`)
        if (expectation.named !== undefined) {
          const issues: ReadonlyArray<{ path: ReadonlyArray<unknown> }> = reply.body.issues ?? []
          if (reply.status !== 400 || !issues.some((issue) => startsWith(issue.path, expectation.named!))) {
            failures.push(`${where}: expected a 400 naming ${expectation.named.join(".")}, got ${reply.status} ${reply.text.slice(0, 200)}`)
          }
        }
      })
    }

    for (const op of operations) {
      const auth = op.bearer
      const basePath = fillPath(op, {}, spec)
      const baseQuery = queryOf(spec, op, {})
      const hasBody = op.body !== undefined
      const writes = op.method !== "GET"
      const baseBody = hasBody ? sampleOf(spec, op.body!, op, "") : undefined
      const sendBody = (body: unknown, path = basePath + baseQuery) => send(op.method, path, { json: body, auth })
      const sendPlain = (path: string) => send(op.method, path, { auth, ...(hasBody ? { json: baseBody } : {}) })

      // Path and query parameters, one at a time.
      for (const param of op.params) {
        if (param.in === "header") continue // NUL and lone surrogates cannot travel in an HTTP header
        const schema = resolve(spec, param.schema)
        const at = (value: string) =>
          param.in === "path" ? fillPath(op, { [param.name]: value }, spec) + baseQuery : basePath + queryOf(spec, op, { [param.name]: value })
        const slot = param.in === "path" ? "params" : "query"
        const sample = String(sampleOf(spec, param.schema, op, param.name))
        check(op, `NUL in ${slot}.${param.name}`, param.in === "path" ? { any4xx: true } : { named: [slot, param.name] }, () =>
          sendPlain(at(`${encodeURIComponent(sample)}%00`)),
        )
        // A lone surrogate cannot be percent-encoded (invalid UTF-8 decodes to U+FFFD): only reads may run it.
        if (!writes) check(op, `invalid UTF-8 in ${slot}.${param.name}`, { okAllowed: true }, () => sendPlain(at(`${encodeURIComponent(sample)}%ED%A0%80`)))
        if (schema.pattern === BIGINT_ID_PATTERN || schema.type === "integer") {
          check(op, `2^63 in ${slot}.${param.name}`, { named: [slot, param.name] }, () => sendPlain(at(TWO_POW_63)))
          check(op, `0 in ${slot}.${param.name}`, { named: [slot, param.name] }, () => sendPlain(at("0")))
        }
        if (schema.enum !== undefined || NUMERIC_QUERY.has(param.name) || schema.pattern === BIGINT_ID_PATTERN) {
          check(op, `wrong type in ${slot}.${param.name}`, { named: [slot, param.name] }, () => sendPlain(at("not-a-value")))
        }
      }

      if (hasBody) {
        // Field by field.
        for (const leaf of leavesOf(spec, op.body!, baseBody, [])) {
          const named = ["payload", ...leaf.path]
          const current = leaf.path.reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], baseBody)
          const schema = resolve(spec, leaf.schema)
          if (leaf.mapKey) {
            check(op, `NUL in the key ${named.join(".")}`, { named: named.slice(0, -1) }, () => sendBody(renameKey(baseBody, leaf.path, "key\u0000")))
            check(op, `lone surrogate in the key ${named.join(".")}`, { named: named.slice(0, -1) }, () =>
              sendBody(renameKey(baseBody, leaf.path, "key\ud800")),
            )
          }
          if (typeof current === "string") {
            check(op, `NUL in ${named.join(".")}`, { named }, () => sendBody(setAt(baseBody, leaf.path, `${current}\u0000`)))
            check(op, `lone surrogate in ${named.join(".")}`, { named }, () => sendBody(setAt(baseBody, leaf.path, `${current}\ud800`)))
            check(op, `lone low surrogate in ${named.join(".")}`, { named }, () => sendBody(setAt(baseBody, leaf.path, `\udc00${current}`)))
            if (schema.pattern === BIGINT_ID_PATTERN) check(op, `2^63 in ${named.join(".")}`, { named }, () => sendBody(setAt(baseBody, leaf.path, TWO_POW_63)))
            // Integer strings (minor units) are stored in numeric(78,0): 10^80 does not fit.
            if (schema.pattern === BIGINT_STRING_PATTERN)
              check(op, `10^80 in ${named.join(".")}`, { named }, () => sendBody(setAt(baseBody, leaf.path, `1${"0".repeat(80)}`)))
          }
          if (schema.type === "integer" || schema.type === "number") {
            check(op, `2^63 in ${named.join(".")}`, { named }, () => sendBody(setAt(baseBody, leaf.path, 2 ** 63)))
            check(op, `-1 in ${named.join(".")}`, { named }, () => sendBody(setAt(baseBody, leaf.path, -1)))
          }
          if (schema.type === "object" && schema.additionalProperties === false) {
            check(op, `unknown field in ${named.join(".")}`, { named: [...named, "walkerExtra"] }, () =>
              sendBody(setAt(baseBody, [...leaf.path, "walkerExtra"], true)),
            )
          }
          check(op, `wrong type in ${named.join(".")}`, { named }, () => sendBody(setAt(baseBody, leaf.path, wrongTypeFor(schema))))
        }
        // The body as a whole.
        check(op, "unknown top-level field", { named: ["payload", "walkerExtra"] }, () => sendBody({ ...(baseBody as object), walkerExtra: true }))
        check(op, "a body of the wrong type", { named: ["payload"] }, () => sendBody(["not", "an", "object"]))
        check(op, "malformed JSON", { named: ["payload"] }, () => send(op.method, basePath + baseQuery, { raw: '{"unterminated": ', auth }))
        // A type the operation does not read (the analytics gateway reads text/plain: a beacon's type).
        const wrongType = op.bodyTypes.includes("text/plain") ? "application/xml" : "text/plain"
        check(op, "a wrong content type", { status: 415, code: "unsupported_media_type" }, () =>
          send(op.method, basePath + baseQuery, { raw: "plain text", contentType: wrongType, auth }),
        )
      }
      if (writes) {
        // Even an endpoint without a payload refuses a body above the limit instead of reading it.
        // A declared upload route (a file body, decision 0940) has its own, larger limit: 11 MB is above it.
        const upload = op.bodyTypes.includes("application/octet-stream")
        check(op, upload ? "an 11 MB file" : "a 2 MB body", { status: 413, code: "payload_too_large" }, () =>
          upload
            ? send(op.method, basePath + baseQuery, { raw: "x".repeat(11 * 1024 * 1024), contentType: "application/octet-stream", auth })
            : send(op.method, basePath + baseQuery, { raw: JSON.stringify({ walker: "x".repeat(2 * 1024 * 1024) }), auth }),
        )
      }
    }
    // A method the path does not have.
    for (const path of Object.keys(spec.paths)) {
      const op = operationsOf(spec).find((candidate) => candidate.path === path)!
      check(op, "PATCH", { any4xx: true }, () => send("PATCH", fillPath(op, {}, spec), { auth: true }))
    }

    const queue = [...tasks]
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        for (let task = queue.shift(); task !== undefined; task = queue.shift()) await task()
      }),
    )
    expect(failures).toEqual([])
    expect(tasks.length).toBeGreaterThan(500)
    expect(await ledgerSnapshot()).toEqual(before)
  })
})
