/**
 * Test helpers for the ramp sandbox (not shipped behaviour): widget URLs signed the way the wallet
 * signs them (computed here with node:crypto, independently of the sandbox), form posts, API calls,
 * and the webhooks a receiver got for one transaction.
 */
import { createHash, createHmac } from "node:crypto"
import type { Receiver } from "../testing.ts"
import { DEV_RAMP } from "./config.ts"

/** MoonPay's URL signing: base64 HMAC-SHA256 of the search string (with "?"), appended URL-encoded. */
export const signMoonpayUrl = (base: string, params: Readonly<Record<string, string>>, secret: string = DEV_RAMP.moonpay.secretKey): string => {
  const url = `${base}?${new URLSearchParams(params).toString()}`
  const signature = createHmac("sha256", secret).update(new URL(url).search).digest("base64")
  return `${url}&signature=${encodeURIComponent(signature)}`
}

/** Mercuryo's v1 widget signature: hex SHA-512 of address + secret. */
export const signMercuryoUrl = (base: string, params: Readonly<Record<string, string>>, secret: string = DEV_RAMP.mercuryo.secret): string => {
  const signature = createHash("sha512")
    .update((params["address"] ?? "") + secret)
    .digest("hex")
  return `${base}?${new URLSearchParams({ ...params, signature }).toString()}`
}

export interface PageAnswer {
  readonly status: number
  readonly location: string | null
  readonly text: string
}

const pageAnswer = async (res: Response): Promise<PageAnswer> => ({ status: res.status, location: res.headers.get("location"), text: await res.text() })

export const getPage = async (url: string): Promise<PageAnswer> => pageAnswer(await fetch(url, { redirect: "manual" }))

export const postForm = async (url: string, form: Readonly<Record<string, string>>): Promise<PageAnswer> =>
  pageAnswer(
    await fetch(url, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(form).toString(),
    }),
  )

export interface ApiAnswer {
  readonly status: number
  readonly json: Record<string, unknown> & { data?: unknown }
}

export const api = async (url: string, init: RequestInit = {}): Promise<ApiAnswer> => {
  const res = await fetch(url, init)
  const text = await res.text()
  return { status: res.status, json: (text ? JSON.parse(text) : {}) as ApiAnswer["json"] }
}

export interface Hook {
  readonly headers: Readonly<Record<string, string | string[] | undefined>>
  readonly body: string
  readonly type: string
  readonly status: string
  readonly data: Record<string, unknown>
}

/** What a receiver got for one transaction (MoonPay `data.id` or Mercuryo `payload.data.id`), in arrival order. */
export const hooksFor = (receiver: Receiver, id: string): Hook[] =>
  receiver.received
    .map((r) => {
      const body = r.json as unknown as { type?: string; data?: Record<string, unknown>; payload?: { data?: Record<string, unknown> } }
      const data = body.data ?? body.payload?.data ?? {}
      return { headers: r.headers, body: r.body, type: body.type ?? String(data["status"]), status: String(data["status"]), data }
    })
    .filter((h) => h.data["id"] === id)

/** The path and query of a redirect, parsed. */
export const redirectParams = (location: string | null): URLSearchParams => new URL(location ?? "http://missing/").searchParams

/** Waits until `check` holds (webhooks arrive asynchronously). */
export const eventually = async (check: () => boolean, timeoutMs = 5000): Promise<void> => {
  const until = Date.now() + timeoutMs
  while (!check()) {
    if (Date.now() > until) throw new Error("timed out waiting")
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}
