// The devnet's files under its data dir: the chain snapshot (`chain.json`), the metadata
// (`meta.json`), both written atomically, and the indexed traces appended one per line (`traces.jsonl`).
import fs from "node:fs"
import path from "node:path"
import { type Blockchain, snapshotFromSerializable, snapshotToSerializable } from "@ton/sandbox"
import type { TraceRecord } from "../model.ts"
import type { Meta } from "./catalog.ts"

type SerializableSnapshot = Parameters<typeof snapshotFromSerializable>[0]

/** Loads a saved chain into `bc` and returns its metadata, or undefined when the folder holds none. */
export const loadState = async (dataDir: string | undefined, bc: Blockchain): Promise<Meta | undefined> => {
  const metaFile = dataDir ? path.join(dataDir, "meta.json") : undefined
  if (!metaFile || !fs.existsSync(metaFile)) return undefined
  const meta = JSON.parse(fs.readFileSync(metaFile, "utf8")) as Meta
  const snap = JSON.parse(fs.readFileSync(path.join(dataDir!, "chain.json"), "utf8")) as SerializableSnapshot
  await bc.loadFrom(snapshotFromSerializable(snap))
  return meta
}

/** The fields of a sandbox contract a snapshot needs, read without parsing or copying its state. */
interface ContractFields {
  readonly address: { toString(): string }
  readonly _account?: string
  readonly lastTxTime: number
  readonly _verbosity?: unknown
}

/**
 * Writes chain.json and meta.json. The sandbox's own `snapshot()` parses and deep-copies every account and
 * serialises it again; each account's state is already a serialised BoC, so the snapshot takes those strings
 * as they are and lets the sandbox serialise only the chain-wide fields.
 */
export const saveState = (dataDir: string, bc: Blockchain, meta: Meta): void => {
  const storage = (bc as unknown as { storage: { knownContracts(): ContractFields[] } }).storage
  const contracts = storage.knownContracts()
  let ser: ReturnType<typeof snapshotToSerializable>
  if (contracts.every((c) => typeof c._account === "string")) {
    // the chain-wide fields of bc, over a storage that lists no contracts
    const chainOnly = Object.create(bc, { storage: { value: { knownContracts: () => [] } } }) as Blockchain
    ser = snapshotToSerializable({ ...chainOnly.snapshot(), transactions: [] })
    ser.contracts = contracts.map((c) => ({
      account: c._account!,
      address: c.address.toString(),
      lastTxTime: c.lastTxTime,
      verbosity: c._verbosity as ReturnType<typeof snapshotToSerializable>["contracts"][number]["verbosity"],
    }))
  } else {
    ser = snapshotToSerializable({ ...bc.snapshot(), transactions: [] })
  }
  const tmp = (n: string) => path.join(dataDir, `${n}.tmp`)
  fs.writeFileSync(tmp("chain.json"), JSON.stringify(ser))
  fs.renameSync(tmp("chain.json"), path.join(dataDir, "chain.json"))
  fs.writeFileSync(tmp("meta.json"), JSON.stringify(meta, null, 1))
  fs.renameSync(tmp("meta.json"), path.join(dataDir, "meta.json"))
}

const tracesFile = (dataDir: string | undefined): string | undefined => (dataDir ? path.join(dataDir, "traces.jsonl") : undefined)

/** Appends already serialised trace records, one a line, in one write. */
export const appendTraceLines = (dataDir: string | undefined, lines: readonly string[]): void => {
  const f = tracesFile(dataDir)
  if (f && lines.length > 0) fs.appendFileSync(f, `${lines.join("\n")}\n`)
}

export const readTraces = (dataDir: string | undefined): TraceRecord[] => {
  const f = tracesFile(dataDir)
  if (!f || !fs.existsSync(f)) return []
  return fs
    .readFileSync(f, "utf8")
    .split("\n")
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as TraceRecord)
}
