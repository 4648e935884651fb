// TON libraries read `globalThis.Buffer`; the browser has none. Imported first by ./wallet.ts so it runs before them.
import { Buffer } from "buffer"

const scope = globalThis as { Buffer?: unknown }
if (scope.Buffer === undefined) scope.Buffer = Buffer

export const BUFFER_INSTALLED = true
