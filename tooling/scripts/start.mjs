#!/usr/bin/env node
// The README's start command: devnet, KYC partner sandbox, API server and mini-app on embedded defaults, one URL printed.
import { spawn } from "node:child_process"
import { join } from "node:path"
import { ensureDependencies, root, sourceEnv } from "./lib.mjs"

ensureDependencies()

const ports = {
  devnet: Number(process.env.DEVNET_PORT ?? 8091),
  sumsub: Number(process.env.SUMSUB_PORT ?? 8092),
  api: Number(process.env.PORT ?? 8090),
  app: Number(process.env.APP_PORT ?? 5173),
}
const tsx = ["--import", "tsx"]
const services = [
  {
    name: "devnet",
    args: [
      ...tsx,
      join(root, "host/devnet/src/main.ts"),
      "--port",
      String(ports.devnet),
      ...(process.env.DEVNET_DATA_DIR ? ["--data-dir", process.env.DEVNET_DATA_DIR] : []),
      ...(process.argv.includes("--reset") ? ["--reset"] : []),
    ],
    cwd: root,
    ready: /devnet ready (\S+)/,
    env: {},
    stage: 0,
  },
  {
    name: "sumsub",
    args: [...tsx, join(root, "host/partners/src/main.ts"), "--port", String(ports.sumsub)],
    cwd: root,
    ready: /sumsub ready (\S+)/,
    env: {
      SUMSUB_WEBHOOK_URL: process.env.SUMSUB_WEBHOOK_URL ?? `http://127.0.0.1:${ports.api}/api/kyc/webhooks/sumsub`,
      RAMP_MOONPAY_WEBHOOK_URL: process.env.RAMP_MOONPAY_WEBHOOK_URL ?? `http://127.0.0.1:${ports.api}/api/ramp/webhooks/moonpay`,
      RAMP_MERCURYO_WEBHOOK_URL: process.env.RAMP_MERCURYO_WEBHOOK_URL ?? `http://127.0.0.1:${ports.api}/api/ramp/webhooks/mercuryo`,
    },
    stage: 0,
  },
  {
    name: "api",
    args: [...tsx, join(root, "host/server/src/main.ts"), "--port", String(ports.api)],
    cwd: root,
    ready: /api ready (\S+)/,
    env: { WALLET_DEV: "1", CHAIN_API_URL: `http://127.0.0.1:${ports.devnet}` },
    stage: 1,
  },
  {
    name: "app",
    args: [join(root, "node_modules/vite/bin/vite.js"), "--port", String(ports.app), "--strictPort"],
    cwd: join(root, "host/app"),
    ready: /Local:\s+(http\S+)/,
    env: { WALLET_API_URL: `http://127.0.0.1:${ports.api}` },
    stage: 2,
  },
]

const children = []
let stopping = false
const stop = (code = 0) => {
  if (stopping) return
  stopping = true
  console.log("\n[start] stopping…")
  for (const child of children) if (child.exitCode === null) child.kill("SIGINT")
  const deadline = setTimeout(() => {
    for (const child of children) if (child.exitCode === null) child.kill("SIGKILL")
    process.exit(code)
  }, 10_000)
  Promise.all(children.map((c) => (c.exitCode === null ? new Promise((r) => c.once("exit", r)) : null))).then(() => {
    clearTimeout(deadline)
    process.exit(code)
  })
}
process.on("SIGINT", () => stop(0))
process.on("SIGTERM", () => stop(0))

const startService = (service) =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, service.args, {
      cwd: service.cwd,
      env: { ...sourceEnv(), ...service.env, FORCE_COLOR: "0", NO_COLOR: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    })
    children.push(child)
    let ready = false
    const onLine = (stream) => (chunk) => {
      const text = chunk.toString()
      // oxlint-disable-next-line no-control-regex
      const plain = text.replace(/\x1b\[[0-9;]*m/g, "")
      for (const line of plain.split("\n")) {
        if (!line.trim()) continue
        stream.write(`[${service.name}] ${line}\n`)
        const match = !ready && line.match(service.ready)
        if (match) {
          ready = true
          resolve(match[1])
        }
      }
    }
    child.stdout.on("data", onLine(process.stdout))
    child.stderr.on("data", onLine(process.stderr))
    child.on("exit", (code) => {
      if (!ready) reject(new Error(`${service.name} exited with ${code} before it was ready`))
      else if (!stopping) {
        console.error(`[start] ${service.name} exited with ${code}`)
        stop(1)
      }
    })
  })

try {
  const started = Date.now()
  // by stage: the devnet and the partner sandbox start together, then the API server, then the app
  for (const stage of [0, 1, 2]) await Promise.all(services.filter((s) => s.stage === stage).map(startService))
  const url = `http://127.0.0.1:${ports.app}/launch.html`
  console.log(
    `\n[start] ready in ${((Date.now() - started) / 1000).toFixed(1)} s. Open the dev launch page:\n\n    ${url}\n\nCtrl-C stops everything; data stays in .data/ (npm start -- --reset starts the chain fresh).`,
  )
} catch (error) {
  console.error(`[start] ${error instanceof Error ? error.message : error}`)
  stop(1)
}
