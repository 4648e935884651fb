/**
 * Typed clients of the custody contracts, derived with effect's HttpApiClient over the kernel's
 * Http policy (bearer token, retries, 401 refresh). Built once per kernel, on first use.
 */
import { Effect } from "effect"
import type { HttpApiClient } from "effect/http-api"
import { makeApiClient } from "@wallet/kernel/client"
import { clientPerKernel, runEffect, type Kernel } from "@wallet/kernel-react"
import { CustodyApi } from "../../api.ts"
import { CustodyApi as CustodyChainApi } from "../../api.ts"

export type ChainClient = HttpApiClient.ForApi<typeof CustodyChainApi>
export type CustodyClient = HttpApiClient.ForApi<typeof CustodyApi>

/** The on-chain contract's client (addresses, limits, withdrawals). */
export const chainClient: (kernel: Kernel) => Promise<ChainClient> = clientPerKernel(makeApiClient(CustodyChainApi))

/** The custodial contract's client (accounts, receivers, transfers, transactions, notifications). */
export const custodyClient: (kernel: Kernel) => Promise<CustodyClient> = clientPerKernel(makeApiClient(CustodyApi))

/** Runs one call of a typed client; failures come back as values (never thrown). */
export const call = async <A, E>(kernel: Kernel, effect: Effect.Effect<A, E, any>): Promise<{ ok: true; value: A } | { ok: false; error: E | unknown }> => {
  try {
    const exit = await runEffect(kernel, Effect.result(effect))
    return exit._tag === "Success" ? { ok: true, value: exit.success } : { ok: false, error: exit.failure }
  } catch (error) {
    return { ok: false, error }
  }
}

/** A client-made idempotency key (8-64 of [A-Za-z0-9_-]). */
export const idempotencyKey = (): string =>
  typeof crypto !== "undefined" && "randomUUID" in crypto
    ? crypto.randomUUID().replace(/-/g, "")
    : `k${Date.now().toString(36)}${Math.random().toString(36).slice(2, 12)}`

/** The server's error code of a failed call: a tagged contract error's `code`, or the HTTP body's code. */
export const errorCode = (error: unknown): string | undefined => {
  if (error && typeof error === "object") {
    const record = error as { code?: unknown; serverCode?: unknown; body?: { code?: unknown } }
    if (typeof record.code === "string" && record.code !== "UNKNOWN" && !record.code.startsWith("ERR_") && record.code !== "ECONNABORTED") return record.code
    if (typeof record.serverCode === "string") return record.serverCode
    if (typeof record.body?.code === "string") return record.body.code
  }
  return undefined
}

export const errorTag = (error: unknown): string | undefined =>
  error && typeof error === "object" && typeof (error as { _tag?: unknown })._tag === "string" ? (error as { _tag: string })._tag : undefined
