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

export const saveState = (dataDir: string, bc: Blockchain, meta: Meta): void => {
  const snap = bc.snapshot()
  const ser = snapshotToSerializable({ ...snap, transactions: [] })
  const tmp = (n: string) => path.join(dataDir, `${n}.tmp`)
  fs.writeFileSync(tmp("chain.json"), JSON.stringify(ser))
  fs.renameSync(tmp("chain.json"), path.join(dataDir, "chain.json"))
  fs.writeFileSync(tmp("meta.json"), JSON.stringify(meta, null, 1))
  fs.renameSync(tmp("meta.json"), path.join(dataDir, "meta.json"))
}

const tracesFile = (dataDir: string | undefined): string | undefined => (dataDir ? path.join(dataDir, "traces.jsonl") : undefined)

export const appendTrace = (dataDir: string | undefined, record: TraceRecord): void => {
  const f = tracesFile(dataDir)
  if (f) fs.appendFileSync(f, `${JSON.stringify(record)}\n`)
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
