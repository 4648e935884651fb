import { mkdtempSync, readdirSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { localFileStore, startServer, type RunningServer } from "@wallet/kernel-server"
import { bearer, call, startTestDatabase, type TestDatabase } from "@wallet/kernel-server/testing"
import { serverPlugin } from "./index.ts"
import { initUser, kycStatus, signInOperator } from "./testing.ts"

const BOT_TOKEN = "1234567:kyc-edd-test"
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP8z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==", "base64")
const PDF = Buffer.from("%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n")

describe("enhanced due diligence: evidence asked by staff, kept in the file store (issue 19, decision 0940)", () => {
  let database: TestDatabase
  let server: RunningServer
  let staff: Awaited<ReturnType<typeof signInOperator>>["staff"]
  let cookie: string
  const filesDir = mkdtempSync(join(tmpdir(), "kyc-edd-files-"))

  beforeAll(async () => {
    database = await startTestDatabase("pglite")
    server = await startServer({ port: 0, database: database.options, botToken: BOT_TOKEN, plugins: [serverPlugin], files: localFileStore(filesDir) })
    ;({ staff, cookie } = await signInOperator(server))
  })

  afterAll(async () => {
    await server?.close()
    await database?.stop()
    rmSync(filesDir, { recursive: true, force: true })
  })

  const signIn = async (id: number) => bearer((await initUser(server.url, BOT_TOKEN, id)).access_token)
  const edd = async (auth: string) =>
    (await call(server.url, "GET", "/api/kyc/edd", { authorization: auth })).body as { request: null | Record<string, unknown> }
  const upload = (auth: string, group: string, kind: string, body: Uint8Array, contentType = "image/png", name = "file.png") =>
    fetch(`${server.url}/api/kyc/evidence?${new URLSearchParams({ group, kind, name })}`, {
      method: "POST",
      headers: { authorization: auth, "content-type": contentType },
      body: new Blob([new Uint8Array(body)]),
    })
  const ask = (userId: number, groups: ReadonlyArray<string>, blocking: boolean) => {
    const form = new URLSearchParams({ user: String(userId), note: "Tell us where your savings come from." })
    for (const group of groups) form.append("group", group)
    if (blocking) form.set("blocking", "1")
    return staff("/edd-request", form)
  }
  const filesOnDisk = () =>
    readdirSync(join(filesDir, "kyc", "evidence"), { recursive: true, withFileTypes: true }).filter(
      (entry) => entry.isFile() && !entry.name.endsWith(".meta.json"),
    )

  it("staff ask with a hold: withdrawals close; the user uploads, sends, staff accept, the hold lifts; each step has its bot message", async () => {
    const id = 8_400_000_001
    const auth = await signIn(id)
    expect(await edd(auth)).toEqual({ request: null })
    expect((await ask(id, ["sow", "psp"], true)).status).toBe(303)
    const held = await kycStatus(server.url, auth)
    expect(held.edd).toEqual({ status: "requested", blocking: true, groups: ["sow", "psp"] })
    expect((await initUser(server.url, BOT_TOKEN, id)).permissions).toMatchObject({ canWithdrawOuter: false, canExchange: false, canReceive: true })

    // Sending before every group has a file is refused.
    expect((await upload(auth, "sow", "bankStatement", PNG)).status).toBe(200)
    const early = await call(server.url, "POST", "/api/kyc/edd/submit", { authorization: auth })
    expect(early.status).toBe(409)
    expect(early.body).toMatchObject({ code: "evidence_missing" })
    const answer = await upload(auth, "psp", "proofOfAddress", PDF, "application/pdf", "bill.pdf")
    expect(answer.status).toBe(200)
    const state = (await answer.json()) as {
      request: { groups: Array<{ group: string; kinds: Array<{ kind: string; files: Array<{ fileName: string; contentType: string }> }> }> }
    }
    const psp = state.request.groups.find((group) => group.group === "psp")!
    expect(psp.kinds.find((list) => list.kind === "proofOfAddress")!.files).toEqual([
      expect.objectContaining({ fileName: "bill.pdf", contentType: "application/pdf" }),
    ])
    expect(filesOnDisk()).toHaveLength(2)

    const sent = await call(server.url, "POST", "/api/kyc/edd/submit", { authorization: auth })
    expect(sent.status).toBe(200)
    expect((await edd(auth)).request).toMatchObject({ status: "submitted" })
    // Sent evidence is frozen.
    expect((await upload(auth, "sow", "sowEvidence", PNG)).status).toBe(409)

    expect((await staff("/edd-decide", { user: String(id), decision: "approved" })).status).toBe(303)
    expect((await kycStatus(server.url, auth)).edd).toMatchObject({ status: "approved" })
    expect((await initUser(server.url, BOT_TOKEN, id)).permissions).toMatchObject({ canWithdrawOuter: true, canExchange: true })
    const messages = await server.sql("select body from outbox_messages where recipient = $1 and subject = 'kyc.edd' order by id", [String(id)])
    expect(messages.map((row) => String(row.body))).toEqual([expect.stringContaining("few more documents"), expect.stringContaining("accepted")])
    const audit = await server.sql("select action from operator_audit where target = $1 order by id", [`user ${id}`])
    expect(audit.map((row) => row.action)).toEqual(["kyc.edd_request", "kyc.edd_approved"])
  })

  it("bad files are refused with the reason and store nothing: a non-image, an empty body, a group not asked for, too many files", async () => {
    const id = 8_400_000_002
    const auth = await signIn(id)
    expect((await upload(auth, "sow", "sowEvidence", PNG)).status).toBe(409) // nothing asked yet
    await ask(id, ["sow"], false)
    const before = filesOnDisk().length
    const text = await upload(auth, "sow", "sowEvidence", Buffer.from("just some text, not a document"), "image/png")
    expect(text.status).toBe(409)
    expect(await text.json()).toMatchObject({ code: "file_invalid" })
    expect((await (await upload(auth, "sow", "sowEvidence", new Uint8Array(0))).json()) as object).toMatchObject({ code: "file_invalid" })
    expect((await (await upload(auth, "dof", "dofEvidence", PNG)).json()) as object).toMatchObject({ code: "group_not_requested" })
    expect((await (await upload(auth, "sow", "gambling", PNG)).json()) as object).toMatchObject({ code: "kind_not_in_group" })
    const bad = await upload(auth, "nonsense", "sowEvidence", PNG)
    expect(bad.status).toBe(400)
    expect(filesOnDisk().length).toBe(before)
    for (let i = 0; i < 5; i++) expect((await upload(auth, "sow", "bankStatement", PNG)).status).toBe(200)
    expect((await (await upload(auth, "sow", "bankStatement", PNG)).json()) as object).toMatchObject({ code: "too_many_files" })
  })

  it("a file larger than 10 MB is refused (413) and the API's other bodies keep their 1 MiB limit", async () => {
    const id = 8_400_000_003
    const auth = await signIn(id)
    await ask(id, ["sow"], false)
    const big = Buffer.alloc(11 * 1024 * 1024, 1)
    PNG.copy(big)
    const answer = await upload(auth, "sow", "sowEvidence", big)
    expect(answer.status).toBe(413)
    const justUnder = Buffer.alloc(2 * 1024 * 1024, 1)
    PNG.copy(justUnder)
    expect((await upload(auth, "sow", "sowEvidence", justUnder)).status).toBe(200)
    const other = await fetch(`${server.url}/api/kyc/name`, {
      method: "POST",
      headers: { authorization: auth, "content-type": "application/json" },
      body: JSON.stringify({ firstName: "A".repeat(2 * 1024 * 1024), lastName: "B" }),
    })
    expect(other.status).toBe(413)
  })

  it("staff reject with a reason; the user removes a file, adds another and sends again; files are served only to the operator, only for their user", async () => {
    const id = 8_400_000_004
    const auth = await signIn(id)
    await ask(id, ["dof"], false)
    await upload(auth, "dof", "dofEvidence", PNG)
    await call(server.url, "POST", "/api/kyc/edd/submit", { authorization: auth })
    const page = await (await fetch(`${server.url}/ops/kyc?user=${id}`, { headers: { cookie } })).text()
    const fileId = /\/ops\/kyc\/evidence\?user=\d+&amp;id=(\d+)/.exec(page)![1]!
    const served = await fetch(`${server.url}/ops/kyc/evidence?user=${id}&id=${fileId}`, { headers: { cookie } })
    expect(served.status).toBe(200)
    expect(served.headers.get("content-type")).toBe("image/png")
    expect(served.headers.get("cache-control")).toBe("no-store")
    expect(Buffer.from(await served.arrayBuffer()).equals(PNG)).toBe(true)
    // Not without the operator's session, and not under another user's id.
    expect((await fetch(`${server.url}/ops/kyc/evidence?user=${id}&id=${fileId}`, { redirect: "manual" })).status).toBe(303)
    expect((await fetch(`${server.url}/ops/kyc/evidence?user=8400000001&id=${fileId}`, { headers: { cookie } })).status).toBe(404)

    expect((await staff("/edd-decide", { user: String(id), decision: "rejected", reason: "" })).status).toBe(400)
    expect((await staff("/edd-decide", { user: String(id), decision: "rejected", reason: "The statement is cut off." })).status).toBe(303)
    const rejected = await edd(auth)
    expect(rejected.request).toMatchObject({ status: "rejected", reason: "The statement is cut off." })
    const removed = await call(server.url, "POST", "/api/kyc/evidence/remove", { authorization: auth, body: { id: Number(fileId) } })
    expect(removed.status).toBe(200)
    expect((await call(server.url, "POST", "/api/kyc/evidence/remove", { authorization: auth, body: { id: Number(fileId) } })).body).toMatchObject({
      code: "no_such_file",
    })
    await upload(auth, "dof", "dofEvidence", PDF, "application/pdf", "full.pdf")
    expect((await call(server.url, "POST", "/api/kyc/edd/submit", { authorization: auth })).status).toBe(200)
    expect((await edd(auth)).request).toMatchObject({ status: "submitted", reason: null })
  })

  it("two operators deciding the same evidence at once: one decision holds, the other is refused", async () => {
    const id = 8_400_000_005
    const auth = await signIn(id)
    await ask(id, ["sof"], true)
    await upload(auth, "sof", "sofEvidence", PNG)
    await call(server.url, "POST", "/api/kyc/edd/submit", { authorization: auth })
    const answers = await Promise.all([
      staff("/edd-decide", { user: String(id), decision: "approved" }),
      staff("/edd-decide", { user: String(id), decision: "rejected", reason: "No." }),
    ])
    expect(answers.map((answer) => answer.status).sort()).toEqual([303, 400])
    const events = await server.sql("select kind from kyc_events where user_id = $1 and kind in ('edd.approved', 'edd.rejected')", [id])
    expect(events).toHaveLength(1)
  })
})
