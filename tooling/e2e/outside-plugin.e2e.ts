/**
 * Issue 14 "Done when" (decision 0150): a plugin made with the scaffold in a folder outside the
 * repo, built and packed, installed as a tarball into a clean copy of the host and enabled by one
 * region line, boots on both sides (screen, API, migration) and opens in Chromium as a demo user;
 * a route conflict stops the server boot and the app build with the same message; removing the line
 * removes the plugin from both sides and leaves the other plugins alone.
 */
import { execFileSync } from "node:child_process"
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync, realpathSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { buildHostApp, openAs, previewHost, signInitData, startHostServer, type HostServerProcess, type HostStack } from "@wallet/testkit"
import { addRegionLine, createPlugin, repoRoot } from "../scaffold/src/scaffold.ts"

const PNPM = join(repoRoot, ".tools/node_modules/pnpm/bin/pnpm.mjs")
const timings: Array<[string, number]> = []
const timed = async <A>(label: string, run: () => A | Promise<A>): Promise<A> => {
  const started = performance.now()
  try {
    return await run()
  } finally {
    timings.push([label, Math.round(performance.now() - started)])
  }
}
const pnpm = (cwd: string, args: ReadonlyArray<string>) => {
  const env: Record<string, string | undefined> = { ...process.env }
  delete env.NODE_OPTIONS
  return execFileSync(process.execPath, [PNPM, ...args], { cwd, env, encoding: "utf8", stdio: "pipe" })
}

let host: string
let outside: string
let regionFile: string
let originalRegion: string
const NOTES = "@acme/wallet-plugin-notes"
const CLASH = "@acme/wallet-plugin-clash"

/** The working tree's files as a commit would hold them: tracked plus new files that are not ignored, deleted ones left out. */
const copyHost = (to: string) => {
  const files = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: repoRoot, encoding: "utf8" })
    .split("\0")
    .filter(Boolean)
  for (const file of files) {
    const from = join(repoRoot, file)
    if (!existsSync(from)) continue
    mkdirSync(dirname(join(to, file)), { recursive: true })
    cpSync(from, join(to, file))
  }
  return files.length
}

/** As an author who installed the published kernel would have it: the peers and tsup in the plugin's node_modules (linked from the host copy). */
const linkAuthorModules = (plugin: string) => {
  const modules = join(plugin, "node_modules")
  mkdirSync(join(modules, "@wallet"), { recursive: true })
  mkdirSync(join(modules, "@tanstack"), { recursive: true })
  for (const [name, dir] of [
    ["kernel", "core"],
    ["kernel-react", "react"],
    ["kernel-server", "server"],
  ])
    symlinkSync(join(host, "kernel", dir!), join(modules, "@wallet", name!), "dir")
  for (const name of ["tsup", "typescript"]) symlinkSync(realpathSync(join(host, "node_modules", name)), join(modules, name), "dir")
  for (const name of ["react", "effect", "@tanstack/react-router", "@tanstack/react-query"])
    symlinkSync(realpathSync(join(host, "kernel/react/node_modules", name)), join(modules, name), "dir")
}

/** tsup (JavaScript; declarations as in tooling/packages, decision 0110) and `pnpm pack`: the tarball's path. */
const buildAndPack = (plugin: string): string => {
  const env: Record<string, string | undefined> = { ...process.env, WALLET_PLUGIN_DTS: "0" }
  delete env.NODE_OPTIONS
  execFileSync(process.execPath, [join(plugin, "node_modules/tsup/dist/cli-default.js")], { cwd: plugin, env, stdio: "pipe" })
  const before = new Set(readdirSync(outside))
  pnpm(plugin, ["pack", "--pack-destination", outside])
  const tarball = readdirSync(outside).find((file) => file.endsWith(".tgz") && !before.has(file))
  if (!tarball) throw new Error(`pnpm pack wrote no tarball for ${plugin}`)
  return join(outside, tarball)
}

const setRegion = (...packages: ReadonlyArray<string>) =>
  writeFileSync(
    regionFile,
    packages.reduce((source, name) => addRegionLine(source, name), originalRegion),
  )

const appFiles = () =>
  readdirSync(join(host, "host/app/dist/assets"))
    .filter((file) => file.endsWith(".js"))
    .map((file) => readFileSync(join(host, "host/app/dist/assets", file), "utf8"))
    .join("\n")

const failureOf = async (run: () => Promise<unknown>): Promise<string> => {
  try {
    await run()
  } catch (error) {
    return error instanceof Error ? error.message : String(error)
  }
  throw new Error("expected a failure")
}

beforeAll(async () => {
  host = mkdtempSync(join(tmpdir(), "wallet-host-copy-"))
  outside = mkdtempSync(join(tmpdir(), "wallet-outside-plugin-"))
  await timed("copy the host's files", () => copyHost(host))
  // Offline from the local store: ~1 s here (pnpm links from its store), so no cheaper copy is needed.
  await timed("pnpm install --offline (host copy)", () => pnpm(host, ["install", "--offline", "--frozen-lockfile"]))
  regionFile = join(host, "host/regions/default.ts")
  originalRegion = readFileSync(regionFile, "utf8")
  const tarballs = await timed("scaffold, build and pack two plugins", () => {
    const notes = createPlugin({ id: "notes", dir: outside, scope: "@acme" })
    // The conflict case: the scaffold's route at a path the settings plugin already serves.
    const clash = createPlugin({ id: "clash", dir: outside, scope: "@acme", routePath: "/settings" })
    return [notes, clash].map((created) => {
      linkAuthorModules(created.folder)
      return buildAndPack(created.folder)
    })
  })
  // Outside plugins are dependencies of @wallet/regions (decision 0120); its own dependencies are
  // their peers (the kernel packages, react, effect, TanStack), so installing is this one command.
  await timed("pnpm add the tarballs to @wallet/regions (offline)", () => pnpm(host, ["add", ...tarballs, "--filter", "@wallet/regions", "--offline"]))
}, 300_000)

afterAll(() => {
  console.log(`outside plugin timings (ms):\n${timings.map(([label, ms]) => `  ${label}: ${ms}`).join("\n")}`)
  rmSync(host, { recursive: true, force: true })
  rmSync(outside, { recursive: true, force: true })
})

describe("a plugin from outside the repo (issue 14)", () => {
  it("one region line: the app and the server boot with its screen, API and migration; a demo user opens it", async () => {
    setRegion(NOTES)
    const build = await timed("app build with the plugin", () => buildHostApp(host))
    expect(build.ok, build.output).toBe(true)
    expect(appFiles()).toContain("No notes yet")
    let server: HostServerProcess | undefined
    let stack: HostStack | undefined
    try {
      server = await timed("server boot with the plugin", () => startHostServer(host))
      expect(server.output()).toMatch(/modules .*\bnotes\b/)
      // API only, with the kit's signed demo user and the bot token the host server printed.
      const init = await fetch(`${server.url}/api/auth/init`, {
        method: "POST",
        headers: { authorization: `tma ${signInitData("no_custody", server.botToken)}` },
      })
      expect(init.status).toBe(200)
      const { access_token: token } = (await init.json()) as { access_token: string }
      const listed = await fetch(`${server.url}/api/notes/notes`, { headers: { authorization: `Bearer ${token}` } })
      expect(listed.status).toBe(200)
      expect(await listed.json()).toEqual({ items: [] })
      stack = await previewHost(host, server.url)
      const app = await openAs(stack, "balances")
      await timed("browser: open /notes, add a note", async () => {
        await app.goto("/notes")
        // The GET answered (empty list), the POST wrote to the migration's table, the GET shows it.
        await app.app().getByText("No notes yet").waitFor()
        await app.app().getByRole("button", { name: "Add a note" }).click()
        await app.app().getByText("My first note").waitFor()
      })
      expect(await app.app().getByText("No notes yet").count()).toBe(0)
      const anonymous = await fetch(`${server.url}/api/notes/notes`)
      expect(anonymous.status).toBe(401)
    } finally {
      await stack?.close()
      await server?.close()
    }
  }, 240_000)

  it("a route conflict stops the server boot and the app build with the same message", async () => {
    setRegion(NOTES, CLASH)
    const atBoot = await timed("server boot with the conflict", () => failureOf(() => startHostServer(host)))
    const message = /\[api\] failed to start: (.+)/.exec(atBoot)?.[1]
    expect(message, atBoot).toMatch(/^Path '\/settings' is claimed by plugin '(settings|clash)' \(route '\w+\/index'\) and plugin '(settings|clash)'/)
    expect(message).toContain("plugin 'clash'")
    const build = await timed("app build with the conflict", () => buildHostApp(host))
    expect(build.ok).toBe(false)
    expect(build.output).toContain(message)
  }, 240_000)

  it("removing the line removes the plugin from both sides; the other plugins stay", async () => {
    setRegion()
    const build = await timed("app build without the plugin", () => buildHostApp(host))
    expect(build.ok, build.output).toBe(true)
    const code = appFiles()
    expect(code).not.toContain("No notes yet")
    expect(code).not.toContain(NOTES)
    let server: HostServerProcess | undefined
    let stack: HostStack | undefined
    try {
      server = await timed("server boot without the plugin", () => startHostServer(host))
      expect(server.output()).not.toMatch(/modules .*\bnotes\b/)
      expect((await fetch(`${server.url}/api/notes/notes`)).status).toBe(404)
      stack = await previewHost(host, server.url)
      const app = await openAs(stack, "balances")
      await app.goto("/settings")
      await app.app().getByRole("heading", { name: "Settings" }).waitFor()
    } finally {
      await stack?.close()
      await server?.close()
    }
  }, 240_000)
})
