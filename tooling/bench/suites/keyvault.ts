/**
 * KeyVault timings (create, unlock with passcode and biometry, v1 upgrade, transport key generation)
 * against the in-memory device-key server double: WebCrypto cost on this machine, no network.
 *
 *   npx tsx tooling/bench/suites/keyvault.ts
 */
import { runKeyVaultBench } from "../../../kernel/core/src/keyvault/bench.ts"

const figures = await runKeyVaultBench()
console.log("key vault (medians of 7, WebCrypto in Node)")
for (const [name, value] of Object.entries(figures)) {
  console.log(`  ${name.padEnd(20)} ${name.endsWith("Ms") ? `${value.toFixed(1)} ms` : value}`)
}
