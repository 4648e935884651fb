#!/usr/bin/env node
// Translation coverage per language and namespace (decision 0310): `npm run i18n:coverage`.
// A namespace is the shell's (host/app/src/i18n/<lang>.json) or a plugin's
// (plugins/<id>/src/i18n/<lang>.json, or <part>.<lang>.json merged into one namespace).
// Plural keys count once, by their base ("expires_one" and "expires_other" are "expires"),
// since languages have different plural forms.
import { readdirSync, readFileSync, existsSync } from "node:fs"
import { join, dirname } from "node:path"
import { fileURLToPath } from "node:url"

export const LANGUAGES = ["en", "ru", "hi", "bn", "zh-TW"]
const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..")
const PLURAL = /_(zero|one|two|few|many|other)$/

/** Dotted keys of a bundle with non-empty string values, plural suffixes folded into the base key. */
export const keysOf = (node, prefix = "") =>
  node !== null && typeof node === "object"
    ? Object.entries(node).flatMap(([key, value]) => keysOf(value, `${prefix}${key}.`))
    : typeof node === "string" && node.trim() !== ""
      ? [prefix.slice(0, -1).replace(PLURAL, "")]
      : []

/** Every namespace's bundles by language: Map<namespace, Map<language, Set<key>>>. */
export const loadBundles = (root = ROOT) => {
  const dirs = [{ namespace: "shell", dir: join(root, "host/app/src/i18n") }]
  for (const plugin of readdirSync(join(root, "plugins")).sort()) {
    const dir = join(root, "plugins", plugin, "src/i18n")
    if (existsSync(dir)) dirs.push({ namespace: plugin, dir })
  }
  const namespaces = new Map()
  for (const { namespace, dir } of dirs) {
    const byLanguage = new Map(LANGUAGES.map((language) => [language, new Set()]))
    for (const file of readdirSync(dir).filter((f) => f.endsWith(".json"))) {
      const language = LANGUAGES.find((l) => file === `${l}.json` || file.endsWith(`.${l}.json`))
      if (!language) continue
      for (const key of keysOf(JSON.parse(readFileSync(join(dir, file), "utf8")))) byLanguage.get(language).add(key)
    }
    namespaces.set(namespace, byLanguage)
  }
  return namespaces
}

/** Rows of { namespace, language, translated, total, percent, missing } against English. */
export const coverage = (namespaces = loadBundles()) =>
  [...namespaces].flatMap(([namespace, byLanguage]) => {
    const en = byLanguage.get("en")
    return LANGUAGES.map((language) => {
      const keys = byLanguage.get(language)
      const missing = [...en].filter((key) => !keys.has(key))
      const translated = en.size - missing.length
      return {
        namespace,
        language,
        translated,
        total: en.size,
        percent: en.size === 0 ? 100 : (100 * translated) / en.size,
        missing,
        extra: [...keys].filter((key) => !en.has(key)),
      }
    })
  })

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const rows = coverage()
  const namespaces = [...new Set(rows.map((r) => r.namespace))]
  const pad = (s, n) => String(s).padEnd(n)
  console.log(pad("namespace", 12) + LANGUAGES.map((l) => pad(l, 16)).join(""))
  for (const namespace of namespaces) {
    const cells = LANGUAGES.map((language) => {
      const row = rows.find((r) => r.namespace === namespace && r.language === language)
      return pad(`${row.percent.toFixed(1)}% ${row.translated}/${row.total}`, 16)
    })
    console.log(pad(namespace, 12) + cells.join(""))
  }
  const totals = LANGUAGES.map((language) => {
    const mine = rows.filter((r) => r.language === language)
    const translated = mine.reduce((n, r) => n + r.translated, 0)
    const total = mine.reduce((n, r) => n + r.total, 0)
    return pad(`${((100 * translated) / total).toFixed(1)}% ${translated}/${total}`, 16)
  })
  console.log(pad("all", 12) + totals.join(""))
  if (process.argv.includes("--missing"))
    for (const r of rows) if (r.missing.length) console.log(`${r.language}/${r.namespace} missing: ${r.missing.join(", ")}`)
}
