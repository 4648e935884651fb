// @ton/core reads `globalThis.Buffer`, which browsers lack. Imported first by ./index.ts so it runs
// before any TON library module is evaluated.
import { Buffer } from "buffer"

const scope = globalThis as { Buffer?: unknown }
if (scope.Buffer === undefined) scope.Buffer = Buffer

export const BUFFER_INSTALLED = true
