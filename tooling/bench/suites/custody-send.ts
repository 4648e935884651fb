/**
 * Custody send, client side: QR parsing throughput over a mix of real-world texts (ton-transfer with
 * nano amounts, ton:, bitcoin:, wallet links, plain addresses of every network, junk) and the amount
 * rules run on every keystroke of the send form. Pure CPU, no network.
 *
 *   npx tsx tooling/bench/suites/custody-send.ts
 */
import { parseQr } from "../../../plugins/custody/src/client/send/qr.ts"
import { amountProblem, maxAmount } from "../../../plugins/custody/src/client/send/logic.ts"

const TON = "EQDtFpEwcFAEcRe5mLVh2N6C0x-_hJEM7W61_JLnSF74p4q2"
const texts = [
  `ton://transfer/${TON}?amount=1500000000&text=coffee`,
  `ton:${TON}?amount=3.25`,
  "bitcoin:bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq?amount=0.001",
  "https://t.me/wallet?startapp=tonwallet_tg_transfer_42",
  "0x52908400098527886E0F7030069857D2E4169EE7",
  "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t",
  "7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV",
  "just some words on a poster",
]

const time = (rounds: number, fn: () => void) => {
  for (let i = 0; i < 2000; i++) fn()
  const samples: number[] = []
  for (let s = 0; s < 7; s++) {
    const start = performance.now()
    for (let i = 0; i < rounds; i++) fn()
    samples.push((performance.now() - start) / rounds)
  }
  return samples.sort((a, b) => a - b)[3]!
}

let i = 0
const qrMs = time(50_000, () => void parseQr(texts[i++ % texts.length]!))
const limits = { decimals: 9, balance: 132_490_000_000n, fee: 10_000_000n, min: 10_000_000n, max: 100_000_000_000_000n }
const values = ["", "0", "0.5", "12.345678901", "99999", "132.48"]
let j = 0
const amountMs = time(200_000, () => {
  amountProblem(values[j++ % values.length]!, limits)
  maxAmount(limits)
})

console.log("custody send, client rules (median of 7)")
console.log(
  `  parseQr              ${(qrMs * 1000).toFixed(2)} µs/text  (${Math.round((1 / qrMs) * 1000).toLocaleString("en")} texts/s, ${texts.length}-text mix)`,
)
console.log(`  amount rules         ${(amountMs * 1000).toFixed(2)} µs/keystroke  (check + max)`)
