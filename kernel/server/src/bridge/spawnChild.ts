/** Starts `childServer.ts` in its own Node process (tests and benchmarks); resolves once it serves. */
import { spawn } from "node:child_process"
import { fileURLToPath } from "node:url"

export interface ChildServer {
  readonly url: string
  stop(): Promise<void>
}

export const spawnChildServer = (databaseUrl: string, limits: object = {}): Promise<ChildServer> =>
  new Promise((resolve, reject) => {
    const script = fileURLToPath(new URL("./childServer.ts", import.meta.url))
    const child = spawn(process.execPath, ["--import", "tsx", script], {
      env: { ...process.env, DATABASE_URL: databaseUrl, BRIDGE_LIMITS: JSON.stringify(limits) },
      stdio: ["pipe", "pipe", "pipe"],
    })
    let output = ""
    const exited = new Promise<void>((done) => child.once("exit", () => done()))
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      const match = /ready (http:\/\/\S+)/.exec(output)
      if (match === null) return
      child.stdout.off("data", onData)
      resolve({
        url: match[1]!,
        stop: async () => {
          if (child.exitCode === null) child.kill("SIGTERM")
          await exited
        },
      })
    }
    child.stdout.on("data", onData)
    child.stderr.on("data", (chunk: Buffer) => {
      output += chunk.toString()
    })
    child.once("exit", (code) => reject(new Error(`bridge child server exited (${code}): ${output}`)))
  })
