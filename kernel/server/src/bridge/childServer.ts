/**
 * A second API server process for the bridge's multi-process test and benchmark:
 * `node --import tsx kernel/server/src/bridge/childServer.ts` with DATABASE_URL (PostgreSQL).
 * Prints `ready <url>` once serving; stops on SIGTERM or when stdin closes.
 */
import { startServer } from "../server.ts"

const url = process.env.DATABASE_URL
if (url === undefined || url === "") {
  console.error("DATABASE_URL is required")
  process.exit(2)
}
const server = await startServer({
  port: 0,
  database: { kind: "postgres", url, maxConnections: 4 },
  botToken: "123:bridge-child",
  pluginConfig: { bridge: JSON.parse(process.env.BRIDGE_LIMITS ?? "{}") as object },
})
console.log(`ready ${server.url}`)
const stop = () => {
  server.close().then(
    () => process.exit(0),
    () => process.exit(1),
  )
}
process.on("SIGTERM", stop)
process.stdin.on("end", stop)
process.stdin.resume()
