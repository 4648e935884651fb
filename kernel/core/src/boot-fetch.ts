/**
 * Requests the HTML started before the JavaScript (decision 0010): on a cold start the document's
 * inline boot script sends sign-in, then the first screen's requests with the new access token, while
 * the chunks download. The app then makes the same calls through its usual Session and Http layers;
 * `adoptingFetch` hands each call the answer already on its way when it is the same request (method,
 * URL and Authorization header, once each), and sends anything else to the network. Nothing changes
 * in what the layers check: the adopted response goes through the same parsing, policy and storage.
 */

/** One request of the boot script, as the page keeps it until the app adopts it. */
export interface BootFetch {
  readonly url: string
  readonly method: string
  /** The Authorization header it was sent with ("" for none). */
  readonly authorization: string
  readonly response: Promise<Response>
}

/** Where the boot script leaves its requests (a plain array on `window`, taken once by the app). */
export const BOOT_FETCHES_GLOBAL = "__walletBootFetches"

/** Takes the boot script's requests off `window` (they carry a bearer token: nobody else should find them). */
export const takeBootFetches = (scope: Record<string, unknown> = globalThis as unknown as Record<string, unknown>): Array<BootFetch> => {
  const found = scope[BOOT_FETCHES_GLOBAL]
  delete scope[BOOT_FETCHES_GLOBAL]
  return Array.isArray(found) ? (found as Array<BootFetch>) : []
}

const describe = (input: RequestInfo | URL, init?: RequestInit) => {
  const request = input instanceof Request ? input : undefined
  const url = request ? request.url : String(input instanceof URL ? input.href : input)
  const method = (init?.method ?? request?.method ?? "GET").toUpperCase()
  const headers = new Headers(init?.headers ?? request?.headers)
  return { url, method, authorization: headers.get("authorization") ?? "" }
}

/**
 * A `fetch` that answers a request the boot script already made with that request's response (each
 * once), and sends every other request on to `base`. `forget()` drops what was not adopted, with
 * its tokens (after the first screen's data).
 */
export const adoptingFetch = (
  early: Array<BootFetch>,
  base: typeof globalThis.fetch = (input, init) => globalThis.fetch(input, init),
): { readonly fetch: typeof globalThis.fetch; readonly forget: () => void; readonly adopted: () => number } => {
  let adopted = 0
  return {
    fetch: (input, init) => {
      if (early.length > 0) {
        const wanted = describe(input, init)
        const at = early.findIndex((e) => e.url === wanted.url && e.method === wanted.method && e.authorization === wanted.authorization)
        if (at >= 0) {
          const [hit] = early.splice(at, 1)
          adopted += 1
          return hit!.response
        }
      }
      return base(input, init)
    },
    forget: () => void early.splice(0),
    adopted: () => adopted,
  }
}
