/**
 * TonConnect wallet engine benchmark (plugins/tonconnect/test/bench.ts):
 *
 * 1. CPU: ton_proof digest + signature, decoding and validating a 255-message sendTransaction,
 *    building and signing the W5R1 external (1 and 255 messages), session encrypt + decrypt;
 * 2. end to end: a dApp (SessionCrypto over the bridge's HTTP endpoints) sends `--requests`
 *    signData requests one after another to the engine through the real bridge (API server on
 *    PGlite); the engine approves each as it arrives. Prints the request-to-answer latency p50/p99.
 *
 *   npx tsx tooling/bench/suites/tonconnect.ts [--requests 200]
 */
import { parseArgs } from "node:util"
import { runTonConnectBench } from "../../../plugins/tonconnect/test/bench.ts"

const { values } = parseArgs({ options: { requests: { type: "string", default: "200" } } })
await runTonConnectBench(Number(values.requests))
