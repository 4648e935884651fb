import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { startServer } from "../server.ts"

describe("embedded PGlite data directory", () => {
  const root = mkdtempSync(join(tmpdir(), "wallet-db-"))
  afterAll(() => rmSync(root, { recursive: true, force: true }))

  it("is used by one server at a time and released on close", async () => {
    const dataDir = join(root, "pglite")
    const first = await startServer({ port: 0, database: { kind: "pglite", dataDir }, botToken: "1:x" })
    try {
      await expect(startServer({ port: 0, database: { kind: "pglite", dataDir }, botToken: "1:x" })).rejects.toThrow("is in use by another server")
    } finally {
      await first.close()
    }
    const second = await startServer({ port: 0, database: { kind: "pglite", dataDir }, botToken: "1:x" })
    await second.close()
  }, 60_000)

  it("takes over a lock left by a process that is gone", async () => {
    const dataDir = join(root, "stale")
    // A pid far above Linux's default pid_max: no such process.
    writeFileSync(`${dataDir}.lock`, "4999999")
    const server = await startServer({ port: 0, database: { kind: "pglite", dataDir }, botToken: "1:x" })
    await server.close()
  }, 60_000)
})
