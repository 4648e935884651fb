import { basename, join } from "node:path"
import ts from "typescript"
import { describe, expect, it } from "vitest"

// Issue 14 (every package builds): `tsup`'s declaration step failed for @wallet/plugin-home with
// TS2883 — a search schema's inferred `Check<…>` could only be named through the kernel's source
// file, because the entry exported the checker as a namespace only (`export * as Check`). A package
// importing `@wallet/kernel` must be able to emit declarations for values whose types it infers.
const root = join(import.meta.dirname, "..", "..", "..")
// A virtual module inside a plugin (never written): it reaches @wallet/kernel through its node_modules
// link, as a consumer does (from kernel-react TypeScript finds a plain relative path and does not complain).
const probe = join(root, "plugins", "home", "src", "declaration-probe.ts")
const probeSource = [
  // No `Check` import here: a consumer that imports the namespace can name its types through it anyway.
  `import { booleanParam, enumParam, optionalEnumParam, searchParams } from "@wallet/kernel"`,
  `export const Search = searchParams({ flag: booleanParam, tab: enumParam(["a", "b"], "a") })`,
  `export const maybe = optionalEnumParam(["x", "y"])`,
].join("\n")

const emitDeclarations = (): { readonly diagnostics: ReadonlyArray<string>; readonly written: ReadonlyArray<string> } => {
  const configFile = join(root, "tooling", "tsconfig", "tsconfig.base.json")
  const parsed = ts.getParsedCommandLineOfConfigFile(configFile, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined })
  if (parsed === undefined) throw new Error("tsconfig.base.json did not parse")
  const options: ts.CompilerOptions = { ...parsed.options, noEmit: false, declaration: true, emitDeclarationOnly: true, types: ["node"] }
  const host = ts.createCompilerHost(options)
  const getSourceFile = host.getSourceFile.bind(host)
  host.getSourceFile = (file, language, ...rest) => (file === probe ? ts.createSourceFile(file, probeSource, language) : getSourceFile(file, language, ...rest))
  const fileExists = host.fileExists.bind(host)
  host.fileExists = (file) => file === probe || fileExists(file)
  const written: Array<string> = []
  host.writeFile = (file) => {
    written.push(file)
  }
  const program = ts.createProgram({ rootNames: [probe], options, host })
  const source = program.getSourceFile(probe)!
  program.emit(source, host.writeFile, undefined, true)
  const diagnostics = [...program.getSemanticDiagnostics(source), ...program.getDeclarationDiagnostics(source)].map(
    (d) => `TS${d.code}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`,
  )
  return { diagnostics, written: written.map((file) => basename(file)) }
}

describe("the kernel's declarations", () => {
  it("every package builds: checks inferred from @wallet/kernel are nameable in a consumer's .d.ts (TS2883)", { timeout: 60_000 }, () => {
    const { diagnostics, written } = emitDeclarations()
    expect(diagnostics).toEqual([])
    expect(written).toEqual(["declaration-probe.d.ts"])
  })
})
