/**
 * The renderer behind `react` and `react-dom` (decision 0011): Preact's compat layer, aliased at build
 * time. The code keeps importing `react`; the app and its DOM tests get `preact/compat` (10 kB gzip
 * where React DOM took 61 kB of the 210 kB budget). Resolved from this package, which depends on preact.
 */
import { dirname } from "node:path"
import { fileURLToPath } from "node:url"

const at = (specifier: string) => fileURLToPath(import.meta.resolve(specifier))

export const preactAliases = (): Array<{ find: RegExp; replacement: string }> => [
  { find: /^react-dom\/client$/, replacement: at("preact/compat/client") },
  { find: /^react-dom\/test-utils$/, replacement: at("preact/test-utils") },
  { find: /^react-dom$/, replacement: at("preact/compat") },
  { find: /^react\/jsx-runtime$/, replacement: at("preact/jsx-runtime") },
  { find: /^react\/jsx-dev-runtime$/, replacement: at("preact/jsx-dev-runtime") },
  { find: /^react$/, replacement: at("preact/compat") },
  // preact's own subpaths from packages that do not depend on it (pnpm keeps them apart)
  { find: /^preact(\/.*)?$/, replacement: `${dirname(at("preact/package.json"))}$1` },
]

/**
 * For the DOM tests (vitest.config.ts): Testing Library's ES module build instead of its CommonJS main,
 * so that its `react-dom` imports go through the aliases above (a CommonJS `require` would load React DOM).
 */
export const testingLibraryOnPreact = (): Array<{ find: RegExp; replacement: string }> => {
  const root = dirname(fileURLToPath(import.meta.resolve("@testing-library/react/package.json")))
  return [
    { find: /^@testing-library\/react$/, replacement: `${root}/dist/@testing-library/react.esm.js` },
    { find: /^use-sync-external-store\/shim\/with-selector(\.js)?$/, replacement: fileURLToPath(new URL("./with-selector-on-preact.ts", import.meta.url)) },
  ]
}
