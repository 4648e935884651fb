/**
 * The wallet-side TonConnect engine: connect (manifest, ton_addr, ton_proof, decline), the bridge
 * listener, sendTransaction / signData / disconnect requests, and disconnects from the wallet.
 * Framework-free: screens drive it through `onRequest` and the approve / reject calls.
 */
import { Address, Cell } from "@ton/core"
import { Buffer } from "buffer"
import type { ChainError, ChainShape, MessageConsequences } from "@wallet/kernel/chain"
import { Effect, Schedule, Schema, Semaphore } from "effect"
import { Base64, CONNECT_EVENT_ERROR_CODES, CONNECT_ITEM_ERROR_CODES, SEND_TRANSACTION_ERROR_CODES as RPC, toHexString } from "@tonconnect/protocol"
import { base64Bytes, utf8 } from "./bytes.ts"
import { type BridgeClient, BridgeError, makeBridgeClient } from "./bridge.ts"
import type { ConnectLink } from "./links.ts"
import { type AppInfo, fetchManifest, ManifestError } from "./manifest.ts"
import { tonProofDigest, signDataDigest } from "./proof.ts"
import {
  AppRequestFromJson,
  BridgeIncomingFromJson,
  type ConnectItemReply,
  type DeviceInfoReply,
  PROTOCOL_VERSION,
  type SignDataPayload,
  SignDataPayloadFromJson,
  type WalletMessage,
} from "./protocol.ts"
import {
  decryptFrom,
  encryptFor,
  type KeyValueStore,
  loadState,
  newSessionKeys,
  saveState,
  type SessionInfo,
  sessionInfo,
  sessionsKey,
  type StoredSession,
  type StoredState,
} from "./session.ts"
import { maxMessagesOf, SignerError, type WalletSigner } from "./signer.ts"
import { buildSignedTransfer, buildUnsignedTransfer, decodeTransaction, RequestError, type RpcErrorCode, type TransactionRequest } from "./transaction.ts"

export interface DeviceInfo {
  readonly platform: "iphone" | "ipad" | "android" | "windows" | "mac" | "linux" | "browser"
  readonly appName: string
  readonly appVersion: string
}

export interface EngineOptions {
  readonly signer: WalletSigner
  readonly storage: KeyValueStore
  /** The bridge the wallet advertises, e.g. `<origin>/bridge`. */
  readonly bridgeUrl: string
  readonly chain: ChainShape
  readonly device: DeviceInfo
  readonly fetch?: typeof globalThis.fetch
  /** Milliseconds since the epoch (tests move it). */
  readonly now?: () => number
  /** A dApp request waiting for the user (a screen shows it, then calls approve… or reject). */
  readonly onRequest?: (request: PendingRequest) => void
  /**
   * A dApp request refused before the user saw it (expired, wrong network or from, too many
   * messages, a bad payload, an unknown method): the dApp got `code`; the wallet may tell the user.
   */
  readonly onRefused?: (refusal: RefusedRequest) => void
  /** Sessions were added or removed (a dApp disconnected, or the wallet did). */
  readonly onSessionsChanged?: (sessions: ReadonlyArray<SessionInfo>) => void
  /** Non-fatal problems (bridge reconnects, undecryptable messages); never carries key material. */
  readonly onProblem?: (message: string) => void
  /** Reconnect delays of the bridge listener. */
  readonly reconnectDelaysMs?: ReadonlyArray<number>
}

export interface ConnectProposal {
  readonly link: ConnectLink
  readonly app: AppInfo
  /** The ton_proof payload when the dApp asked for a proof. */
  readonly proofPayload?: string
  /** Items the wallet does not know (answered with 400). */
  readonly unknownItems: ReadonlyArray<string>
  /** The network the dApp asked for, when it differs from the wallet's. */
  readonly networkMismatch?: string
}

export type PendingRequest =
  | { readonly kind: "sendTransaction"; readonly id: string; readonly session: SessionInfo; readonly request: TransactionRequest }
  | { readonly kind: "signData"; readonly id: string; readonly session: SessionInfo; readonly payload: SignDataPayload }

export interface RefusedRequest {
  readonly id: string
  readonly method: string
  readonly session: SessionInfo
  readonly code: RpcErrorCode
  readonly message: string
}

export interface SignDataResult {
  readonly signature: string
  readonly address: string
  readonly timestamp: number
  readonly domain: string
  readonly payload: SignDataPayload
}

export type ConnectError = ManifestError | BridgeError | SignerError | RequestError

export interface TonConnectEngine {
  /** Fetches and checks the manifest; on failure the dApp is told (error 2 or 3) and the error returned. */
  readonly prepareConnect: (link: ConnectLink) => Effect.Effect<ConnectProposal, ManifestError | RequestError | BridgeError>
  /** Replies with ton_addr (and ton_proof) and keeps the session. */
  readonly approveConnect: (proposal: ConnectProposal) => Effect.Effect<SessionInfo, ConnectError>
  /** Replies "user declined" (300). */
  readonly declineConnect: (proposal: ConnectProposal) => Effect.Effect<void, BridgeError | RequestError>
  readonly sessions: () => Effect.Effect<ReadonlyArray<SessionInfo>>
  /** Tells the dApp and forgets the session. */
  readonly disconnect: (sessionId: string) => Effect.Effect<void>
  readonly disconnectAll: () => Effect.Effect<void>
  /** "What leaves the wallet": the Chain service's emulation of the transfer (unsigned). */
  readonly emulate: (request: PendingRequest & { readonly kind: "sendTransaction" }) => Effect.Effect<MessageConsequences, ChainError>
  /** Signs, sends through the Chain service and replies with the BoC. */
  readonly approveTransaction: (
    request: PendingRequest & { readonly kind: "sendTransaction" },
  ) => Effect.Effect<{ readonly boc: string }, RequestError | SignerError | ChainError>
  readonly approveSignData: (request: PendingRequest & { readonly kind: "signData" }) => Effect.Effect<SignDataResult, RequestError | SignerError>
  /** Replies with an error (default 300, user declined). */
  readonly reject: (request: PendingRequest, code?: RpcErrorCode, message?: string) => Effect.Effect<void, BridgeError>
  /** Opens the bridge listener for the stored sessions (idempotent). */
  readonly start: () => Effect.Effect<void>
  readonly stop: () => void
}

const ALREADY_ANSWERED = "the request was already answered"

const ITEM_NOT_SUPPORTED = { code: CONNECT_ITEM_ERROR_CODES.METHOD_NOT_SUPPORTED, message: "Method not supported" }

export const makeEngine = (options: EngineOptions): TonConnectEngine => {
  const { signer, storage, chain } = options
  const now = options.now ?? (() => Date.now())
  const nowSeconds = () => Math.floor(now() / 1000)
  const onProblem = options.onProblem ?? (() => {})
  const key = sessionsKey(signer.network, signer.address)
  const bridge: BridgeClient = makeBridgeClient({
    url: options.bridgeUrl,
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.reconnectDelaysMs ? { reconnectDelaysMs: options.reconnectDelaysMs } : {}),
  })
  const pendingIds = new Set<string>()

  let state: StoredState | undefined
  let listener: { close(): void; ids: string } | undefined
  let started = false

  const load = Effect.suspend(() =>
    state
      ? Effect.succeed(state)
      : loadState(storage, key).pipe(
          Effect.tap((s) => Effect.sync(() => void (state ??= s))),
          Effect.map(() => state!),
        ),
  )

  // Writes go one at a time and always carry the newest state, so an async store never ends up
  // holding an older state than memory.
  const writes = Semaphore.makeUnsafe(1)
  const update = (f: (s: StoredState) => StoredState): Effect.Effect<StoredState> =>
    Effect.gen(function* () {
      const next = f(yield* load)
      state = next
      yield* writes.withPermit(Effect.suspend(() => saveState(storage, key, state!)))
      return next
    })

  const changed = (before: ReadonlyArray<StoredSession>, after: ReadonlyArray<StoredSession>) =>
    Effect.sync(() => {
      if (before.map((s) => s.id).join() !== after.map((s) => s.id).join()) options.onSessionsChanged?.(after.map(sessionInfo))
    }).pipe(Effect.andThen(restartListener))

  /** Takes the next event id of a session (strictly increasing, persisted before use). */
  const nextEventId = (sessionId: string): Effect.Effect<number | undefined> =>
    Effect.gen(function* () {
      let id: number | undefined
      yield* update((s) => ({
        ...s,
        sessions: s.sessions.map((session) => {
          if (session.id !== sessionId) return session
          id = session.nextEventId
          return { ...session, nextEventId: session.nextEventId + 1 }
        }),
      }))
      return id
    })

  const post = (session: { readonly id: string; readonly secretKey: string }, to: string, message: WalletMessage) =>
    bridge.send(session.id, to, encryptFor(session, to, JSON.stringify(message)))

  const connectError = (clientId: string, code: CONNECT_EVENT_ERROR_CODES, message: string) => {
    // A throwaway session: the dApp learns nothing but the answer.
    const keys = newSessionKeys()
    return post(keys, clientId, { event: "connect_error", id: now(), payload: { code, message } })
  }

  const deviceInfo = (): DeviceInfoReply => ({
    platform: options.device.platform,
    appName: options.device.appName,
    appVersion: options.device.appVersion,
    maxProtocolVersion: PROTOCOL_VERSION,
    features: [
      "SendTransaction",
      { name: "SendTransaction", maxMessages: maxMessagesOf(signer.version), extraCurrencySupported: false },
      { name: "SignData", types: ["text", "binary", "cell"] },
    ],
  })

  const prepareConnect: TonConnectEngine["prepareConnect"] = (link) =>
    Effect.gen(function* () {
      const app = yield* fetchManifest(link.request.manifestUrl, options.fetch ? { fetch: options.fetch } : {}).pipe(
        Effect.tapError((e) => connectError(link.clientId, e.code, e.message).pipe(Effect.ignore)),
      )
      const proof = link.request.items.find((item): item is { name: "ton_proof"; payload: string } => item.name === "ton_proof" && "payload" in item)
      const addr = link.request.items.find((item): item is { name: "ton_addr"; network?: string } => item.name === "ton_addr")
      const unknownItems = link.request.items.filter((item) => item.name !== "ton_addr" && item.name !== "ton_proof").map((item) => item.name)
      const networkMismatch = addr?.network !== undefined && addr.network !== signer.network ? addr.network : undefined
      return {
        link,
        app,
        ...(proof ? { proofPayload: proof.payload } : {}),
        unknownItems,
        ...(networkMismatch !== undefined ? { networkMismatch } : {}),
      } satisfies ConnectProposal
    })

  /** One answer per proposal: a second approve or decline (a double tap) fails without a second session. */
  const answeredProposals = new WeakSet<ConnectProposal>()
  const claimProposal = (proposal: ConnectProposal) =>
    Effect.suspend(() => {
      if (answeredProposals.has(proposal)) return Effect.fail(new RequestError({ code: RPC.UNKNOWN_ERROR, message: ALREADY_ANSWERED }))
      answeredProposals.add(proposal)
      return Effect.void
    })
  /** Transport failures leave the proposal open for a retry; answers and refusals close it. */
  const reopenOn = (proposal: ConnectProposal) => (e: unknown) =>
    Effect.sync(() => {
      const final = e instanceof RequestError || (e instanceof SignerError && e.cancelled) || e instanceof ManifestError
      if (!final) answeredProposals.delete(proposal)
    })

  const approveConnect: TonConnectEngine["approveConnect"] = (proposal) =>
    claimProposal(proposal).pipe(
      Effect.andThen(approveConnectOnce(proposal)),
      Effect.tapError((e) => (e instanceof RequestError && e.message === ALREADY_ANSWERED ? Effect.void : reopenOn(proposal)(e))),
    )

  const approveConnectOnce = (proposal: ConnectProposal): Effect.Effect<SessionInfo, ConnectError> =>
    Effect.gen(function* () {
      if (proposal.networkMismatch !== undefined) {
        const message = `the wallet is on ${signer.network}, the dApp asked for ${proposal.networkMismatch}`
        yield* connectError(proposal.link.clientId, CONNECT_EVENT_ERROR_CODES.BAD_REQUEST_ERROR, message).pipe(Effect.ignore)
        return yield* new RequestError({ code: RPC.BAD_REQUEST_ERROR, message })
      }
      const items: Array<ConnectItemReply> = [
        {
          name: "ton_addr",
          address: signer.address,
          network: signer.network,
          publicKey: toHexString(signer.publicKey),
          walletStateInit: signer.stateInit,
        },
      ]
      if (proposal.proofPayload !== undefined) {
        const timestamp = nowSeconds()
        const digest = yield* Effect.promise(() =>
          tonProofDigest({ address: signer.address, domain: proposal.app.domain, timestamp, payload: proposal.proofPayload! }),
        )
        const signature = yield* signer
          .signRaw(digest)
          .pipe(
            Effect.tapError((e) =>
              e.cancelled
                ? connectError(proposal.link.clientId, CONNECT_EVENT_ERROR_CODES.USER_REJECTS_ERROR, "User declined the connection").pipe(Effect.ignore)
                : Effect.void,
            ),
          )
        items.push({
          name: "ton_proof",
          proof: {
            timestamp,
            domain: { lengthBytes: utf8(proposal.app.domain).length, value: proposal.app.domain },
            payload: proposal.proofPayload,
            signature: Base64.encode(signature),
          },
        })
      }
      // The package types only its two items; any other item is answered "not supported" as the protocol says.
      for (const name of proposal.unknownItems) items.push({ name, error: ITEM_NOT_SUPPORTED } as unknown as ConnectItemReply)
      const keys = newSessionKeys()
      const { app } = proposal
      const session: StoredSession = {
        id: keys.id,
        secretKey: keys.secretKey,
        dappClientId: proposal.link.clientId,
        app: { manifestUrl: app.manifestUrl, url: app.url, name: app.name, iconUrl: app.iconUrl, shortHost: app.shortHost, domain: app.domain },
        nextEventId: 2,
        lastRequestId: -1,
        connectedAt: now(),
      }
      yield* post(session, session.dappClientId, { event: "connect", id: 1, payload: { items, device: deviceInfo() } })
      const before = (yield* load).sessions
      const after = yield* update((s) => ({ ...s, sessions: [...s.sessions, session] }))
      yield* changed(before, after.sessions)
      return sessionInfo(session)
    })

  const declineConnect: TonConnectEngine["declineConnect"] = (proposal) =>
    claimProposal(proposal).pipe(
      Effect.andThen(connectError(proposal.link.clientId, CONNECT_EVENT_ERROR_CODES.USER_REJECTS_ERROR, "User declined the connection")),
      Effect.tapError((e) => (e instanceof RequestError ? Effect.void : reopenOn(proposal)(e))),
    )

  const sessions = () => load.pipe(Effect.map((s) => s.sessions.map(sessionInfo)))

  const removeSession = (sessionId: string) =>
    Effect.gen(function* () {
      const before = (yield* load).sessions
      const after = yield* update((s) => ({ ...s, sessions: s.sessions.filter((session) => session.id !== sessionId) }))
      yield* changed(before, after.sessions)
    })

  const disconnect: TonConnectEngine["disconnect"] = (sessionId) =>
    Effect.gen(function* () {
      const session = (yield* load).sessions.find((s) => s.id === sessionId)
      if (!session) return
      const id = yield* nextEventId(session.id)
      // The session goes even when the bridge is unreachable: the dApp then finds out on its next request.
      yield* post(session, session.dappClientId, { event: "disconnect", id: id ?? session.nextEventId, payload: {} }).pipe(
        Effect.catch((e) => Effect.sync(() => onProblem(`disconnect not delivered: ${e.message}`))),
      )
      yield* removeSession(session.id)
    })

  const disconnectAll = () =>
    Effect.gen(function* () {
      for (const session of (yield* load).sessions) yield* disconnect(session.id)
    })

  const sessionOf = (request: PendingRequest) => load.pipe(Effect.map((s) => s.sessions.find((session) => session.id === request.session.id)))

  const pendingKey = (request: PendingRequest) => `${request.session.id}:${request.id}`

  /** Answers a request; a failed post is retried (a sent transaction must reach the dApp). */
  const reply = (request: PendingRequest, message: WalletMessage) =>
    Effect.gen(function* () {
      const session = yield* sessionOf(request)
      pendingIds.delete(pendingKey(request))
      if (!session) return yield* new BridgeError({ message: "the session is gone (the dApp disconnected)" })
      yield* post(session, session.dappClientId, message).pipe(Effect.retry({ times: 3, schedule: Schedule.spaced("500 millis") }))
    })

  /** One answer per request: a second approve (a double tap) fails without answering again. */
  const claim = (request: PendingRequest) =>
    Effect.suspend(() =>
      pendingIds.delete(pendingKey(request)) ? Effect.void : Effect.fail(new RequestError({ code: RPC.UNKNOWN_ERROR, message: ALREADY_ANSWERED })),
    )
  const unclaim = (request: PendingRequest) => Effect.sync(() => void pendingIds.add(pendingKey(request)))

  const reject: TonConnectEngine["reject"] = (request, code = RPC.USER_REJECTS_ERROR, message = "User declined the request") =>
    reply(request, { error: { code, message }, id: request.id })

  /**
   * Runs an approval once per request. A RequestError, a cancelled signer or a chain refusal (4xx)
   * answers the dApp with its code; other failures (transport, a non-cancel signer problem) leave
   * the request open so the screen can retry or reject.
   */
  const answerFailure = <A, E>(request: PendingRequest, effect: Effect.Effect<A, E>) =>
    claim(request).pipe(
      Effect.andThen(effect),
      Effect.tapError((e) => {
        if (e instanceof RequestError) return e.message === ALREADY_ANSWERED ? Effect.void : reject(request, e.code, e.message).pipe(Effect.ignore)
        if (e instanceof SignerError && e.cancelled) return reject(request).pipe(Effect.ignore)
        if (isChainRefusal(e))
          return reject(request, RPC.UNKNOWN_ERROR, `the chain refused the message: ${(e as { message: string }).message}`).pipe(Effect.ignore)
        return unclaim(request)
      }),
    )

  const walletContext = { address: signer.address, network: signer.network, ...(signer.version ? { version: signer.version } : {}) }

  const transferContext = (request: TransactionRequest) =>
    Effect.gen(function* () {
      const account = yield* chain.getAccount(signer.address)
      const active = account.status === "active"
      const seqno = active ? yield* chain.getSeqno(signer.address) : 0
      return { signer, seqno, deploy: !active, request, nowSeconds: nowSeconds() }
    })

  const emulate: TonConnectEngine["emulate"] = (pending) =>
    Effect.gen(function* () {
      const input = yield* transferContext(pending.request)
      return yield* chain.emulate(yield* buildUnsignedTransfer(input))
    })

  const approveTransaction: TonConnectEngine["approveTransaction"] = (pending) =>
    answerFailure(
      pending,
      Effect.gen(function* () {
        if (pending.request.validUntil !== undefined && pending.request.validUntil <= nowSeconds()) {
          return yield* new RequestError({ code: RPC.BAD_REQUEST_ERROR, message: "the request expired (valid_until has passed)" })
        }
        const input = yield* transferContext(pending.request)
        const { boc } = yield* buildSignedTransfer(input)
        yield* chain.sendBoc(boc)
        // Sent: from here on the request is done even if the dApp cannot be told (it finds the transaction on chain).
        yield* reply(pending, { result: boc, id: pending.id }).pipe(
          Effect.catch((e) => Effect.sync(() => onProblem(`transaction sent, answer not delivered: ${e.message}`))),
        )
        return { boc }
      }),
    )

  const approveSignData: TonConnectEngine["approveSignData"] = (pending) =>
    answerFailure(
      pending,
      Effect.gen(function* () {
        const timestamp = nowSeconds()
        const domain = pending.session.app.domain
        const digest = yield* Effect.tryPromise({
          try: () => signDataDigest({ address: signer.address, domain, timestamp, payload: pending.payload }),
          catch: () => new RequestError({ code: RPC.BAD_REQUEST_ERROR, message: "the data to sign is malformed" }),
        })
        const signature = yield* signer.signRaw(digest)
        const result: SignDataResult = { signature: Base64.encode(signature), address: signer.address, timestamp, domain, payload: pending.payload }
        yield* reply(pending, { result, id: pending.id }).pipe(
          Effect.catch((e) => Effect.sync(() => onProblem(`data signed, answer not delivered: ${e.message}`))),
        )
        return result
      }),
    )

  const checkTarget = (network: string | undefined, from: string | undefined): RequestError | undefined => {
    if (network !== undefined && network !== signer.network) return new RequestError({ code: RPC.BAD_REQUEST_ERROR, message: `wrong network: ${network}` })
    if (from !== undefined && from !== "") {
      let same: boolean
      try {
        // Compared as addresses: raw and friendly forms of one wallet are the same.
        same = addressEquals(from, signer.address)
      } catch {
        return new RequestError({ code: RPC.BAD_REQUEST_ERROR, message: "wrong from: not an address" })
      }
      if (!same) return new RequestError({ code: RPC.BAD_REQUEST_ERROR, message: "wrong from: the request is for another wallet" })
    }
    return undefined
  }

  /** One decrypted bridge message from a session's dApp. */
  const handleRequest = (session: StoredSession, text: string) =>
    Effect.gen(function* () {
      const decoded = Schema.decodeUnknownOption(AppRequestFromJson)(text)
      if (decoded._tag === "None") return onProblem("a dApp message that is not a request was ignored")
      const request = decoded.value
      const id = String(request.id)
      const numericId = Number(id)
      if (Number.isFinite(numericId)) {
        // Checked and recorded in one step: a replay (a reconnect re-delivers) is handled once.
        let fresh = false
        yield* update((s) => ({
          ...s,
          sessions: s.sessions.map((x) => {
            if (x.id !== session.id || numericId <= x.lastRequestId) return x
            fresh = true
            return { ...x, lastRequestId: numericId }
          }),
        }))
        if (!fresh) return
      }
      const info = sessionInfo(session)
      const answer = (message: WalletMessage) => post(session, session.dappClientId, message).pipe(Effect.catch((e) => Effect.sync(() => onProblem(e.message))))
      const fail = (code: RpcErrorCode, message: string) =>
        answer({ error: { code, message }, id }).pipe(
          Effect.tap(() => Effect.sync(() => options.onRefused?.({ id, method: request.method, session: info, code, message }))),
        )
      switch (request.method) {
        case "disconnect": {
          yield* answer({ result: {}, id })
          yield* removeSession(session.id)
          return
        }
        case "sendTransaction": {
          const result = yield* Effect.result(decodeTransaction(request.params[0], walletContext, nowSeconds()))
          if (result._tag === "Failure") return yield* fail(result.failure.code, result.failure.message)
          const pending: PendingRequest = { kind: "sendTransaction", id, session: info, request: result.success }
          return announce(pending)
        }
        case "signData": {
          const payload = Schema.decodeUnknownOption(SignDataPayloadFromJson)(request.params[0])
          if (payload._tag === "None") return yield* fail(RPC.BAD_REQUEST_ERROR, "bad signData payload")
          const problem = checkTarget(payload.value.network, payload.value.from) ?? checkSignDataContent(payload.value)
          if (problem) return yield* fail(problem.code, problem.message)
          return announce({ kind: "signData", id, session: info, payload: payload.value })
        }
        default:
          return yield* fail(RPC.METHOD_NOT_SUPPORTED, `Method not supported: ${request.method}`)
      }
    })

  const announce = (pending: PendingRequest) => {
    pendingIds.add(pendingKey(pending))
    if (options.onRequest) options.onRequest(pending)
    else Effect.runFork(reject(pending, RPC.UNKNOWN_ERROR, "the wallet cannot show requests now").pipe(Effect.ignore))
  }

  const handleEvent = async (data: string, eventId: string | undefined): Promise<void> => {
    await Effect.runPromise(
      Effect.gen(function* () {
        const incoming = Schema.decodeUnknownOption(BridgeIncomingFromJson)(data)
        if (incoming._tag === "Some") {
          const current = yield* load
          const session = current.sessions.find((s) => s.dappClientId === incoming.value.from)
          if (!session) onProblem("a bridge message from an unknown dApp was ignored")
          else {
            const text = decryptFrom(session, incoming.value.from, incoming.value.message)
            if (text === undefined) onProblem("a bridge message that does not decrypt was ignored")
            else yield* handleRequest(session, text)
          }
        }
        if (eventId !== undefined) yield* update((s) => ({ ...s, lastEventId: eventId }))
      }).pipe(Effect.catchCause((cause) => Effect.sync(() => onProblem(`bridge message handling failed: ${String(cause)}`)))),
    )
  }

  const restartListener: Effect.Effect<void> = Effect.gen(function* () {
    if (!started) return
    const current = yield* load
    const ids = current.sessions.map((s) => s.id)
    const joined = ids.join(",")
    if (listener && listener.ids === joined) return
    listener?.close()
    listener = undefined
    if (ids.length === 0) return
    const handle = bridge.listen(ids, current.lastEventId, (event) => handleEvent(event.data, event.id), onProblem)
    listener = { close: () => handle.close(), ids: joined }
  })

  const start = () =>
    Effect.gen(function* () {
      started = true
      yield* restartListener
    })

  const stop = () => {
    started = false
    listener?.close()
    listener = undefined
  }

  return {
    prepareConnect,
    approveConnect,
    declineConnect,
    sessions,
    disconnect,
    disconnectAll,
    emulate,
    approveTransaction,
    approveSignData,
    reject,
    start,
    stop,
  }
}

/** The bytes of a binary payload must be base64 and a cell payload one BoC, before the user sees them. */
const checkSignDataContent = (payload: SignDataPayload): RequestError | undefined => {
  try {
    if (payload.type === "binary") base64Bytes(payload.bytes)
    if (payload.type === "cell" && Cell.fromBoc(Buffer.from(base64Bytes(payload.cell))).length !== 1) throw new Error("not one root")
    return undefined
  } catch {
    return new RequestError({ code: RPC.BAD_REQUEST_ERROR, message: `bad signData payload: the ${payload.type} data does not decode` })
  }
}

const isChainRefusal = (e: unknown): boolean =>
  typeof e === "object" &&
  e !== null &&
  (e as { _tag?: string })._tag === "ChainError" &&
  (e as { reason?: string }).reason === "Status" &&
  ((e as { status?: number }).status ?? 0) >= 400 &&
  ((e as { status?: number }).status ?? 0) < 500

const addressEquals = (a: string, b: string): boolean => Address.parse(a).equals(Address.parse(b))
