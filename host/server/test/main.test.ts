import { spawn, type ChildProcess } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startTestPostgres, type TestPostgres } from "@wallet/kernel-server/testing"
import { regionFile, repoRoot, resolveRegionPlugins } from "../src/plugins.ts"
import { startServer } from "../src/index.ts"

interface Process {
  readonly child: ChildProcess
  readonly url: string
  output(): string
  exit(): Promise<number | null>
}

const launchProcess = (env: Record<string, string>, args: ReadonlyArray<string> = ["--port", "0"]): Promise<Process> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", "host/server/src/main.ts", ...args], {
      cwd: repoRoot,
      env: { ...process.env, DATABASE_URL: "", BOT_TOKEN: "", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    })
    let output = ""
    const exited = new Promise<number | null>((done) => child.once("exit", (code) => done(code)))
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      const match = /api ready (http:\/\/127\.0\.0\.1:\d+)/.exec(output)
      if (match) resolve({ child, url: match[1]!, output: () => output, exit: () => exited })
    }
    child.stdout!.on("data", onData)
    child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()))
    void exited.then((code) => reject(new Error(`server exited (${code}) before ready:\n${output}`)))
  })

const stop = async (server: Process, signal: NodeJS.Signals) => {
  server.child.kill(signal)
  return server.exit()
}

const launchAndSignIn = async (url: string, userId: number) => {
  const launch = await (
    await fetch(`${url}/api/dev/launch`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ userId, platform: "ios", theme: "light", language: "en" }),
    })
  ).json()
  const auth = await (await fetch(`${url}/api/auth/init`, { method: "POST", headers: { authorization: `tma ${launch.initData}` } })).json()
  return auth.access_token as string
}

describe.each(["pglite", "postgres"] as const)("the server process on %s", (kind) => {
  let root: string
  let dataDir: string
  let postgres: TestPostgres | undefined
  let env: Record<string, string>

  beforeAll(async () => {
    // The device-key file goes beside the data folder (decision 0540): keep both in one temp root.
    root = mkdtempSync(join(tmpdir(), "wallet-api-"))
    dataDir = join(root, "pglite")
    if (kind === "postgres") postgres = await startTestPostgres()
    env = { WALLET_DEV: "1", WALLET_DATA_DIR: dataDir, ...(postgres ? { DATABASE_URL: postgres.url } : {}) }
  }, 60_000)
  afterAll(async () => {
    await postgres?.stop()
    rmSync(root, { recursive: true, force: true })
  })

  it("serves once ready, stops cleanly on SIGTERM and SIGINT, and keeps data across starts", async () => {
    const first = await launchProcess(env)
    expect(first.output().match(/api ready/g)).toHaveLength(1)
    expect(first.output()).toContain("dev bot token")
    expect((await fetch(`${first.url}/api/openapi.json`)).status).toBe(200)
    const token = await launchAndSignIn(first.url, 700000002)
    const saved = await fetch(`${first.url}/api/view-settings`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ changedBanners: { kept_across_restarts: true } }),
    })
    expect(saved.status).toBe(200)
    expect(await stop(first, "SIGTERM")).toBe(0)

    const second = await launchProcess(env)
    const again = await launchAndSignIn(second.url, 700000002)
    const settings = await (await fetch(`${second.url}/api/view-settings`, { headers: { authorization: `Bearer ${again}` } })).json()
    expect(settings.data.banners.kept_across_restarts).toBe(true)
    expect(await stop(second, "SIGINT")).toBe(0)
  }, 180_000)
})

describe("the server process configuration", () => {
  it("reads the plugins a region file names by package and loads only server modules that exist", async () => {
    const region = (await regionFile("default"))!
    expect(Object.keys(region.plugins)).toContain("@wallet/plugin-settings")
    expect(await regionFile("no-such-region")).toBeUndefined()
    const eu = await resolveRegionPlugins((await regionFile("eu"))!)
    expect(eu.pluginConfig.settings).toMatchObject({ fiatCurrencies: expect.arrayContaining(["EUR"]) })
    expect(eu.serverPlugins.map((plugin) => plugin.id)).toEqual(["custody", "passcode", "ton-space"])
    const some = await resolveRegionPlugins(region, { only: ["custody", "@wallet/plugin-settings"] })
    expect(some.composition.plugins.map((plugin) => plugin.id)).toEqual(["custody", "settings"])
    expect(some.serverPlugins.map((plugin) => plugin.id)).toEqual(["custody"])
    await expect(resolveRegionPlugins(region, { only: ["not-a-plugin"] })).rejects.toThrow('plugin "not-a-plugin" is not named in region "default"')
    await expect(resolveRegionPlugins({ id: "x", plugins: { "@wallet/plugin-nope": { enabled: true } } })).rejects.toThrow(
      "Cannot resolve '@wallet/plugin-nope/manifest' from host/regions",
    )
    await expect(regionFile("../etc")).rejects.toThrow("not a valid file name")
  })

  it("issue 14: refuses to boot when an enabled plugin's dependency is not enabled, naming both", async () => {
    await expect(startServer({ port: 0, dataDir: "memory", dev: true, enabledPlugins: ["tonconnect"] })).rejects.toThrow(
      "Plugin 'tonconnect' depends on 'ton-space', which is disabled in region 'default'",
    )
  })

  it("refuses to start outside dev without BOT_TOKEN", async () => {
    await expect(startServer({ port: 0, dataDir: "memory", dev: false })).rejects.toThrow("BOT_TOKEN is required")
  })

  it("composes the server modules of the region's enabled plugins (client-only plugins add none)", async () => {
    const server = await startServer({ port: 0, dataDir: "memory", dev: false, botToken: "6666:t", region: "default" })
    try {
      expect(server.modules).toEqual([
        "kernel",
        "outbox",
        "bridge",
        "ledger",
        "analytics",
        "fingerprint",
        "operator",
        "custody",
        "passcode",
        "ton-space",
        "kyc",
        "p2p",
        "trade",
        "exchange",
        "ramp",
      ])
      expect(server.region).toBe("default")
      expect((await fetch(`${server.url}/api/dev/demo-users`)).status).toBe(404)
    } finally {
      await server.close()
    }
  }, 60_000)
})
