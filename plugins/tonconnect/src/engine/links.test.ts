import { Effect, Exit } from "effect"
import { describe, expect, it } from "vitest"
import { decodeStartParam, encodeStartParam, isConnectLink, MISSING_PARAMS_MESSAGE, parseConnectLink, parseConnectParams } from "./links.ts"

const id = "ab".repeat(32)
const request = { manifestUrl: "https://dapp.example/tonconnect-manifest.json", items: [{ name: "ton_addr" }, { name: "ton_proof", payload: "p-1_x.y" }] }
const query = (params: Record<string, string>) => new URLSearchParams(params).toString()
const parse = (input: string) => Effect.runPromise(parseConnectLink(input))
const failure = async (input: string) => {
  const exit = await Effect.runPromiseExit(parseConnectLink(input))
  if (Exit.isSuccess(exit)) throw new Error("expected a failure")
  const error = exit.cause.reasons[0]
  return (error as { error: { reason: string; message: string; clientId?: string } }).error
}

describe("connect links", () => {
  it("reads a universal link", async () => {
    const link = await parse(`https://wallet.example/ton-connect?${query({ v: "2", id, r: JSON.stringify(request), ret: "none" })}`)
    expect(link).toMatchObject({ version: 2, clientId: id, ret: "none", request })
  })

  it("reads tc:// and keeps a return URL", async () => {
    const link = await parse(`tc://?${query({ v: "2", id: id.toUpperCase(), r: JSON.stringify(request), ret: "https://dapp.example/back" })}`)
    expect(link.clientId).toBe(id)
    expect(link.ret).toEqual({ url: "https://dapp.example/back" })
  })

  it("reads the startapp form with Telegram's character encoding ('.', '-', '_' survive)", async () => {
    const q = query({ v: "2", id, trace_id: "0190-abc_def.1", r: JSON.stringify(request), ret: "back" })
    const startapp = `tonconnect-${encodeStartParam(q)}`
    expect(startapp).toMatch(/^[\w-]+$/)
    expect(decodeStartParam(encodeStartParam(q))).toBe(q)
    for (const input of [startapp, `https://t.me/wallet/start?startapp=${startapp}`]) {
      const link = await parse(input)
      expect(link.request.items[1]).toEqual({ name: "ton_proof", payload: "p-1_x.y" })
      expect(link.traceId).toBe("0190-abc_def.1")
      expect(link.ret).toBe("back")
    }
  })

  it("needs r, v and id, with the spec's message", async () => {
    const cases: Array<Record<string, string>> = [
      { id, r: JSON.stringify(request) },
      { v: "2", r: JSON.stringify(request) },
      { v: "2", id },
      { v: "x", id, r: "{}" },
    ]
    for (const params of cases) {
      const error = await failure(`tc://?${query(params)}`)
      expect(error).toMatchObject({ reason: "MissingParams", message: MISSING_PARAMS_MESSAGE })
    }
    const exit = await Effect.runPromiseExit(parseConnectParams({ v: 2, id: "", r: "{}" }))
    expect(Exit.isFailure(exit)).toBe(true)
  })

  it("refuses a bad client id, another version and a bad request (keeping the client id to answer)", async () => {
    expect(await failure(`tc://?${query({ v: "2", id: "12", r: JSON.stringify(request) })}`)).toMatchObject({ reason: "ClientId" })
    expect(await failure(`tc://?${query({ v: "3", id, r: JSON.stringify(request) })}`)).toMatchObject({ reason: "Version", clientId: id })
    expect(await failure(`tc://?${query({ v: "2", id, r: "{not json" })}`)).toMatchObject({ reason: "Request", clientId: id })
    const noAddr = { manifestUrl: request.manifestUrl, items: [{ name: "ton_proof", payload: "x" }] }
    expect(await failure(`tc://?${query({ v: "2", id, r: JSON.stringify(noAddr) })}`)).toMatchObject({ reason: "Request" })
    const ftp = { manifestUrl: "ftp://dapp.example/m.json", items: [{ name: "ton_addr" }] }
    expect(await failure(`tc://?${query({ v: "2", id, r: JSON.stringify(ftp) })}`)).toMatchObject({ reason: "Request" })
    expect(await failure("hello")).toMatchObject({ reason: "NotALink" })
  })

  it("tells connect links from other scanned text", () => {
    expect(isConnectLink(`tc://?v=2&id=${id}`)).toBe(true)
    expect(isConnectLink("https://t.me/wallet/start?startapp=tonconnect-v__2")).toBe(true)
    expect(isConnectLink(`https://wallet.example/tc?v=2&id=${id}&r=%7B%7D`)).toBe(true)
    expect(isConnectLink("ton://transfer/EQAAA")).toBe(false)
    expect(isConnectLink("https://t.me/wallet/start?startapp=send")).toBe(false)
  })
})
