// Reading requests: query parameters, JSON bodies, BoCs, get-method arguments and stacks,
// simulated network names and amounts; bad input is a 400 (or 404 for an unknown network).
import { Address, beginCell, type Cell, type TupleItem } from "@ton/core"
import { isSimNetwork, type SimNetwork } from "../sim.ts"
import { ApiError, cellHex, parseBoc, tryParseAddress } from "../util.ts"
import type { Query } from "./router.ts"

export const int = (q: Query, name: string, opts: { required?: boolean; min?: number; max?: number } = {}): number | undefined => {
  const v = q.get(name)
  if (v === null || v === "") {
    if (opts.required) throw new ApiError(400, `${name} is required`)
    return undefined
  }
  const n = Number(v)
  if (!Number.isInteger(n)) throw new ApiError(400, `${name} must be an integer`)
  if (opts.min !== undefined && n < opts.min) throw new ApiError(400, `${name} must be >= ${opts.min}`)
  if (opts.max !== undefined && n > opts.max) throw new ApiError(400, `${name} must be <= ${opts.max}`)
  return n
}
export const bool = (q: Query, name: string): boolean => q.get(name) === "true" || q.get(name) === "1"
export const list = (q: Query, name: string): string[] =>
  q
    .getAll(name)
    .flatMap((v) => v.split(","))
    .map((s) => s.trim())
    .filter(Boolean)

export const bodyObj = (b: unknown): Record<string, unknown> => {
  if (!b || typeof b !== "object" || Array.isArray(b)) throw new ApiError(400, "expected a JSON object body")
  return b as Record<string, unknown>
}
export const bodyString = (b: Record<string, unknown>, k: string): string => {
  const v = b[k]
  if (typeof v !== "string" || !v) throw new ApiError(400, `${k} is required`)
  return v
}
export const boc = (s: string): Cell => {
  try {
    return parseBoc(s)
  } catch {
    throw new ApiError(400, "can't decode boc")
  }
}

/** Parses a get-method argument in tonapi's string format. */
export const parseArg = (s: string): TupleItem => {
  if (s === "NaN") return { type: "nan" }
  if (s === "Null") return { type: "null" }
  if (/^-?\d+$/.test(s)) return { type: "int", value: BigInt(s) }
  if (/^0x[0-9a-fA-F]+$/.test(s)) return { type: "int", value: BigInt(s) }
  const a = tryParseAddress(s)
  if (a) return { type: "slice", cell: beginCell().storeAddress(a).endCell() }
  if (/^[0-9a-fA-F]+$/.test(s)) return { type: "slice", cell: parseBoc(s) }
  return { type: "cell", cell: parseBoc(s) }
}
export const parseTypedArg = (a: { type: string; value: string }): TupleItem => {
  switch (a.type) {
    case "nan":
      return { type: "nan" }
    case "null":
      return { type: "null" }
    case "tinyint":
    case "int257":
      return { type: "int", value: BigInt(a.value) }
    case "slice":
      return { type: "slice", cell: beginCell().storeAddress(Address.parse(a.value)).endCell() }
    case "cell_boc_base64":
      return { type: "cell", cell: parseBoc(a.value) }
    case "slice_boc_hex":
      return { type: "slice", cell: parseBoc(a.value) }
    default:
      throw new ApiError(400, `unknown argument type ${a.type}`)
  }
}
export const stackRecord = (t: TupleItem): Record<string, unknown> => {
  switch (t.type) {
    case "int":
      return { type: "num", num: `${t.value < 0n ? "-" : ""}0x${(t.value < 0n ? -t.value : t.value).toString(16)}` }
    case "nan":
      return { type: "nan" }
    case "null":
      return { type: "null" }
    case "tuple":
      return { type: "tuple", tuple: t.items.map(stackRecord) }
    default:
      return { type: "cell", cell: cellHex(t.cell) }
  }
}

export const simNetwork = (s: string): SimNetwork => {
  if (!isSimNetwork(s)) throw new ApiError(404, `no simulated network ${s}`)
  return s
}
export const positiveAmount = (v: unknown, name: string): bigint | undefined => {
  if (v === undefined || v === null) return undefined
  if ((typeof v !== "string" && typeof v !== "number") || !/^[0-9]+$/.test(String(v))) throw new ApiError(400, `${name} must be a non-negative integer`)
  return BigInt(String(v))
}
