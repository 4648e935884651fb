/**
 * The dApp manifest: fetched from the connect request's manifestUrl and validated. A manifest that
 * cannot be fetched is error 2 (manifest not found); one that is not a valid manifest is error 3
 * (manifest content error). The connect screen shows its icon, name and short host.
 */
import { Effect, Schema } from "effect"
import { CONNECT_EVENT_ERROR_CODES } from "@tonconnect/protocol"
import { DappManifest } from "./protocol.ts"

export class ManifestError extends Schema.TaggedError<ManifestError>()("ManifestError", {
  code: Schema.Literals([CONNECT_EVENT_ERROR_CODES.MANIFEST_NOT_FOUND_ERROR, CONNECT_EVENT_ERROR_CODES.MANIFEST_CONTENT_ERROR]),
  message: Schema.String,
}) {}

export interface AppInfo {
  readonly manifestUrl: string
  /** The dApp's URL from the manifest. */
  readonly url: string
  readonly name: string
  readonly iconUrl: string
  /** Host without a leading `www.`, for the header. */
  readonly shortHost: string
  /** host[:port] of `url`: the domain ton_proof and signData sign. */
  readonly domain: string
  readonly termsOfUseUrl?: string
  readonly privacyPolicyUrl?: string
}

const httpUrl = (text: string): URL | undefined => {
  try {
    const url = new URL(text)
    return url.protocol === "https:" || url.protocol === "http:" ? url : undefined
  } catch {
    return undefined
  }
}

export const shortHost = (url: string): string => {
  const parsed = httpUrl(url)
  return parsed ? parsed.hostname.replace(/^www\./, "") : url
}

/** Validates a decoded manifest body (error 3 on anything wrong). */
export const validateManifest = (manifestUrl: string, body: unknown): Effect.Effect<AppInfo, ManifestError> =>
  Effect.gen(function* () {
    const manifest = yield* Schema.decodeUnknownEffect(DappManifest)(body).pipe(
      Effect.mapError((e) => new ManifestError({ code: CONNECT_EVENT_ERROR_CODES.MANIFEST_CONTENT_ERROR, message: `manifest content error: ${e.message}` })),
    )
    const url = httpUrl(manifest.url)
    if (!url) return yield* new ManifestError({ code: CONNECT_EVENT_ERROR_CODES.MANIFEST_CONTENT_ERROR, message: "manifest url is not an http(s) URL" })
    const name = manifest.name.trim()
    if (name === "") return yield* new ManifestError({ code: CONNECT_EVENT_ERROR_CODES.MANIFEST_CONTENT_ERROR, message: "manifest name is empty" })
    const icon = httpUrl(manifest.iconUrl) ?? (manifest.iconUrl.startsWith("data:image/") ? new URL(manifest.iconUrl) : undefined)
    if (!icon) return yield* new ManifestError({ code: CONNECT_EVENT_ERROR_CODES.MANIFEST_CONTENT_ERROR, message: "manifest iconUrl is not a URL" })
    const optionalUrl = (value: string | undefined) => (value !== undefined && httpUrl(value) ? value : undefined)
    const terms = optionalUrl(manifest.termsOfUseUrl)
    const privacy = optionalUrl(manifest.privacyPolicyUrl)
    return {
      manifestUrl,
      url: manifest.url,
      name,
      iconUrl: manifest.iconUrl,
      shortHost: url.hostname.replace(/^www\./, ""),
      domain: url.host,
      ...(terms ? { termsOfUseUrl: terms } : {}),
      ...(privacy ? { privacyPolicyUrl: privacy } : {}),
    } satisfies AppInfo
  })

/** Fetches and validates the manifest (error 2 when it cannot be fetched, 3 when its content is wrong). */
export const fetchManifest = (
  manifestUrl: string,
  options: { readonly fetch?: typeof globalThis.fetch; readonly timeoutMs?: number } = {},
): Effect.Effect<AppInfo, ManifestError> =>
  Effect.gen(function* () {
    const doFetch = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(input, init))
    if (!httpUrl(manifestUrl))
      return yield* new ManifestError({ code: CONNECT_EVENT_ERROR_CODES.MANIFEST_NOT_FOUND_ERROR, message: "manifestUrl is not an http(s) URL" })
    const response = yield* Effect.tryPromise({
      try: (signal) =>
        doFetch(manifestUrl, {
          headers: { accept: "application/json" },
          signal: AbortSignal.any([signal, AbortSignal.timeout(options.timeoutMs ?? 10_000)]),
        }),
      catch: (e) =>
        new ManifestError({
          code: CONNECT_EVENT_ERROR_CODES.MANIFEST_NOT_FOUND_ERROR,
          message: `manifest not found: ${e instanceof Error ? e.message : "network error"}`,
        }),
    })
    if (!response.ok)
      return yield* new ManifestError({ code: CONNECT_EVENT_ERROR_CODES.MANIFEST_NOT_FOUND_ERROR, message: `manifest not found: HTTP ${response.status}` })
    const text = yield* Effect.tryPromise({
      try: () => response.text(),
      catch: () => new ManifestError({ code: CONNECT_EVENT_ERROR_CODES.MANIFEST_NOT_FOUND_ERROR, message: "manifest not found: the body could not be read" }),
    })
    let body: unknown
    try {
      body = JSON.parse(text)
    } catch {
      return yield* new ManifestError({ code: CONNECT_EVENT_ERROR_CODES.MANIFEST_CONTENT_ERROR, message: "manifest content error: not JSON" })
    }
    return yield* validateManifest(manifestUrl, body)
  })
