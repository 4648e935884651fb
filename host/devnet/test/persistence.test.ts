/* oxlint-disable typescript/no-explicit-any -- JSON responses are explored loosely in tests */
import { spawn } from "node:child_process"
import fs from "node:fs"
import os from "node:os"
import path from "node:path"
import { fileURLToPath } from "node:url"
import { Address, toNano } from "@ton/core"
import { describe, expect, it } from "vitest"
import { startDevnet } from "../src/index.ts"
import { Api } from "./helpers.ts"

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), "devnet-test-"))
const who = new Address(0, Buffer.alloc(32, 0x5a)).toRawString()

describe("persistence and network id", () => {
  it("keeps chain state and indexes across restarts; --reset starts fresh", async () => {
    const dir = tmp()
    const first = await startDevnet({ dataDir: dir, blockMs: 0 })
    const usdt = first.jetton("usdt")
    await first.faucet({ address: who, ton: toNano("2"), jetton: "usdt" })
    await first.stepBlock()
    const before = await new Api(first.url).get(`/v2/accounts/${who}/events?limit=10`)
    await first.close()
    expect(fs.readdirSync(dir).sort()).toEqual(["chain.json", "meta.json", "traces.jsonl"])

    const second = await startDevnet({ dataDir: dir, blockMs: 0 })
    const api = new Api(second.url)
    expect(second.jetton("usdt")).toBe(usdt)
    expect((await api.get(`/v2/accounts/${who}`)).balance).toBeGreaterThanOrEqual(2_000_000_000)
    expect(await api.get(`/v2/accounts/${who}/events?limit=10`)).toEqual(before)
    expect((await api.get(`/v2/accounts/${who}/jettons`)).balances).toHaveLength(1)
    // the chain keeps working after a restart
    await second.faucet({ address: who, ton: toNano("1") })
    await second.stepBlock()
    expect((await api.get(`/v2/accounts/${who}/events?limit=10`)).events).toHaveLength(2)
    await second.close()

    const fresh = await startDevnet({ dataDir: dir, blockMs: 0, reset: true })
    expect((await new Api(fresh.url).get(`/v2/accounts/${who}`)).status).toBe("nonexist")
    expect((await new Api(fresh.url).get(`/v2/accounts/${who}/events?limit=10`)).events).toHaveLength(0)
    await fresh.close()
  }, 60_000)

  it("renders test-only friendly addresses and testnet wallet ids with --global-id -3", async () => {
    const main = await startDevnet({ blockMs: 0 })
    const test = await startDevnet({ blockMs: 0, globalId: -3 })
    const infoMain = await new Api(main.url).get("/v2/devnet/info")
    const infoTest = await new Api(test.url).get("/v2/devnet/info")
    expect(infoMain.global_id).toBe(-239)
    expect(infoTest.global_id).toBe(-3)
    expect(infoMain.jettons.usdt.friendly.startsWith("EQ")).toBe(true)
    expect(infoTest.jettons.usdt.friendly.startsWith("kQ")).toBe(true)
    // the relay is a W5R1 wallet: its wallet_id (and so its address) depends on the network id
    expect(infoTest.relay).not.toBe(infoMain.relay)
    await main.close()
    await test.close()
  }, 60_000)

  it("the process entry prints one ready line, serves, and persists on SIGTERM", async () => {
    const dir = tmp()
    const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..")
    const startProc = () => {
      const child = spawn(process.execPath, ["--import", "tsx", "host/devnet/src/main.ts", "--port", "0", "--data-dir", dir, "--block-ms", "100"], {
        cwd: root,
        stdio: ["ignore", "pipe", "pipe"],
      })
      let out = ""
      const ready = new Promise<string>((resolve, reject) => {
        child.stdout.on("data", (d: Buffer) => {
          out += d.toString()
          const m = /devnet ready (http:\/\/127\.0\.0\.1:\d+)\n/.exec(out)
          if (m) resolve(m[1]!)
        })
        child.once("exit", (code) => reject(new Error(`exited ${code}`)))
      })
      const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)))
      return { child, ready, exited, output: () => out }
    }
    const p1 = startProc()
    const url = await p1.ready
    const api = new Api(url)
    await api.post("/v2/devnet/faucet", { address: who, ton: "3000000000" })
    let balance = 0
    for (let i = 0; i < 50 && balance === 0; i++) {
      await new Promise((r) => setTimeout(r, 100))
      balance = (await api.get(`/v2/accounts/${who}`)).balance
    }
    expect(balance).toBe(3_000_000_000)
    p1.child.kill("SIGTERM")
    expect(await p1.exited).toBe(0)
    expect(p1.output().trim().split("\n")).toEqual([`devnet ready ${url}`])

    const p2 = startProc()
    const url2 = await p2.ready
    expect((await new Api(url2).get(`/v2/accounts/${who}`)).balance).toBe(3_000_000_000)
    p2.child.kill("SIGINT")
    expect(await p2.exited).toBe(0)
  }, 60_000)
})
