/**
 * For the DOM tests only (vitest.config.ts, decision 0011): `use-sync-external-store`'s
 * `shim/with-selector`, which TanStack's stores use, is CommonJS, and its `require("react")` would load
 * React beside the Preact the tests render with (hooks then fail: two renderers). This runs the
 * package's own file with a `require` that answers `react` with `preact/compat`, as the app's build
 * does through its alias; the code is the package's, unchanged.
 */
import { readFileSync } from "node:fs"
import { createRequire } from "node:module"
import * as compat from "preact/compat"

// Found the way the app's build finds it: the router's store package depends on it.
const router = createRequire(import.meta.url).resolve("@tanstack/react-router")
const store = createRequire(router).resolve("@tanstack/react-store")
const shim = createRequire(store).resolve("use-sync-external-store/shim/with-selector")
const file = shim.replace(/shim[\\/]with-selector\.js$/, "cjs/use-sync-external-store-shim/with-selector.development.js")
const loaded: { exports: Record<string, unknown> } = { exports: {} }
const answer = (id: string): unknown => {
  if (id === "react") return compat
  if (id === "use-sync-external-store/shim") return { useSyncExternalStore: compat.useSyncExternalStore }
  throw new Error(`with-selector-on-preact: unexpected require("${id}")`)
}
// eslint-disable-next-line no-new-func -- evaluating the package's CommonJS file with our require
new Function("module", "exports", "require", "process", readFileSync(file, "utf8"))(loaded, loaded.exports, answer, { env: { NODE_ENV: "development" } })

export const useSyncExternalStoreWithSelector = loaded.exports.useSyncExternalStoreWithSelector as <Snapshot, Selection>(
  subscribe: (onStoreChange: () => void) => () => void,
  getSnapshot: () => Snapshot,
  getServerSnapshot: undefined | null | (() => Snapshot),
  selector: (snapshot: Snapshot) => Selection,
  isEqual?: (a: Selection, b: Selection) => boolean,
) => Selection
