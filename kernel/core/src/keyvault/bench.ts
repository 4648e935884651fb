/**
 * Key vault timings (run: `npx tsx kernel/core/src/keyvault/bench.ts [runs]`; the browser figures
 * come from the same function bundled into a Chromium page). Everything runs against the in-memory
 * test doubles, so the figures are the client's crypto cost plus the double's RSA wrap, without
 * network latency.
 */
import { Effect, Layer } from "effect"
import { aesEncrypt, generateTransportKeyPair, IV_BYTES, pbkdf2AesKey, randomBytes, SALT_BYTES, toBase64Url, utf8 } from "./crypto.ts"
import { ADDRESS, MNEMONIC, PRIVATE_KEY } from "./fixtures.ts"
import { encodeBlob } from "./format.ts"
import { makeTestVault } from "./testing.ts"
import { KeyVault, toCredentials } from "./vault.ts"

const median = (values: ReadonlyArray<number>) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]!
}

const time = async (run: () => Promise<unknown>) => {
  const start = performance.now()
  await run()
  return performance.now() - start
}

export interface KeyVaultBench {
  readonly runs: number
  /** RSA-2048 transport key generation (once per page; `warmUp` hides it). */
  readonly transportKeygenMs: number
  readonly createMs: number
  readonly unlockPasscodeMs: number
  readonly unlockBiometryMs: number
  /** Unlock of a v1 blob including its rewrite as v2. */
  readonly unlockV1UpgradeMs: number
}

export const runKeyVaultBench = async (runs = 7): Promise<KeyVaultBench> => {
  const passcode = "482915"
  const credentials = toCredentials({ address: ADDRESS, mnemonic: MNEMONIC, privateKey: PRIVATE_KEY })
  const keygen: number[] = []
  for (let i = 0; i < Math.max(3, Math.ceil(runs / 2)); i++) keygen.push(await time(generateTransportKeyPair))

  const t = makeTestVault({ passcode, biometryToken: "b".repeat(32), maxAttempts: 1_000_000 })
  const run = <A, E>(effect: Effect.Effect<A, E, KeyVault>) => Effect.runPromise(Effect.provide(effect, t.layer as Layer.Layer<KeyVault>))
  const vault = await run(
    Effect.gen(function* () {
      return yield* KeyVault
    }),
  )
  await Effect.runPromise(vault.warmUp())
  await Effect.runPromise(vault.unlockWithPasscode(passcode).pipe(Effect.ignore))

  const create: number[] = []
  const unlock: number[] = []
  const biometry: number[] = []
  const upgrade: number[] = []
  for (let i = 0; i < runs; i++) {
    create.push(await time(() => Effect.runPromise(vault.create({ credentials, passcode }))))
    unlock.push(await time(() => Effect.runPromise(vault.unlockWithPasscode(passcode))))
  }
  await Effect.runPromise(vault.enableBiometry({ passcode, serverBiometryToken: "b".repeat(32) }))
  for (let i = 0; i < runs; i++) biometry.push(await time(() => Effect.runPromise(vault.unlockWithBiometry())))
  for (let i = 0; i < runs; i++) {
    const salt = randomBytes(SALT_BYTES)
    const iv = randomBytes(IV_BYTES)
    const ct = await aesEncrypt(await pbkdf2AesKey(passcode, salt), iv, utf8(JSON.stringify({ address: ADDRESS, mnemonic: MNEMONIC, privateKey: PRIVATE_KEY })))
    t.store.map.set("keyvault.blob", encodeBlob({ version: 1, blob: { salt: toBase64Url(salt), iv: toBase64Url(iv), ct: toBase64Url(ct) } }))
    upgrade.push(await time(() => Effect.runPromise(vault.unlockWithPasscode(passcode))))
  }
  return {
    runs,
    transportKeygenMs: median(keygen),
    createMs: median(create),
    unlockPasscodeMs: median(unlock),
    unlockBiometryMs: median(biometry),
    unlockV1UpgradeMs: median(upgrade),
  }
}

const isMain = typeof process !== "undefined" && process.argv?.[1]?.endsWith("keyvault/bench.ts")
if (isMain) {
  void runKeyVaultBench(Number(process.argv[2] ?? 7)).then((figures) => {
    for (const [name, value] of Object.entries(figures)) console.log(`${name.padEnd(20)} ${name.endsWith("Ms") ? `${value.toFixed(1)} ms (median)` : value}`)
  })
}
