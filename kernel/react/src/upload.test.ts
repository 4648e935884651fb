/**
 * uploadWithSession: the session's bearer token on the upload, and the Http policy's 401 handling
 * (mark expired, refresh, one more try; a refused refresh or a second 401 re-authenticates).
 */
import { Effect, Layer, ManagedRuntime, Option } from "effect"
import { describe, expect, it } from "vitest"
import { HttpError, ReauthenticationRequired, type AuthTokens } from "@wallet/kernel"
import type { Kernel } from "./context.tsx"
import { uploadWithSession } from "./upload.ts"

interface State {
  token: string | undefined
  expired: number
  refreshes: number
  refreshFails: boolean
  reauth: Array<string>
}

const kernelWith = (state: State): Kernel => {
  const tokens: AuthTokens["Service"] = {
    accessToken: Effect.sync(() => Option.fromNullishOr(state.token)),
    markExpired: Effect.sync(() => void state.expired++),
    refresh: Effect.suspend(() => {
      state.refreshes++
      if (state.refreshFails) return Effect.fail(new ReauthenticationRequired({ reason: "failed to refresh token" }))
      state.token = `token-${state.refreshes + 1}`
      return Effect.void
    }),
    reauthenticate: (reason) => Effect.sync(() => void state.reauth.push(reason)),
  }
  return { runtime: ManagedRuntime.make(Layer.empty), session: { tokens } } as unknown as Kernel
}

/** A fake XMLHttpRequest per attempt that answers with the next status once sent. */
const scripted = (statuses: Array<number>) => {
  const sent: Array<Record<string, string>> = []
  const xhr = () => {
    const listeners = new Map<string, Array<() => void>>()
    const headers: Record<string, string> = {}
    const fake = {
      status: 0,
      responseText: "",
      timeout: 0,
      upload: { addEventListener: () => undefined },
      open: () => undefined,
      abort: () => undefined,
      setRequestHeader: (name: string, value: string) => void (headers[name] = value),
      addEventListener: (type: string, listener: () => void) => void listeners.set(type, [...(listeners.get(type) ?? []), listener]),
      send: () => {
        sent.push(headers)
        const status = statuses.shift() ?? 200
        fake.status = status
        fake.responseText = status === 401 ? '{"code":"unauthorized"}' : '{"ok":true}'
        queueMicrotask(() => listeners.get("load")?.forEach((listener) => listener()))
      },
    }
    return fake as unknown as XMLHttpRequest
  }
  return { xhr, sent }
}

const options = {
  url: "/api/kyc/edd/files",
  body: new Uint8Array([1, 2, 3]),
  contentType: "image/jpeg",
  headers: { Authorization: "Bearer stale", "x-a": "1" },
}
const fresh = (): State => ({ token: "token-1", expired: 0, refreshes: 0, refreshFails: false, reauth: [] })

describe("uploadWithSession", () => {
  it("sends the session's bearer token in place of the caller's", async () => {
    const state = fresh()
    const { xhr, sent } = scripted([200])
    expect(await uploadWithSession(kernelWith(state), options, xhr)).toEqual({ status: 200, body: { ok: true } })
    expect(sent).toEqual([{ "x-a": "1", authorization: "Bearer token-1", "content-type": "image/jpeg" }])
  })

  it("without a session sends the caller's headers as they are", async () => {
    const state = { ...fresh(), token: undefined }
    const { xhr, sent } = scripted([200])
    await uploadWithSession(kernelWith(state), options, xhr)
    expect(sent[0]).toEqual({ Authorization: "Bearer stale", "x-a": "1", "content-type": "image/jpeg" })
  })

  it("on a 401 refreshes the token and sends once more with the new one", async () => {
    const state = fresh()
    const { xhr, sent } = scripted([401, 200])
    expect(await uploadWithSession(kernelWith(state), options, xhr)).toEqual({ status: 200, body: { ok: true } })
    expect(sent.map((headers) => headers.authorization)).toEqual(["Bearer token-1", "Bearer token-2"])
    expect(state).toMatchObject({ expired: 1, refreshes: 1, reauth: [] })
  })

  it("a second 401 re-authenticates and fails with the first", async () => {
    const state = fresh()
    const { xhr, sent } = scripted([401, 401])
    const error = await uploadWithSession(kernelWith(state), options, xhr).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(HttpError)
    expect(error).toMatchObject({ status: 401 })
    expect(sent).toHaveLength(2)
    expect(state.reauth).toEqual(["second 401"])
  })

  it("a refused refresh re-authenticates without sending again", async () => {
    const state = { ...fresh(), refreshFails: true }
    const { xhr, sent } = scripted([401])
    const error = await uploadWithSession(kernelWith(state), options, xhr).catch((e: unknown) => e)
    expect(error).toMatchObject({ _tag: "HttpError", status: 401 })
    expect(sent).toHaveLength(1)
    expect(state.reauth).toEqual(["failed to refresh token"])
  })

  it("does not refresh on other failures", async () => {
    const state = fresh()
    const { xhr, sent } = scripted([503])
    const error = await uploadWithSession(kernelWith(state), options, xhr).catch((e: unknown) => e)
    expect(error).toMatchObject({ _tag: "HttpError", status: 503 })
    expect(sent).toHaveLength(1)
    expect(state.refreshes).toBe(0)
  })
})
