/**
 * What the routes and the delivery loop share: the database, the resolved options and the chaos
 * settings of the moment (changeable while running).
 */
import type { PGlite } from "@electric-sql/pglite"
import type { Chaos, SandboxConfig } from "./config.ts"

export interface SandboxContext {
  readonly db: PGlite
  readonly config: SandboxConfig
  readonly chaos: () => Readonly<Required<Chaos>>
}
