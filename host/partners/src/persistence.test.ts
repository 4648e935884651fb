/** State lives in PGlite: applicants and the webhook outbox survive a restart; a data directory has one owner. */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startSumsubSandbox } from "./index.ts"
import { signed, startReceiver, submitted, type Receiver } from "./testing.ts"

let dir = ""
let receiver: Receiver

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "sumsub-sandbox-"))
  receiver = await startReceiver()
})
afterAll(async () => {
  await receiver.close()
  rmSync(dir, { recursive: true, force: true })
})

describe("persistence", () => {
  it("keeps applicants and undelivered webhooks across a restart, and refuses a second owner", async () => {
    const dataDir = path.join(dir, "sumsub")
    const first = await startSumsubSandbox({ port: 0, dataDir })
    let applicantId = ""
    try {
      await expect(startSumsubSandbox({ port: 0, dataDir })).rejects.toThrow(/in use/)
      applicantId = (await submitted(first.url)).applicantId
    } finally {
      await first.close()
    }

    const second = await startSumsubSandbox({ port: 0, dataDir, webhookUrl: receiver.url })
    try {
      const status = await signed(second.url, "GET", `/resources/applicants/${applicantId}/status`)
      expect(status.json).toMatchObject({ reviewStatus: "pending", attemptCnt: 1 })
      await second.idle()
      expect(receiver.forApplicant(applicantId).map((r) => r.json.type)).toEqual(["applicantCreated", "applicantPending"])
    } finally {
      await second.close()
    }
  })
})
