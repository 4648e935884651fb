import { assert, describe, it } from "@effect/vitest"
import { Effect, Exit } from "effect"
import { fromHex, toBase64Url } from "./crypto.ts"
import { encodeBlob, decodeBlob } from "./format.ts"
import { ADDRESS, MNEMONIC, PRIVATE_KEY } from "./fixtures.ts"
import { makeTestVault } from "./testing.ts"
import { KeyVault, toCredentials } from "./vault.ts"

const PASSCODE = "2468"
const BIOMETRY = "server-biometry-token-abcdefghijklmnop"

/** Every form in which the secret could leak: words, phrase, key hex / base64 / base64url. */
const leaks = (text: string): Array<string> => {
  const found: Array<string> = []
  const lower = text.toLowerCase()
  for (const word of MNEMONIC) if (new RegExp(`(^|[^a-z0-9_])${word}([^a-z0-9_]|$)`).test(lower)) found.push(`word ${word}`)
  if (lower.includes(MNEMONIC.join(""))) found.push("phrase without spaces")
  const key = fromHex(PRIVATE_KEY)
  for (const form of [PRIVATE_KEY, btoa(String.fromCharCode(...key)), toBase64Url(key)])
    if (text.includes(form) || lower.includes(form.toLowerCase())) found.push("private key")
  return found
}

/** A stored blob is scanned as stored and with its JSON decoded. */
const expand = (value: string): string => {
  const blob = decodeBlob(value)
  return blob === null ? value : `${value}\n${JSON.stringify(blob)}\n${encodeBlob(blob)}`
}

describe("KeyVault secrecy", () => {
  it.effect("the mnemonic and private key never appear in storage writes, requests, logs or errors", () => {
    const plain = JSON.stringify({ address: ADDRESS, mnemonic: MNEMONIC, privateKey: PRIVATE_KEY })
    const main = makeTestVault({ passcode: PASSCODE, biometryToken: BIOMETRY, maxAttempts: 3 })
    const migrating = makeTestVault({ passcode: PASSCODE, store: { "keyvault.plain": plain } })
    const errors: Array<unknown> = []
    const outputs: Array<unknown> = []
    const collect = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
      Effect.exit(effect).pipe(
        Effect.map((exit) => {
          if (Exit.isFailure(exit)) errors.push(exit.cause)
          else outputs.push(exit.value)
        }),
      )

    const journey = Effect.gen(function* () {
      const vault = yield* KeyVault
      const credentials = toCredentials({ address: ADDRESS, mnemonic: MNEMONIC, privateKey: PRIVATE_KEY })
      yield* collect(
        vault.create({ credentials: toCredentials({ address: ADDRESS, mnemonic: [...MNEMONIC, "extra"], privateKey: PRIVATE_KEY }), passcode: PASSCODE }),
      )
      yield* collect(vault.create({ credentials, passcode: PASSCODE }))
      yield* collect(vault.unlockWithPasscode(PASSCODE))
      yield* collect(vault.unlockWithPasscode("0000"))
      yield* collect(vault.enableBiometry({ passcode: PASSCODE, serverBiometryToken: BIOMETRY }))
      yield* collect(vault.unlockWithBiometry())
      yield* collect(vault.changePasscode({ current: PASSCODE, next: "135790" }))
      yield* collect(vault.unlockWithPasscode(PASSCODE))
      yield* collect(vault.exportRecovery(PASSCODE))
      // Tampering: the ciphertext becomes valid base64 of other bytes; plaintext must not surface.
      const stored = main.store.map.get("keyvault.blob")!
      main.store.map.set("keyvault.blob", stored.slice(0, -8) + "AAAAAAAA")
      yield* collect(vault.unlockWithPasscode(PASSCODE))
      main.store.map.set("keyvault.blob", "v2:not-json")
      yield* collect(vault.unlockWithPasscode(PASSCODE))
      for (let i = 0; i < 4; i++) yield* collect(vault.unlockWithPasscode("9999"))
      yield* collect(vault.status())
      yield* collect(vault.clear())
    })
    const migration = Effect.gen(function* () {
      const vault = yield* KeyVault
      yield* collect(vault.migratePlain({ passcode: PASSCODE }))
      yield* collect(vault.unlockWithPasscode(PASSCODE))
      yield* collect(vault.removePlainAfterBackup(true))
    })

    return Effect.gen(function* () {
      yield* journey.pipe(Effect.provide(main.layer))
      yield* migration.pipe(Effect.provide(migrating.layer))
      // The journey really ran: blobs were written, the server was asked, errors happened.
      assert.isAtLeast(main.store.writes.length, 4)
      assert.isAbove(main.server.requests.length, 6)
      assert.isAbove(errors.length, 5)
      assert.isAbove(main.logger.entries.length, 5)

      const emitted: Array<[string, string]> = []
      for (const t of [main, migrating]) {
        for (const w of t.store.writes) emitted.push([`store write ${w.key}`, expand(w.value)])
        for (const r of t.server.requests) emitted.push(["server request", JSON.stringify(r)])
        for (const l of t.logger.entries) emitted.push(["log", JSON.stringify(l)])
        emitted.push(["biometric token", t.biometry.state.token])
      }
      for (const e of errors) emitted.push(["error", `${String(e)}\n${JSON.stringify(e)}`])
      for (const o of outputs) emitted.push(["result", `${String(o)}\n${JSON.stringify(o) ?? ""}`])
      const found = emitted.flatMap(([where, text]) => leaks(text).map((leak) => `${leak} in ${where}`))
      assert.deepStrictEqual(found, [])
      // The scanner itself finds a leak (guards against a scan that can never fail).
      assert.isNotEmpty(leaks(plain))
      assert.isNotEmpty(leaks(`key=${PRIVATE_KEY}`))
    })
  })
})
