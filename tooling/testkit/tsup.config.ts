import { defineConfig } from "tsup"
import { packageBuild } from "../scripts/tsup-package.mjs"

// Node code (child processes, Vite preview, Chromium) beside one browser entry without imports.
export default defineConfig(packageBuild(import.meta.dirname, { platform: "node" }))
