/**
 * `uploadWithSession(kernel, options)`: the kernel's upload helper (`uploadFile`) with the session's
 * bearer token, as the kernel's Http policy sends it. A 401 marks the token expired, refreshes it and
 * sends the upload once more; a refused refresh or a second 401 asks the user to authenticate again
 * and fails with the first 401. Unlike JSON calls, an upload is never retried on 429/5xx or a
 * timeout: its body may be large and the caller shows the failure (with a retry button).
 */
import { Effect, Option } from "effect"
import { HttpError, uploadFile, type UploadOptions, type UploadResult } from "@wallet/kernel"
import type { Kernel } from "./context.tsx"
import { runEffect } from "./run.ts"

const is401 = (error: unknown): error is HttpError => error instanceof HttpError && error.status === 401

export const uploadWithSession = async (kernel: Kernel, options: UploadOptions, xhr?: () => XMLHttpRequest): Promise<UploadResult> => {
  const tokens = kernel.session.tokens
  const attempt = async () => {
    const token = await runEffect(kernel, tokens.accessToken)
    if (Option.isNone(token)) return uploadFile(options, xhr)
    // The session's token replaces any the caller set (as the Http policy's `headers.set`).
    const headers: Record<string, string> = {}
    for (const [name, value] of Object.entries(options.headers ?? {})) if (name.toLowerCase() !== "authorization") headers[name] = value
    headers.authorization = `Bearer ${token.value}`
    return uploadFile({ ...options, headers }, xhr)
  }
  try {
    return await attempt()
  } catch (first) {
    if (!is401(first) || options.signal?.aborted === true) throw first
    const refreshed = await runEffect(
      kernel,
      tokens.markExpired.pipe(
        Effect.andThen(tokens.refresh),
        Effect.as(true),
        Effect.catch((refused) => tokens.reauthenticate(refused.reason).pipe(Effect.as(false))),
      ),
    )
    if (!refreshed) throw first
    try {
      return await attempt()
    } catch (second) {
      if (!is401(second)) throw second
      await runEffect(kernel, tokens.reauthenticate("second 401"))
      throw first
    }
  }
}
