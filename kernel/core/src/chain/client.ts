// The Chain service: a fetch-based, browser-safe client for the tonapi v2 subset. The same code talks
// to tonapi.io in production and to host/devnet locally; only the base URL (and API key) differ.
import { Context, Effect, Layer, Schema } from "effect"
import * as S from "./schemas.ts"

/** Why a chain call failed: transport, an error status from the API, or a body that did not decode. */
export class ChainError extends Schema.TaggedError<ChainError>()("ChainError", {
  reason: Schema.Literals(["Transport", "Status", "Decode", "Unsupported"]),
  message: Schema.String,
  status: Schema.optionalKey(Schema.Number),
  code: Schema.optionalKey(Schema.Number),
}) {}

export interface ChainConfig {
  /** e.g. https://tonapi.io, https://testnet.tonapi.io or http://127.0.0.1:8091 (devnet) */
  readonly baseUrl: string
  /** tonapi key, sent as a bearer token; never logged */
  readonly apiKey?: string
  /** injectable fetch (tests, custom agents); defaults to globalThis.fetch */
  readonly fetch?: typeof globalThis.fetch
  readonly timeoutMs?: number
}

export interface EventsQuery {
  readonly limit: number
  readonly beforeLt?: number
  readonly subjectOnly?: boolean
  readonly initiator?: boolean
}

type E<A> = Effect.Effect<A, ChainError>

export interface ChainShape {
  readonly getAccount: (accountId: string) => E<S.Account>
  readonly getAccounts: (accountIds: ReadonlyArray<string>) => E<ReadonlyArray<S.Account>>
  readonly getRawAccount: (accountId: string) => E<S.BlockchainRawAccount>
  readonly getJettonBalances: (accountId: string, options?: { readonly currencies?: ReadonlyArray<string> }) => E<ReadonlyArray<S.JettonBalance>>
  readonly getJettonBalance: (accountId: string, jettonId: string, options?: { readonly currencies?: ReadonlyArray<string> }) => E<S.JettonBalance>
  readonly getNfts: (
    accountId: string,
    options?: { readonly collection?: string; readonly limit?: number; readonly offset?: number },
  ) => E<ReadonlyArray<S.NftItem>>
  readonly getNft: (address: string) => E<S.NftItem>
  readonly getEvents: (accountId: string, query: EventsQuery) => E<S.AccountEvents>
  readonly getAccountEvent: (accountId: string, eventId: string, options?: { readonly subjectOnly?: boolean }) => E<S.AccountEvent>
  readonly getEvent: (eventId: string) => E<S.Event>
  readonly getTrace: (traceId: string) => E<S.Trace>
  readonly getJettonHistory: (
    accountId: string,
    options: { readonly limit: number; readonly beforeLt?: number; readonly jettonId?: string },
  ) => E<S.JettonOperations>
  readonly getSeqno: (accountId: string) => E<number>
  readonly emulate: (
    boc: string,
    options?: { readonly params?: ReadonlyArray<{ readonly address: string; readonly balance?: bigint }> },
  ) => E<S.MessageConsequences>
  readonly emulateEvent: (boc: string, options?: { readonly ignoreSignatureCheck?: boolean }) => E<S.Event>
  readonly sendBoc: (boc: string) => E<void>
  readonly resolveDns: (domain: string) => E<S.DnsRecord>
  readonly backresolve: (accountId: string) => E<ReadonlyArray<string>>
  readonly runGetMethod: (accountId: string, method: string, args?: ReadonlyArray<string>) => E<S.MethodExecutionResult>
  readonly getRates: (tokens: ReadonlyArray<string>, currencies: ReadonlyArray<string>) => E<Readonly<Record<string, S.TokenRates>>>
  readonly getChart: (
    token: string,
    options?: { readonly currency?: string; readonly startDate?: number; readonly endDate?: number; readonly pointsCount?: number },
  ) => E<ReadonlyArray<readonly [number, number]>>
  readonly getJettonInfo: (jettonId: string) => E<S.JettonInfo>
  readonly getStakingPool: (accountId: string) => E<S.StakingPool>
  readonly gaslessConfig: () => E<S.GaslessConfig>
  readonly gaslessEstimate: (
    jettonMaster: string,
    request: { readonly walletAddress: string; readonly walletPublicKey: string; readonly messages: ReadonlyArray<string> },
  ) => E<S.SignRawParams>
  readonly gaslessSend: (request: {
    readonly walletPublicKey: string
    readonly boc: string
  }) => E<{ readonly protocol_name: string; readonly external?: string }>
}

const enc = encodeURIComponent

/** Builds the client over fetch. Exported for callers that want the shape without a layer. */
export const makeChainClient = (config: ChainConfig): ChainShape => {
  const base = config.baseUrl.replace(/\/+$/, "")
  const doFetch = config.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(input, init))
  const timeoutMs = config.timeoutMs ?? 30_000

  const call = <A, I>(
    schema: Schema.Codec<A, I> | undefined,
    method: "GET" | "POST",
    path: string,
    options: { readonly query?: Record<string, string | number | boolean | ReadonlyArray<string> | undefined>; readonly body?: unknown } = {},
  ): E<A> =>
    Effect.gen(function* () {
      const url = new URL(base + path)
      for (const [k, v] of Object.entries(options.query ?? {})) {
        if (v === undefined) continue
        url.searchParams.set(k, Array.isArray(v) ? v.join(",") : String(v))
      }
      const headers: Record<string, string> = { accept: "application/json" }
      if (config.apiKey) headers.authorization = `Bearer ${config.apiKey}`
      if (options.body !== undefined) headers["content-type"] = "application/json"
      const response = yield* Effect.tryPromise({
        try: (signal) =>
          doFetch(url, {
            method,
            headers,
            signal: typeof AbortSignal.any === "function" ? AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]) : signal,
            ...(options.body !== undefined ? { body: JSON.stringify(options.body, (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v)) } : {}),
          }),
        catch: (e) => new ChainError({ reason: "Transport", message: e instanceof Error ? e.message : "network error" }),
      })
      const text = yield* Effect.tryPromise({
        try: () => response.text(),
        catch: () => new ChainError({ reason: "Transport", message: "failed to read the response body", status: response.status }),
      })
      let json: unknown = undefined
      if (text) {
        try {
          json = JSON.parse(text)
        } catch {
          if (response.ok) return yield* new ChainError({ reason: "Decode", message: "response is not JSON", status: response.status })
        }
      }
      if (!response.ok) {
        const body = Schema.decodeUnknownOption(S.ErrorBody)(json)
        return yield* new ChainError({
          reason: "Status",
          status: response.status,
          message: body._tag === "Some" ? body.value.error : `HTTP ${response.status}`,
          ...(body._tag === "Some" && body.value.error_code !== undefined ? { code: body.value.error_code } : {}),
        })
      }
      if (!schema) return undefined as A
      return yield* Schema.decodeUnknownEffect(schema)(json).pipe(
        Effect.mapError((e) => new ChainError({ reason: "Decode", message: `${method} ${path}: ${e.message}`, status: response.status })),
      )
    })

  return {
    getAccount: (id) => call(S.Account, "GET", `/v2/accounts/${enc(id)}`),
    getAccounts: (ids) => call(S.Accounts, "POST", "/v2/accounts/_bulk", { body: { account_ids: ids } }).pipe(Effect.map((r) => r.accounts)),
    getRawAccount: (id) => call(S.BlockchainRawAccount, "GET", `/v2/blockchain/accounts/${enc(id)}`),
    getJettonBalances: (id, o) =>
      call(S.JettonsBalances, "GET", `/v2/accounts/${enc(id)}/jettons`, { query: { currencies: o?.currencies } }).pipe(Effect.map((r) => r.balances)),
    getJettonBalance: (id, jetton, o) =>
      call(S.JettonBalance, "GET", `/v2/accounts/${enc(id)}/jettons/${enc(jetton)}`, { query: { currencies: o?.currencies } }),
    getNfts: (id, o) =>
      call(S.NftItems, "GET", `/v2/accounts/${enc(id)}/nfts`, { query: { collection: o?.collection, limit: o?.limit, offset: o?.offset } }).pipe(
        Effect.map((r) => r.nft_items),
      ),
    getNft: (address) => call(S.NftItem, "GET", `/v2/nfts/${enc(address)}`),
    getEvents: (id, q) =>
      call(S.AccountEvents, "GET", `/v2/accounts/${enc(id)}/events`, {
        query: { limit: q.limit, before_lt: q.beforeLt, subject_only: q.subjectOnly, initiator: q.initiator },
      }),
    getAccountEvent: (id, eventId, o) =>
      call(S.AccountEvent, "GET", `/v2/accounts/${enc(id)}/events/${enc(eventId)}`, { query: { subject_only: o?.subjectOnly } }),
    getEvent: (eventId) => call(S.Event, "GET", `/v2/events/${enc(eventId)}`),
    getTrace: (traceId) => call(S.Trace, "GET", `/v2/traces/${enc(traceId)}`),
    getJettonHistory: (id, o) =>
      o.jettonId
        ? call(S.JettonOperations, "GET", `/v2/jettons/${enc(o.jettonId)}/accounts/${enc(id)}/history`, { query: { limit: o.limit, before_lt: o.beforeLt } })
        : call(S.JettonOperations, "GET", `/v2/accounts/${enc(id)}/jettons/history`, { query: { limit: o.limit, before_lt: o.beforeLt } }),
    getSeqno: (id) => call(S.Seqno, "GET", `/v2/wallet/${enc(id)}/seqno`).pipe(Effect.map((r) => r.seqno)),
    emulate: (boc, o) => call(S.MessageConsequences, "POST", "/v2/wallet/emulate", { body: { boc, ...(o?.params ? { params: o.params } : {}) } }),
    emulateEvent: (boc, o) => call(S.Event, "POST", "/v2/events/emulate", { body: { boc }, query: { ignore_signature_check: o?.ignoreSignatureCheck } }),
    sendBoc: (boc) => call(undefined, "POST", "/v2/blockchain/message", { body: { boc } }),
    resolveDns: (domain) => call(S.DnsRecord, "GET", `/v2/dns/${enc(domain)}/resolve`),
    backresolve: (id) => call(S.DomainNames, "GET", `/v2/accounts/${enc(id)}/dns/backresolve`).pipe(Effect.map((r) => r.domains)),
    runGetMethod: (id, method, args) => call(S.MethodExecutionResult, "GET", `/v2/blockchain/accounts/${enc(id)}/methods/${enc(method)}`, { query: { args } }),
    getRates: (tokens, currencies) => call(S.Rates, "GET", "/v2/rates", { query: { tokens, currencies } }).pipe(Effect.map((r) => r.rates)),
    getChart: (token, o) =>
      call(S.ChartPoints, "GET", "/v2/rates/chart", {
        query: { token, currency: o?.currency, start_date: o?.startDate, end_date: o?.endDate, points_count: o?.pointsCount },
      }).pipe(Effect.map((r) => r.points)),
    getJettonInfo: (id) => call(S.JettonInfo, "GET", `/v2/jettons/${enc(id)}`),
    getStakingPool: (id) => call(S.StakingPool, "GET", `/v2/staking/pool/${enc(id)}`),
    gaslessConfig: () => call(S.GaslessConfig, "GET", "/v2/gasless/config"),
    gaslessEstimate: (master, r) =>
      call(S.SignRawParams, "POST", `/v2/gasless/estimate/${enc(master)}`, {
        body: { wallet_address: r.walletAddress, wallet_public_key: r.walletPublicKey, messages: r.messages.map((boc) => ({ boc })) },
      }),
    gaslessSend: (r) => call(S.GaslessTx, "POST", "/v2/gasless/send", { body: { wallet_public_key: r.walletPublicKey, boc: r.boc } }),
  }
}

const unsupported = (name: string) => () => Effect.fail(new ChainError({ reason: "Unsupported", message: `${name} is not provided by this test layer` }))

/** The chain API (tonapi v2 subset). `Chain.layer(config)` for real HTTP; `Chain.layerTest(partial)` in tests. */
export class Chain extends Context.Service<Chain, ChainShape>()("wallet/Chain") {
  static readonly layer = (config: ChainConfig): Layer.Layer<Chain> => Layer.succeed(Chain, makeChainClient(config))

  /** Only the given methods answer; the rest fail with reason "Unsupported". */
  static readonly layerTest = (implementation: Partial<ChainShape>): Layer.Layer<Chain> => {
    const names: ReadonlyArray<keyof ChainShape> = [
      "getAccount",
      "getAccounts",
      "getRawAccount",
      "getJettonBalances",
      "getJettonBalance",
      "getNfts",
      "getNft",
      "getEvents",
      "getAccountEvent",
      "getEvent",
      "getTrace",
      "getJettonHistory",
      "getSeqno",
      "emulate",
      "emulateEvent",
      "sendBoc",
      "resolveDns",
      "backresolve",
      "runGetMethod",
      "getRates",
      "getChart",
      "getJettonInfo",
      "getStakingPool",
      "gaslessConfig",
      "gaslessEstimate",
      "gaslessSend",
    ]
    const shape = Object.fromEntries(names.map((n) => [n, implementation[n] ?? unsupported(n)])) as unknown as ChainShape
    return Layer.succeed(Chain, shape)
  }
}
