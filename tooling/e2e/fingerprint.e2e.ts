import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { launch, startStack, type LaunchedApp, type Stack } from "@wallet/harness/stack"

/**
 * The device fingerprint end to end (issue 16, decision 0390): after sign-in the fingerprint reaches
 * the server once (read back through the dev JSON endpoint) as an obfuscated binary body, with a
 * 36-character device uuid that survives a reload; a reload within 30 days does not send it again.
 */
let stack: Stack
beforeAll(async () => {
  stack = await startStack()
})
afterAll(async () => {
  await stack?.close()
})

interface StoredFingerprint {
  readonly userId: string
  readonly deviceUuid: string
  readonly visitorId: string
  readonly thumbmark: string
  readonly version: string
  readonly components: Record<string, unknown>
  readonly sends: number
}

const userIdOf = async (kind: string) => {
  const users = (await (await fetch(`${stack.server.url}/api/dev/demo-users`)).json()) as Array<{ id: number; kind: string }>
  return String(users.find((u) => u.kind === kind)!.id)
}

const fingerprintsOf = async (userId: string): Promise<ReadonlyArray<StoredFingerprint>> =>
  ((await (await fetch(`${stack.server.url}/api/dev/fingerprints?userId=${userId}`)).json()) as { fingerprints: Array<StoredFingerprint> }).fingerprints

/** What the app's sender decided on this start (`sent`, `fresh`, `failed`). */
const senderResult = async (app: LaunchedApp) => {
  const handle = await app.app().waitForFunction(() => document.documentElement.dataset.fingerprint, undefined, { timeout: 30_000 })
  return (await handle.jsonValue()) as string
}

describe("device fingerprint", () => {
  it("arrives once after sign-in, keeps its device uuid over a reload, and is not sent again within 30 days", async () => {
    const userId = await userIdOf("balances")
    const before = await fingerprintsOf(userId)
    const app = await launch(stack, { user: "balances" })
    const posts: Array<{ contentType: string | undefined }> = []
    app.page.on("request", (request) => {
      if (request.url().endsWith("/api/users/me/fingerprint")) posts.push({ contentType: request.headers()["content-type"] })
    })
    await app.waitForPath("/main")
    expect(await senderResult(app)).toBe("sent")

    const after = await fingerprintsOf(userId)
    expect(after.length).toBe(before.length + 1)
    const stored = after.find((row) => !before.some((old) => old.deviceUuid === row.deviceUuid))!
    expect(stored.sends).toBe(1)
    expect(stored.deviceUuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    expect(stored.deviceUuid).toHaveLength(36)
    expect(stored.thumbmark).toMatch(/^[0-9a-f]{32}$/)
    expect(stored.visitorId).toBe(stored.thumbmark)
    // Real components from Chromium, only the spec's names.
    expect(Object.keys(stored.components).length).toBeGreaterThanOrEqual(5)
    expect(stored.components).toHaveProperty("screen")
    expect(stored.components).toHaveProperty("system")
    for (const name of Object.keys(stored.components)) {
      expect(["audio", "canvas", "fonts", "hardware", "locales", "math", "permissions", "plugins", "screen", "system", "webgl"]).toContain(name)
    }
    // One binary post (the server decoded it with this user's id: the rows above).
    expect(posts).toHaveLength(1)
    expect(posts[0]!.contentType).toBe("application/octet-stream")

    const kept = await app.app().evaluate(() => window.localStorage.getItem("wallet:device-uuid"))
    expect(kept).toBe(stored.deviceUuid)

    await app.app().evaluate(() => window.location.reload())
    await app.page.waitForTimeout(500)
    await app.waitForPath("/main")
    expect(await senderResult(app)).toBe("fresh")
    expect(await app.app().evaluate(() => window.localStorage.getItem("wallet:device-uuid"))).toBe(stored.deviceUuid)
    const again = await fingerprintsOf(userId)
    expect(again.length).toBe(before.length + 1)
    expect(again.find((row) => row.deviceUuid === stored.deviceUuid)!.sends).toBe(1)
    expect(posts).toHaveLength(1)
    await app.page.close()
  })
})
