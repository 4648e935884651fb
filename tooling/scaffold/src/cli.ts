/** `npm run create-plugin -- <id> [--dir <folder>] [--scope @acme] [--path /route]` (decision 0150). */
import { spawnSync } from "node:child_process"
import { join } from "node:path"
import { createPlugin, enableInRepo, regionLine, repoRoot, type CreateOptions } from "./scaffold.ts"

const usage = "usage: npm run create-plugin -- <id> [--dir <folder>] [--scope @acme] [--path /route]"

const parse = (argv: ReadonlyArray<string>): CreateOptions => {
  let id: string | undefined
  const options: { dir?: string; scope?: string; routePath?: string } = {}
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!
    const value = () => {
      const next = argv[++i]
      if (next === undefined) throw new Error(`${arg} needs a value\n${usage}`)
      return next
    }
    if (arg === "--dir") options.dir = value()
    else if (arg === "--scope") options.scope = value()
    else if (arg === "--path") options.routePath = value()
    else if (arg.startsWith("--")) throw new Error(`unknown option ${arg}\n${usage}`)
    else if (id === undefined) id = arg
    else throw new Error(`one plugin id only\n${usage}`)
  }
  if (id === undefined) throw new Error(usage)
  return { id, ...options }
}

try {
  const created = createPlugin(parse(process.argv.slice(2)))
  console.log(`created ${created.packageName} in ${created.folder}`)
  for (const file of created.files) console.log(`  ${file}`)
  if (created.inRepo) {
    enableInRepo(created)
    console.log(`enabled in host/regions/default.ts and added to @wallet/regions; linking the workspace (pnpm install --offline)`)
    const install = spawnSync(process.execPath, [join(repoRoot, "tooling/scripts/pnpm.mjs"), "install", "--offline"], { stdio: "inherit", cwd: repoRoot })
    if (install.status !== 0) console.log("pnpm install --offline failed: run `node tooling/scripts/pnpm.mjs install` yourself")
    // The repo's formatter (decision 0180) so the new plugin and the region line pass `npm run lint` at once.
    const format = spawnSync(join(repoRoot, "node_modules/.bin/oxfmt"), [created.folder, join(repoRoot, "host/regions/default.ts")], {
      stdio: "inherit",
      cwd: repoRoot,
    })
    if (format.status !== 0) console.log("formatting failed: run `npm run format` yourself")
    console.log(`next: npm run test:unit -- plugins/${created.folder.split("/").pop()}; the browser test runs with npm run test:e2e`)
  } else {
    console.log(
      `next: cd ${created.folder}, install the peers, npm run build, pnpm pack; in the host: pnpm add <tarball> --filter @wallet/regions and this line in a region file:`,
    )
    console.log(regionLine(created.packageName))
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error))
  process.exit(1)
}
