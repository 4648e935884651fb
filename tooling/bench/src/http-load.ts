/**
 * Load-generator pieces the HTTP benches share: a hand-written keep-alive HTTP/1.1 connection
 * (node:http and fetch cost the shared CPU several times more, and the load generator is not what
 * is measured), the CPU seconds of a process tree from /proc, and percentiles.
 */
import { readdirSync, readFileSync } from "node:fs"
import net from "node:net"

// CPU seconds (user + system) of a process tree, from /proc: the cost
// per request of each side, which other load on the machine moves much less than the rates.
const TICK = 100
export function cpuOfTree(root: number): number {
  let total = 0
  const children = new Map<number, Array<number>>()
  const times = new Map<number, number>()
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8")
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
      const ppid = Number(fields[1])
      // utime + stime, and cutime + cstime (children that ended: pgbench's backends)
      times.set(Number(entry), (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) / TICK)
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)])
    } catch {
      // gone meanwhile
    }
  }
  const walk = (pid: number) => {
    total += times.get(pid) ?? 0
    for (const child of children.get(pid) ?? []) walk(child)
  }
  walk(root)
  return total
}

/** The postmaster of a PostgreSQL on this machine by its URL's port (its backends are its children), or -1. */
export function postmasterPid(url: string): number {
  const port = new URL(url).port
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0")
      if (cmdline[0]?.endsWith("/postgres") && cmdline.includes(`-p`) && cmdline[cmdline.indexOf("-p") + 1] === port) return Number(entry)
      if (cmdline[0]?.endsWith("/postgres") && cmdline.some((arg) => arg === `-p ${port}` || arg.includes(`-p ${port} `))) return Number(entry)
    } catch {
      // gone meanwhile
    }
  }
  return -1
}

/**
 * One keep-alive HTTP/1.1 connection, one request at a time (as each pgbench client runs one
 * transaction at a time), written and parsed by hand: node:http's client costs the shared CPU
 * several times what this does, and the load generator is not what is measured.
 */
export class Connection {
  private readonly socket: net.Socket
  private buffer: Buffer = Buffer.alloc(0)
  private waiting: ((reply: { status: number; body: string }) => void) | undefined
  private failure: ((error: Error) => void) | undefined
  private readonly ready: Promise<void>

  constructor(base: string) {
    const url = new URL(base)
    this.socket = net.connect({ host: url.hostname, port: Number(url.port), noDelay: true })
    this.ready = new Promise((resolve, reject) => {
      this.socket.once("connect", () => resolve())
      this.socket.once("error", reject)
    })
    this.socket.on("data", (chunk: Buffer) => {
      this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk])
      this.parse()
    })
    this.socket.on("error", (error) => this.failure?.(error))
    this.socket.on("close", () => this.failure?.(new Error("connection closed")))
  }

  private parse() {
    const end = this.buffer.indexOf("\r\n\r\n")
    if (end < 0 || this.waiting === undefined) return
    const head = this.buffer.toString("latin1", 0, end)
    const status = Number(head.slice(9, 12))
    const length = /\r\ncontent-length: *(\d+)/i.exec(head)
    let body: string
    let rest: Buffer
    if (length !== null) {
      const total = end + 4 + Number(length[1])
      if (this.buffer.length < total) return
      body = this.buffer.toString("utf8", end + 4, total)
      rest = this.buffer.subarray(total)
    } else if (/\r\ntransfer-encoding: *chunked/i.test(head)) {
      const last = this.buffer.indexOf("\r\n0\r\n\r\n", end)
      if (last < 0) return
      let at = end + 4
      body = ""
      while (at < last + 2) {
        const lineEnd = this.buffer.indexOf("\r\n", at)
        const size = parseInt(this.buffer.toString("latin1", at, lineEnd), 16)
        body += this.buffer.toString("utf8", lineEnd + 2, lineEnd + 2 + size)
        at = lineEnd + 2 + size + 2
      }
      rest = this.buffer.subarray(last + 7)
    } else {
      body = ""
      rest = this.buffer.subarray(end + 4)
    }
    this.buffer = rest
    const done = this.waiting
    this.waiting = undefined
    this.failure = undefined
    done({ status, body })
  }

  async send(method: string, path: string, body: string | undefined, authorization: string): Promise<{ status: number; body: string }> {
    await this.ready
    return new Promise((resolve, reject) => {
      this.waiting = resolve
      this.failure = reject
      const length = body === undefined ? 0 : Buffer.byteLength(body)
      this.socket.write(
        `${method} ${path} HTTP/1.1\r\nhost: bench\r\nauthorization: ${authorization}\r\n` +
          (body === undefined ? "\r\n" : `content-type: application/json\r\ncontent-length: ${length}\r\n\r\n${body}`),
      )
    })
  }

  close() {
    this.socket.destroy()
  }
}

/** The p-th percentile of an ascending list (NaN when empty). */
export const percentile = (sorted: ReadonlyArray<number>, p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN

/** The median of an odd number of figures (the middle run, not the larger of two). */
export const median = (list: ReadonlyArray<number>): number => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!
