import { assert, describe, it } from "@effect/vitest"
import { Effect, Redacted } from "effect"
import { TestClock } from "effect/testing"
import { aesDecrypt, aesEncrypt, fromBase64Url, hkdfAesKey, IV_BYTES, pbkdf2AesKey, pbkdf2Bits, randomBytes, SALT_BYTES, toBase64Url, utf8 } from "./crypto.ts"
import { decodeBlob, encodeBlob, v2AssociatedData, type BlobV2 } from "./format.ts"
import { makeTestVault } from "./testing.ts"
import { ADDRESS, MNEMONIC, PRIVATE_KEY } from "./fixtures.ts"
import { serverBiometryToken } from "../passcode.ts"
import { KeyVault, needsForcedLogout, openRecoverySplit, toCredentials } from "./vault.ts"

const PASSCODE = "482915"

const credentials = () => toCredentials({ address: ADDRESS, mnemonic: MNEMONIC, privateKey: PRIVATE_KEY })

const storedV2 = (map: Map<string, string>): BlobV2 => {
  const blob = decodeBlob(map.get("keyvault.blob")!)
  if (blob?.version !== 2) throw new Error("expected a v2 blob")
  return blob.blob
}

const v1Blob = async (passphrase: string) => {
  const salt = randomBytes(SALT_BYTES)
  const iv = randomBytes(IV_BYTES)
  const ct = await aesEncrypt(await pbkdf2AesKey(passphrase, salt), iv, utf8(JSON.stringify({ address: ADDRESS, mnemonic: MNEMONIC, privateKey: PRIVATE_KEY })))
  return encodeBlob({ version: 1, blob: { salt: toBase64Url(salt), iv: toBase64Url(iv), ct: toBase64Url(ct) } })
}

const expectSecrets = (creds: { mnemonic: Redacted.Redacted<ReadonlyArray<string>>; privateKey: Redacted.Redacted<string>; address: string }) => {
  assert.deepStrictEqual(Redacted.value(creds.mnemonic), MNEMONIC)
  assert.strictEqual(Redacted.value(creds.privateKey), PRIVATE_KEY)
  assert.strictEqual(creds.address, ADDRESS)
}

describe("KeyVault", () => {
  it.effect("creates a v2 blob and opens it with the passcode; credentials print redacted", () => {
    const t = makeTestVault({ passcode: PASSCODE })
    return Effect.gen(function* () {
      const vault = yield* KeyVault
      yield* vault.create({ credentials: credentials(), passcode: PASSCODE })
      assert.match(t.store.map.get("keyvault.blob")!, /^v2:/)
      const status = yield* vault.status()
      assert.deepStrictEqual(
        { ...status },
        { version: 2, address: ADDRESS, externalId: "ext-1", passcodeSlots: 1, biometry: false, server: false, plain: false },
      )
      const creds = yield* vault.unlockWithPasscode(PASSCODE)
      expectSecrets(creds)
      assert.notInclude(JSON.stringify(creds), "zebra")
      assert.notInclude(String(creds.mnemonic), "zebra")
    }).pipe(Effect.provide(t.layer))
  })

  it.effect("lock state: remembered credentials until the unlock time passes; lock and zero clear them", () => {
    const t = makeTestVault({ passcode: PASSCODE })
    return Effect.gen(function* () {
      const vault = yield* KeyVault
      yield* vault.create({ credentials: credentials(), passcode: PASSCODE })
      yield* vault.unlockWithPasscode(PASSCODE)
      assert.isNull(yield* vault.remembered())
      yield* vault.unlockWithPasscode(PASSCODE, { rememberForMs: 60_000 })
      expectSecrets((yield* vault.remembered())!)
      yield* TestClock.adjust("59 seconds")
      assert.isNotNull(yield* vault.remembered())
      yield* TestClock.adjust("1 second")
      assert.isNull(yield* vault.remembered())
      yield* vault.unlockWithPasscode(PASSCODE, { rememberForMs: 60_000 })
      yield* vault.lock()
      assert.isNull(yield* vault.remembered())
      yield* vault.unlockWithPasscode(PASSCODE, { rememberForMs: 60_000 })
      yield* vault.unlockWithPasscode(PASSCODE, { rememberForMs: 0 })
      assert.isNull(yield* vault.remembered())
    }).pipe(Effect.provide(t.layer))
  })

  it.effect("rejects invalid credentials before anything is stored", () => {
    const t = makeTestVault({ passcode: PASSCODE })
    return Effect.gen(function* () {
      const vault = yield* KeyVault
      const error = yield* Effect.flip(
        vault.create({ credentials: toCredentials({ address: ADDRESS, mnemonic: MNEMONIC.slice(1), privateKey: PRIVATE_KEY }), passcode: PASSCODE }),
      )
      assert.strictEqual(error._tag, "InvalidCredentials")
      assert.strictEqual(t.store.writes.length, 0)
    }).pipe(Effect.provide(t.layer))
  })

  it.effect("a wrong passcode is refused by the server with remaining attempts, then attempts are exhausted", () => {
    const t = makeTestVault({ passcode: PASSCODE, maxAttempts: 3 })
    return Effect.gen(function* () {
      const vault = yield* KeyVault
      yield* vault.create({ credentials: credentials(), passcode: PASSCODE })
      const first = yield* Effect.flip(vault.unlockWithPasscode("000000"))
      assert.strictEqual(first._tag, "PasscodeRejected")
      assert.deepStrictEqual(first._tag === "PasscodeRejected" && [first.code, first.remainingAttempts], ["passcode_wrong", 2])
      yield* Effect.flip(vault.unlockWithPasscode("111111"))
      const third = yield* Effect.flip(vault.unlockWithPasscode("222222"))
      assert.deepStrictEqual(third._tag === "PasscodeRejected" && [third.code, third.remainingAttempts], ["passcode_wrong", 0])
      // Now even the right passcode is refused: the device key stays on the server.
      const locked = yield* Effect.flip(vault.unlockWithPasscode(PASSCODE))
      assert.deepStrictEqual(locked._tag === "PasscodeRejected" && locked.code, "passcode_exceeded_max_attempts")
    }).pipe(Effect.provide(t.layer))
  })

  it.effect("a right passcode resets the attempt count", () => {
    const t = makeTestVault({ passcode: PASSCODE, maxAttempts: 2 })
    return Effect.gen(function* () {
      const vault = yield* KeyVault
      yield* vault.create({ credentials: credentials(), passcode: PASSCODE })
      yield* Effect.flip(vault.unlockWithPasscode("000000"))
      expectSecrets(yield* vault.unlockWithPasscode(PASSCODE))
      const again = yield* Effect.flip(vault.unlockWithPasscode("000000"))
      assert.deepStrictEqual(again._tag === "PasscodeRejected" && again.remainingAttempts, 1)
    }).pipe(Effect.provide(t.layer))
  })

  it.effect("a tampered blob fails the GCM tag with the spec's text", () => {
    const t = makeTestVault({ passcode: PASSCODE })
    return Effect.gen(function* () {
      const vault = yield* KeyVault
      yield* vault.create({ credentials: credentials(), passcode: PASSCODE })
      const blob = storedV2(t.store.map)
      const ct = fromBase64Url(blob.ct)
      ct[5]! ^= 0x01
      t.store.map.set("keyvault.blob", encodeBlob({ version: 2, blob: { ...blob, ct: toBase64Url(ct) } }))
      const error = yield* Effect.flip(vault.unlockWithPasscode(PASSCODE))
      assert.strictEqual(error._tag, "DecryptFailed")
      assert.strictEqual(error.message, "Failed to decrypt client side wallet creds")
      assert.isTrue(t.logger.entries.some((e) => e.level === "report" && e.event === "decrypt.failed"))
      // A swapped address (the header is associated data) fails the same way.
      const other = "UQDifferentAddressDifferentAddressDifferentAddr0"
      t.store.map.set("keyvault.blob", encodeBlob({ version: 2, blob: { ...blob, address: other } }))
      t.server.keys.get(blob.externalId)!.address = other
      const swapped = yield* Effect.flip(vault.unlockWithPasscode(PASSCODE))
      assert.strictEqual(swapped._tag, "DecryptFailed")
    }).pipe(Effect.provide(t.layer))
  })

  it.effect("a copied v2 blob does not open with the passcode alone", () => {
    const t = makeTestVault({ passcode: PASSCODE })
    return Effect.gen(function* () {
      const vault = yield* KeyVault
      yield* vault.create({ credentials: credentials(), passcode: PASSCODE })
      const blob = storedV2(t.store.map)
      const slot = blob.slots.passcode![0]!
      const aad = v2AssociatedData(blob, "slot:passcode")
      // Even knowing the right passcode, an attacker without the device key derives a useless key:
      // with the v1 derivation, or with the v2 combination and any guess of the device key.
      const guesses = [
        () => pbkdf2AesKey(PASSCODE, fromBase64Url(slot.salt)),
        async () => hkdfAesKey([await pbkdf2Bits(PASSCODE, fromBase64Url(slot.salt)), new Uint8Array(32)], "slot:passcode"),
        async () => hkdfAesKey([await pbkdf2Bits(PASSCODE, fromBase64Url(slot.salt))], "slot:passcode"),
      ]
      for (const guess of guesses) {
        const opened = yield* Effect.promise(async () =>
          aesDecrypt(await guess(), fromBase64Url(slot.iv), fromBase64Url(slot.wk), aad).then(
            () => true,
            () => false,
          ),
        )
        assert.isFalse(opened)
      }
      // On another installation (a server that does not know the externalId) the copy is dead too.
      const thief = makeTestVault({ passcode: PASSCODE, store: { "keyvault.blob": t.store.map.get("keyvault.blob")! } })
      const error = yield* Effect.flip(
        Effect.gen(function* () {
          return yield* (yield* KeyVault).unlockWithPasscode(PASSCODE)
        }).pipe(Effect.provide(thief.layer)),
      )
      assert.strictEqual(error._tag, "ExternalIdNotFound")
      assert.strictEqual(error.message, "externalId not found")
    }).pipe(Effect.provide(t.layer))
  })

  it.effect("no blob and no plain credentials: the spec's not-found text, and a forced logout when an address exists", () => {
    const t = makeTestVault({ passcode: PASSCODE })
    return Effect.gen(function* () {
      const vault = yield* KeyVault
      assert.isTrue(needsForcedLogout(yield* vault.status(), true))
      assert.isFalse(needsForcedLogout(yield* vault.status(), false))
      t.store.map.set("keyvault.plain", JSON.stringify({ address: ADDRESS, mnemonic: MNEMONIC, privateKey: PRIVATE_KEY }))
      assert.isFalse(needsForcedLogout(yield* vault.status(), true))
      t.store.map.delete("keyvault.plain")
      const error = yield* Effect.flip(vault.unlockWithPasscode(PASSCODE))
      assert.strictEqual(error._tag, "CredsNotFound")
      assert.strictEqual(error.message, "Client side encrypted wallet creds not found")
    }).pipe(Effect.provide(t.layer))
  })

  it.effect("a v1 blob opens with the passcode and is rewritten as v2 after the server confirms the passcode", () =>
    Effect.gen(function* () {
      const t = makeTestVault({ passcode: PASSCODE, store: { "keyvault.blob": yield* Effect.promise(() => v1Blob(PASSCODE)) } })
      yield* Effect.gen(function* () {
        const vault = yield* KeyVault
        assert.strictEqual((yield* vault.status()).version, 1)
        expectSecrets(yield* vault.unlockWithPasscode(PASSCODE))
        assert.match(t.store.map.get("keyvault.blob")!, /^v2:/)
        assert.deepStrictEqual(storedV2(t.store.map).slots.passcode?.length, 1)
        assert.deepStrictEqual(
          t.server.requests.map((r: any) => r.method),
          ["generate", "get"],
        )
        assert.isTrue(t.logger.entries.some((e) => e.event === "blob.upgraded" && e.fields.from === 1 && e.fields.to === 2))
        // The upgraded blob opens through the server path.
        expectSecrets(yield* vault.unlockWithPasscode(PASSCODE))
        assert.strictEqual(t.server.requests.length, 3)
      }).pipe(Effect.provide(t.layer))
    }),
  )

  it.effect("a v1 blob with a wrong passcode fails and stays v1; a failed upgrade keeps v1 and still unlocks", () =>
    Effect.gen(function* () {
      const v1 = yield* Effect.promise(() => v1Blob(PASSCODE))
      const t = makeTestVault({ passcode: PASSCODE, store: { "keyvault.blob": v1 } })
      yield* Effect.gen(function* () {
        const vault = yield* KeyVault
        const error = yield* Effect.flip(vault.unlockWithPasscode("000000"))
        assert.strictEqual(error._tag, "DecryptFailed")
        t.server.state.reachable = false
        expectSecrets(yield* vault.unlockWithPasscode(PASSCODE))
        assert.strictEqual(t.store.map.get("keyvault.blob"), v1)
        assert.isTrue(t.logger.entries.some((e) => e.event === "blob.upgrade_failed"))
      }).pipe(Effect.provide(t.layer))
    }),
  )

  it.effect("biometry: enable, unlock through the BiometricManager token, cancel, disable", () => {
    const t = makeTestVault({ passcode: PASSCODE, biometryToken: "server-biometry-token-0123456789" })
    return Effect.gen(function* () {
      const vault = yield* KeyVault
      yield* vault.create({ credentials: credentials(), passcode: PASSCODE })
      t.biometry.state.accessGranted = false
      yield* vault.enableBiometry({ passcode: PASSCODE, serverBiometryToken: "server-biometry-token-0123456789" })
      assert.isTrue(t.biometry.state.accessGranted)
      assert.match(t.biometry.state.token, /^kvb1\./)
      assert.isTrue((yield* vault.status()).biometry)
      expectSecrets(yield* vault.unlockWithBiometry())
      const last = t.server.requests.at(-1) as any
      assert.deepStrictEqual(last.proof, { biometryToken: "server-biometry-token-0123456789" })

      t.biometry.state.nextPrompt = "cancel"
      const cancelled = yield* Effect.flip(vault.unlockWithBiometry())
      assert.strictEqual(cancelled._tag, "VaultCancelled")
      t.biometry.state.nextPrompt = "approve"

      // A token that lost its secret part (e.g. replaced by another app) opens nothing.
      const saved = t.biometry.state.token
      const parts = saved.split(".")
      t.biometry.state.token = [parts[0], toBase64Url(randomBytes(32)), parts[2]].join(".")
      assert.strictEqual((yield* Effect.flip(vault.unlockWithBiometry()))._tag, "DecryptFailed")
      t.biometry.state.token = saved

      yield* vault.disableBiometry()
      assert.strictEqual(t.biometry.state.token, "")
      assert.isFalse((yield* vault.status()).biometry)
      const gone = yield* Effect.flip(vault.unlockWithBiometry())
      assert.strictEqual(gone._tag, "CredsNotFound")
    }).pipe(Effect.provide(t.layer))
  })

  it.effect("biometry: a token a prompt already released opens the slot without a second prompt (0520)", () => {
    const server = "server-biometry-token-0123456789"
    const t = makeTestVault({ passcode: PASSCODE, biometryToken: server })
    return Effect.gen(function* () {
      const vault = yield* KeyVault
      yield* vault.create({ credentials: credentials(), passcode: PASSCODE })
      yield* vault.enableBiometry({ passcode: PASSCODE, serverBiometryToken: server })
      const deviceToken = t.biometry.state.token
      // The Passcode service's proof carries the device token; only its server part goes out.
      assert.strictEqual(serverBiometryToken(deviceToken), server)
      assert.strictEqual(serverBiometryToken(server), server)
      // A prompt now would be cancelled: opening with the given token proves none is shown.
      t.biometry.state.nextPrompt = "cancel"
      expectSecrets(yield* vault.unlockWithBiometry({ token: deviceToken }))
      assert.deepStrictEqual((t.server.requests.at(-1) as any).proof, { biometryToken: server })
      assert.strictEqual((yield* Effect.flip(vault.unlockWithBiometry()))._tag, "VaultCancelled")
      // The server's own token (biometry enabled before the slot existed) cannot open the slot.
      assert.strictEqual((yield* Effect.flip(vault.unlockWithBiometry({ token: server })))._tag, "CredsNotFound")
      // Nor can a vault token of another secret.
      const parts = deviceToken.split(".")
      const other = [parts[0], toBase64Url(randomBytes(32)), parts[2]].join(".")
      assert.strictEqual((yield* Effect.flip(vault.unlockWithBiometry({ token: other })))._tag, "DecryptFailed")
    }).pipe(Effect.provide(t.layer))
  })

  it.effect("biometry errors carry the spec's texts", () => {
    const t = makeTestVault({ passcode: PASSCODE })
    return Effect.gen(function* () {
      const vault = yield* KeyVault
      yield* vault.create({ credentials: credentials(), passcode: PASSCODE })
      t.biometry.state.available = false
      assert.strictEqual((yield* Effect.flip(vault.unlockWithBiometry())).message, "biometric is not available")
      t.biometry.state.available = true
      t.biometry.state.accessGranted = false
      t.biometry.state.grantOnRequest = false
      assert.strictEqual(
        (yield* Effect.flip(vault.enableBiometry({ passcode: PASSCODE, serverBiometryToken: "x".repeat(32) }))).message,
        "biometric access was not granted",
      )
      assert.strictEqual((yield* Effect.flip(vault.unlockWithBiometry())).message, "biometric access was not granted")
      t.biometry.state.accessGranted = true
      t.biometry.state.updateFails = true
      assert.strictEqual(
        (yield* Effect.flip(vault.enableBiometry({ passcode: PASSCODE, serverBiometryToken: "x".repeat(32) }))).message,
        "biometric was not updated",
      )
      assert.isFalse((yield* vault.status()).biometry)
    }).pipe(Effect.provide(t.layer))
  })

  it.effect("a v1 blob sealed under the biometric token opens with biometry", () =>
    Effect.gen(function* () {
      const token = "legacy-biometric-token-abcdef"
      const t = makeTestVault({ passcode: PASSCODE, store: { "keyvault.blob": yield* Effect.promise(() => v1Blob(token)) } })
      t.biometry.state.token = token
      yield* Effect.gen(function* () {
        expectSecrets(yield* (yield* KeyVault).unlockWithBiometry())
      }).pipe(Effect.provide(t.layer))
    }),
  )

  it.effect("passcode change: both slots until an unlock says which one the server accepts", () => {
    const t = makeTestVault({ passcode: PASSCODE })
    return Effect.gen(function* () {
      const vault = yield* KeyVault
      yield* vault.create({ credentials: credentials(), passcode: PASSCODE })
      yield* vault.changePasscode({ current: PASSCODE, next: "7391" })
      assert.strictEqual((yield* vault.status()).passcodeSlots, 2)
      t.server.state.passcode = "7391" // the passcode plugin changed it on the server
      expectSecrets(yield* vault.unlockWithPasscode("7391"))
      assert.strictEqual((yield* vault.status()).passcodeSlots, 1)
      assert.strictEqual((yield* Effect.flip(vault.unlockWithPasscode(PASSCODE)))._tag, "PasscodeRejected")
    }).pipe(Effect.provide(t.layer))
  })

  it.effect("plain credentials: migrated with a proof, opened by the passcode, removed only after backup", () => {
    const plain = JSON.stringify({ address: ADDRESS, mnemonic: MNEMONIC, privateKey: PRIVATE_KEY })
    const t = makeTestVault({ passcode: PASSCODE, store: { "keyvault.plain": plain } })
    return Effect.gen(function* () {
      const vault = yield* KeyVault
      assert.strictEqual(yield* vault.removePlainAfterBackup(true), false) // no blob yet: keep the only copy
      // A new device key needs a proof on the server too (decision 0540): a wrong passcode makes none.
      assert.strictEqual((yield* Effect.flip(vault.migratePlain({ passcode: "000000" })))._tag, "PasscodeRejected")
      assert.strictEqual(t.server.keys.size, 0)
      assert.strictEqual(yield* vault.migratePlain({ passcode: PASSCODE }), "migrated")
      assert.strictEqual(yield* vault.migratePlain({ passcode: PASSCODE }), "already")
      const migrated = yield* vault.status()
      assert.deepStrictEqual([migrated.version, migrated.server, migrated.passcodeSlots, migrated.plain], [2, true, 0, true])
      // The server still checks the passcode before releasing the device key.
      assert.strictEqual((yield* Effect.flip(vault.unlockWithPasscode("000000")))._tag, "PasscodeRejected")
      expectSecrets(yield* vault.unlockWithPasscode(PASSCODE))
      const upgraded = yield* vault.status()
      assert.deepStrictEqual([upgraded.server, upgraded.passcodeSlots], [false, 1])
      assert.strictEqual(yield* vault.removePlainAfterBackup(false), false)
      assert.isTrue(t.store.map.has("keyvault.plain"))
      assert.strictEqual(yield* vault.removePlainAfterBackup(true), true)
      assert.isFalse(t.store.map.has("keyvault.plain"))
      expectSecrets(yield* vault.unlockWithPasscode(PASSCODE))
    }).pipe(Effect.provide(t.layer))
  })

  it.effect("an unlock over plain credentials seals them first; with the server down the plain ones are used", () => {
    const plain = JSON.stringify({ address: ADDRESS, mnemonic: MNEMONIC, privateKey: PRIVATE_KEY })
    const t = makeTestVault({ passcode: PASSCODE, store: { "keyvault.plain": plain } })
    return Effect.gen(function* () {
      const vault = yield* KeyVault
      t.server.state.reachable = false
      expectSecrets(yield* vault.unlockWithPasscode(PASSCODE))
      assert.strictEqual((yield* vault.status()).version, 0)
      t.server.state.reachable = true
      assert.strictEqual((yield* Effect.flip(vault.unlockWithPasscode("000000")))._tag, "PasscodeRejected")
      expectSecrets(yield* vault.unlockWithPasscode(PASSCODE))
      const status = yield* vault.status()
      assert.deepStrictEqual([status.version, status.passcodeSlots, status.server, status.plain], [2, 1, false, true])
    }).pipe(Effect.provide(t.layer))
  })

  it.effect("keepServerSlot keeps a device-key-only slot beside the passcode slot", () => {
    const t = makeTestVault({ passcode: PASSCODE, vault: { keepServerSlot: true } })
    return Effect.gen(function* () {
      const vault = yield* KeyVault
      yield* vault.create({ credentials: credentials(), passcode: PASSCODE })
      const status = yield* vault.status()
      assert.deepStrictEqual([status.server, status.passcodeSlots], [true, 1])
      // After a passcode reset on the server the old slot cannot open, the server slot can.
      t.server.state.passcode = "5555"
      expectSecrets(yield* vault.unlockWithPasscode("5555"))
    }).pipe(Effect.provide(t.layer))
  })

  it.effect("decryption failure falls back to stored plain credentials; a differing mnemonic yields the stored one", () => {
    const plainMnemonic = [...MNEMONIC.slice(0, 23), "abandon"]
    const t = makeTestVault({ passcode: PASSCODE })
    return Effect.gen(function* () {
      const vault = yield* KeyVault
      yield* vault.create({ credentials: credentials(), passcode: PASSCODE })
      t.store.map.set("keyvault.plain", JSON.stringify({ address: ADDRESS, mnemonic: plainMnemonic, privateKey: PRIVATE_KEY }))
      const mismatch = yield* vault.unlockWithPasscode(PASSCODE)
      assert.deepStrictEqual(Redacted.value(mismatch.mnemonic), plainMnemonic)
      assert.isTrue(t.logger.entries.some((e) => e.event === "mnemonic.mismatch_with_plain"))
      const blob = storedV2(t.store.map)
      t.store.map.set("keyvault.blob", encodeBlob({ version: 2, blob: { ...blob, iv: toBase64Url(randomBytes(12)) } }))
      const fallback = yield* vault.unlockWithPasscode(PASSCODE)
      assert.deepStrictEqual(Redacted.value(fallback.mnemonic), plainMnemonic)
      assert.isTrue(t.logger.entries.some((e) => e.event === "decrypt.fallback_to_plain"))
    }).pipe(Effect.provide(t.layer))
  })

  it.effect("recovery split: key, iv and both shards give the credentials back; any part alone or tampered does not", () => {
    const t = makeTestVault({ passcode: PASSCODE })
    return Effect.gen(function* () {
      const vault = yield* KeyVault
      yield* vault.create({ credentials: credentials(), passcode: PASSCODE })
      const split = yield* vault.exportRecovery(PASSCODE)
      assert.match(split.key, /^[0-9a-f]{64}$/)
      assert.match(split.iv, /^[0-9a-f]{24}$/)
      expectSecrets(yield* openRecoverySplit(split))
      const [a, b] = split.shards
      const random = `rs1.${toBase64Url(randomBytes(fromBase64Url(a.slice(4)).length))}`
      for (const broken of [
        { ...split, shards: [a, random] as const },
        { ...split, shards: [random, b] as const },
        { ...split, shards: [b, a] as const, key: split.key.replace(/^./, (c) => (c === "0" ? "1" : "0")) },
        { ...split, iv: "00".repeat(12) },
      ]) {
        assert.strictEqual((yield* Effect.flip(openRecoverySplit(broken)))._tag, "DecryptFailed")
      }
      // Swapping the shards still XORs to the same ciphertext (2-of-2, order-free).
      expectSecrets(yield* openRecoverySplit({ ...split, shards: [b, a] }))
      assert.strictEqual((yield* Effect.flip(vault.exportRecovery("000000")))._tag, "PasscodeRejected")
    }).pipe(Effect.provide(t.layer))
  })

  it.effect("clear removes the blob, plain credentials and the biometric token; a failed write is the spec's text", () => {
    const t = makeTestVault({ passcode: PASSCODE, biometryToken: "b".repeat(32) })
    return Effect.gen(function* () {
      const vault = yield* KeyVault
      yield* vault.create({ credentials: credentials(), passcode: PASSCODE })
      yield* vault.enableBiometry({ passcode: PASSCODE, serverBiometryToken: "b".repeat(32) })
      t.store.map.set("keyvault.plain", "{}")
      yield* vault.clear()
      assert.deepStrictEqual([...t.store.map.keys()], [])
      assert.strictEqual(t.biometry.state.token, "")
      t.store.setFailWrites(true)
      const error = yield* Effect.flip(vault.create({ credentials: credentials(), passcode: PASSCODE }))
      assert.strictEqual(error.message, "Failed to save secureStorage value")
    }).pipe(Effect.provide(t.layer))
  })

  it.effect("clear keeps the passcode plugin's biometry token with biometryToken 'keep' (decision 0530)", () => {
    const server = "s".repeat(32)
    const t = makeTestVault({ passcode: PASSCODE, biometryToken: server })
    return Effect.gen(function* () {
      const vault = yield* KeyVault
      yield* vault.create({ credentials: credentials(), passcode: PASSCODE })
      yield* vault.enableBiometry({ passcode: PASSCODE, serverBiometryToken: server })
      const shared = t.biometry.state.token
      assert.ok(shared.startsWith("kvb1."))
      yield* vault.clear({ biometryToken: "keep" })
      // The blob is gone, the device token is untouched and its server part is still the passcode plugin's token.
      assert.deepStrictEqual([...t.store.map.keys()], [])
      assert.strictEqual(t.biometry.state.token, shared)
      assert.strictEqual(serverBiometryToken(t.biometry.state.token), server)
      // What is left opens nothing: there is no vault to open.
      assert.strictEqual((yield* Effect.flip(vault.unlockWithBiometry({ token: shared })))._tag, "CredsNotFound")
      assert.strictEqual((yield* vault.status()).version, 0)
    }).pipe(Effect.provide(t.layer))
  })
})
