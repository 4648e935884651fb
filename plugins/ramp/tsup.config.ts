import { defineConfig } from "tsup"
import { packageBuild } from "../../tooling/scripts/tsup-package.mjs"

export default defineConfig(packageBuild(import.meta.dirname))
