import { createHash, generateKeyPairSync, sign } from "node:crypto"
import { beginCell, storeStateInit } from "@ton/core"
import { WalletContractV4, WalletContractV5R1 } from "@ton/ton"
import { describe, expect, it } from "vitest"
import { checkSignData, makeProofService, signDataMessage, tonProofDigest, walletKeyOf, type ProofCheckRequest, type SignDataCheckRequest } from "./proof.ts"

const DOMAIN = "127.0.0.1:4321"

const newWallet = (version: "v5r1" | "v4r2" = "v5r1") => {
  const { publicKey, privateKey } = generateKeyPairSync("ed25519")
  const raw = publicKey.export({ format: "der", type: "spki" }).subarray(12)
  const contract =
    version === "v5r1"
      ? WalletContractV5R1.create({ workchain: 0, publicKey: raw, walletId: { networkGlobalId: -239 } })
      : WalletContractV4.create({ workchain: 0, publicKey: raw })
  const stateInit = beginCell().store(storeStateInit(contract.init)).endCell().toBoc().toString("base64")
  return { raw, privateKey, address: contract.address, stateInit, sign: (digest: Buffer) => sign(null, digest, privateKey).toString("base64") }
}

const proofRequest = (wallet: ReturnType<typeof newWallet>, payload: string, overrides: { domain?: string; timestamp?: number } = {}): ProofCheckRequest => {
  const proof = {
    timestamp: overrides.timestamp ?? 1_000_000,
    domain: { lengthBytes: Buffer.byteLength(overrides.domain ?? DOMAIN), value: overrides.domain ?? DOMAIN },
    payload,
  }
  return {
    address: wallet.address.toRawString(),
    network: "-239",
    publicKey: wallet.raw.toString("hex"),
    walletStateInit: wallet.stateInit,
    proof: { ...proof, signature: wallet.sign(tonProofDigest(wallet.address, proof)) },
  }
}

describe("the demo dApp's ton_proof check", () => {
  it("reads the public key out of W5R1 and v4R2 state inits and the address they deploy to", () => {
    for (const version of ["v5r1", "v4r2"] as const) {
      const wallet = newWallet(version)
      const key = walletKeyOf(wallet.stateInit)
      expect(key.version).toBe(version)
      expect(key.publicKey.equals(wallet.raw)).toBe(true)
      expect(key.address.equals(wallet.address)).toBe(true)
    }
  })

  it("accepts a proof signed by the state init's key over this domain and an issued payload, once", () => {
    const service = makeProofService({ domain: DOMAIN, now: () => 1_000_000 })
    const wallet = newWallet()
    const payload = service.payload()
    expect(payload).toMatch(/^[0-9a-f]{64}$/)
    const request = proofRequest(wallet, payload)
    expect(service.checkProof(request)).toEqual({ valid: true, address: wallet.address.toRawString() })
    // One use only.
    expect(service.checkProof(request)).toMatchObject({ valid: false, reason: "unknown or already used payload" })
  })

  it("refuses a foreign payload, another domain, a stale timestamp, a wrong key, a state init of another address, a forged signature", () => {
    let now = 1_000_000
    const service = makeProofService({ domain: DOMAIN, now: () => now, maxAgeSeconds: 600 })
    const wallet = newWallet()
    const other = newWallet()

    expect(service.checkProof(proofRequest(wallet, "f".repeat(64)))).toMatchObject({ valid: false, reason: "unknown or already used payload" })
    expect(service.checkProof(proofRequest(wallet, service.payload(), { domain: "evil.example" }))).toMatchObject({
      valid: false,
      reason: expect.stringContaining("domain"),
    })
    expect(service.checkProof(proofRequest(wallet, service.payload(), { timestamp: now - 601 }))).toMatchObject({ valid: false, reason: "stale timestamp" })
    expect(service.checkProof({ ...proofRequest(wallet, service.payload()), publicKey: other.raw.toString("hex") })).toMatchObject({
      valid: false,
      reason: "the public key is not the state init's",
    })
    expect(service.checkProof({ ...proofRequest(wallet, service.payload()), walletStateInit: other.stateInit })).toMatchObject({
      valid: false,
      reason: "the state init does not deploy to this address",
    })

    const forged = proofRequest(wallet, service.payload())
    const signedByOther = other.sign(tonProofDigest(wallet.address, forged.proof))
    expect(service.checkProof({ ...forged, proof: { ...forged.proof, signature: signedByOther } })).toMatchObject({ valid: false, reason: "bad signature" })

    // Whatever the page posts: a clear refusal, never a crash.
    for (const junk of [{}, null, { proof: {} }, { ...forged, proof: { ...forged.proof, timestamp: "1" } }]) {
      expect(service.checkProof(junk as unknown as ProofCheckRequest)).toEqual({ valid: false, reason: "bad request" })
    }

    // An issued payload expires.
    const late = service.payload()
    now += 601
    expect(service.checkProof(proofRequest(wallet, late, { timestamp: now }))).toMatchObject({ valid: false, reason: "expired payload" })
  })
})

describe("the demo dApp's signData check", () => {
  const sha = (data: Buffer) => createHash("sha256").update(data).digest()

  it("verifies text and binary signatures over sha256 of the protocol message and refuses tampering", () => {
    const wallet = newWallet()
    for (const payload of [
      { type: "text" as const, text: "Hello from the demo dApp" },
      { type: "binary" as const, bytes: Buffer.from([1, 2, 3]).toString("base64") },
    ]) {
      const timestamp = 1_700_000_000
      const signature = wallet.sign(sha(signDataMessage(wallet.address, DOMAIN, timestamp, payload)))
      const result = { signature, address: wallet.address.toRawString(), timestamp, domain: DOMAIN, payload }
      expect(checkSignData({ walletStateInit: wallet.stateInit, result }, DOMAIN)).toMatchObject({ valid: true })
      expect(checkSignData({ walletStateInit: wallet.stateInit, result: { ...result, timestamp: timestamp + 1 } }, DOMAIN)).toMatchObject({
        valid: false,
        reason: "bad signature",
      })
      expect(checkSignData({ walletStateInit: wallet.stateInit, result }, "other.example")).toMatchObject({ valid: false })
      expect(checkSignData({ walletStateInit: newWallet().stateInit, result }, DOMAIN)).toMatchObject({
        valid: false,
        reason: "the state init does not deploy to this address",
      })
    }
    expect(checkSignData({} as SignDataCheckRequest, DOMAIN)).toEqual({ valid: false, reason: "bad request" })
    // The message layout: big-endian lengths, "txt" tag, the text last.
    const message = signDataMessage(wallet.address, "a.b", 1, { type: "text", text: "hi" })
    expect(message.subarray(0, 2).toString("hex")).toBe("ffff")
    expect(message.subarray(-9).toString("hex")).toBe(Buffer.concat([Buffer.from("txt"), Buffer.from([0, 0, 0, 2]), Buffer.from("hi")]).toString("hex"))
  })
})

describe("the Node test wallet", () => {
  it("derives the W5R1 state init whose key the proof check reads back", async () => {
    const { testWallet } = await import("./test-wallet.ts")
    const wallet = testWallet(Buffer.alloc(32, 9))
    const key = walletKeyOf(wallet.stateInit)
    expect(key.publicKey.equals(wallet.publicKey)).toBe(true)
    expect(key.address.toRawString()).toBe(wallet.raw)
    expect(wallet.secretKey.subarray(32)).toEqual(new Uint8Array(wallet.publicKey))
  })
})
