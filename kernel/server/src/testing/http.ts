/** Small fetch helpers for server tests: status plus parsed JSON body. */
export interface Reply {
  readonly status: number
  readonly body: any
}

export const call = async (
  baseUrl: string,
  method: string,
  path: string,
  options: { readonly body?: unknown; readonly rawBody?: string; readonly authorization?: string } = {},
): Promise<Reply> => {
  const headers: Record<string, string> = {}
  if (options.authorization !== undefined) headers.authorization = options.authorization
  let body: string | undefined
  if (options.rawBody !== undefined) body = options.rawBody
  else if (options.body !== undefined) body = JSON.stringify(options.body)
  if (body !== undefined) headers["content-type"] = "application/json"
  const response = await fetch(`${baseUrl}${path}`, { method, headers, ...(body !== undefined ? { body } : {}) })
  const text = await response.text()
  let parsed: unknown = text
  try {
    parsed = text === "" ? undefined : JSON.parse(text)
  } catch {
    // keep the text
  }
  return { status: response.status, body: parsed }
}

export const bearer = (token: string) => `Bearer ${token}`
export const tma = (initData: string) => `tma ${initData}`
