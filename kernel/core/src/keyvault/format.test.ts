import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import {
  aesDecrypt,
  aesEncrypt,
  fromBase64Url,
  fromHex,
  IV_BYTES,
  pbkdf2AesKey,
  PBKDF2_ITERATIONS,
  randomBytes,
  SALT_BYTES,
  toBase64Url,
  toHex,
  utf8,
} from "./crypto.ts"
import { blobVersion, decodeBlob, encodeBlob } from "./format.ts"
import { DEVICE_ID_KEY, resolveDeviceId } from "./deviceId.ts"

describe("keyvault formats", () => {
  it("base64url and hex round-trip every byte value", () => {
    const bytes = Uint8Array.from({ length: 256 }, (_, i) => i)
    assert.deepStrictEqual(fromBase64Url(toBase64Url(bytes)), bytes)
    assert.notMatch(toBase64Url(bytes), /[+/=]/)
    assert.deepStrictEqual(fromHex(toHex(bytes)), bytes)
    assert.throws(() => fromHex("abc"))
    assert.throws(() => fromBase64Url("not base64!"))
  })

  it.effect("the spec's client-side encryption: PBKDF2 100000 / 8-byte salt, AES-GCM 256 / 12-byte iv", () =>
    Effect.promise(async () => {
      assert.deepStrictEqual([PBKDF2_ITERATIONS, SALT_BYTES, IV_BYTES], [100_000, 8, 12])
      const salt = randomBytes(SALT_BYTES)
      const iv = randomBytes(IV_BYTES)
      const key = await pbkdf2AesKey("1234", salt)
      assert.deepStrictEqual(key.algorithm as AesKeyAlgorithm, { name: "AES-GCM", length: 256 })
      const ct = await aesEncrypt(key, iv, utf8("hello"))
      assert.strictEqual(ct.length, 5 + 16) // 128-bit tag
      assert.strictEqual(new TextDecoder().decode(await aesDecrypt(await pbkdf2AesKey("1234", salt), iv, ct)), "hello")
      // The derivation is PBKDF2-SHA-256 with exactly 100000 iterations: compare with WebCrypto directly.
      const base = await crypto.subtle.importKey("raw", utf8("1234"), "PBKDF2", false, ["deriveKey"])
      const reference = await crypto.subtle.deriveKey(
        { name: "PBKDF2", hash: "SHA-256", salt, iterations: 100_000 },
        base,
        { name: "AES-GCM", length: 256 },
        false,
        ["decrypt"],
      )
      assert.strictEqual(new TextDecoder().decode(await aesDecrypt(reference, iv, ct)), "hello")
      await aesDecrypt(await pbkdf2AesKey("1235", salt), iv, ct).then(
        () => assert.fail("a wrong passphrase must not decrypt"),
        () => undefined,
      )
    }),
  )

  it("blobs carry their version; unknown versions and garbage are refused", () => {
    const v1 = encodeBlob({ version: 1, blob: { salt: "c2FsdA", iv: "aXY", ct: "Y3Q" } })
    assert.match(v1, /^v1:/)
    assert.deepStrictEqual(decodeBlob(v1), { version: 1, blob: { salt: "c2FsdA", iv: "aXY", ct: "Y3Q" } })
    const v2 = encodeBlob({ version: 2, blob: { externalId: "e", address: "a", slots: { server: { iv: "aXY", wk: "d2s" } }, iv: "aXY", ct: "Y3Q" } })
    assert.strictEqual(blobVersion(v2), 2)
    assert.strictEqual(decodeBlob(v2)?.version, 2)
    assert.isNull(decodeBlob(v2.replace(/^v2:/, "v3:")))
    assert.isNull(decodeBlob("v2:###"))
    assert.isNull(decodeBlob(encodeBlob({ version: 1, blob: { salt: "bad+/", iv: "x", ct: "y" } as any })))
    assert.isNull(decodeBlob("plain text"))
  })
})

describe("device id", () => {
  const store = (initial: string | null, fail = false) => {
    const data = new Map<string, string>(initial === null ? [] : [[DEVICE_ID_KEY, initial]])
    return {
      data,
      get: (key: string) => (fail ? Effect.fail("unsupported") : Effect.succeed(data.get(key) ?? null)),
      set: (key: string, value: string) => (fail ? Effect.fail("unsupported") : Effect.sync(() => data.set(key, value))),
    }
  }
  const id = (n: number) => `0000000${n}-aaaa-4bbb-8ccc-dddddddddddd`

  it.effect("the first store that has one wins", () =>
    Effect.gen(function* () {
      assert.strictEqual(yield* resolveDeviceId([store(null), store(id(2)), store(id(3))]), id(2))
      assert.strictEqual(yield* resolveDeviceId([store(id(1), true), store("short"), store(id(3))]), id(3))
    }),
  )

  it.effect("none: a new id is created and written to every store that works", () =>
    Effect.gen(function* () {
      const stores = [store(null), store(null, true), store(null)]
      const created = yield* resolveDeviceId(stores)
      assert.match(created, /^[0-9a-f-]{36}$/)
      assert.strictEqual(stores[0]!.data.get(DEVICE_ID_KEY), created)
      assert.strictEqual(stores[2]!.data.get(DEVICE_ID_KEY), created)
    }),
  )
})
