/**
 * The demo dApp's backend checks (Node only): ton_proof and signData text/binary, re-derived from the
 * protocol (shared/PROTOCOLS.md "TonConnect v2") with Buffer arithmetic and Node's ed25519, and the
 * wallet's public key read from its state init (whose hash must be the claimed address). Nothing here
 * comes from the wallet engine in plugins/tonconnect: this is the independent side of the check.
 */
import { createHash, createPublicKey, randomBytes, verify } from "node:crypto"
import { Address, Cell, contractAddress, loadStateInit } from "@ton/core"
import { WalletContractV4, WalletContractV5R1 } from "@ton/ton"

const sha256 = (data: Buffer): Buffer => createHash("sha256").update(data).digest()

/** ed25519 verification through Node's crypto (SPKI = fixed prefix + the 32-byte key). */
export const ed25519Verify = (publicKey: Buffer, message: Buffer, signature: Buffer): boolean => {
  if (publicKey.length !== 32 || signature.length !== 64) return false
  const spki = Buffer.concat([Buffer.from("302a300506032b6570032100", "hex"), publicKey])
  return verify(null, message, createPublicKey({ key: spki, format: "der", type: "spki" }), signature)
}

const u32le = (n: number) => {
  const b = Buffer.alloc(4)
  b.writeUInt32LE(n)
  return b
}
const u32be = (n: number) => {
  const b = Buffer.alloc(4)
  b.writeUInt32BE(n)
  return b
}
const i32be = (n: number) => {
  const b = Buffer.alloc(4)
  b.writeInt32BE(n)
  return b
}
const u64le = (n: number) => {
  const b = Buffer.alloc(8)
  b.writeBigUInt64LE(BigInt(n))
  return b
}
const u64be = (n: number) => {
  const b = Buffer.alloc(8)
  b.writeBigUInt64BE(BigInt(n))
  return b
}

// Code hashes of the wallet contracts whose data layout is known here.
const zeroKey = Buffer.alloc(32)
const V5R1_CODE = WalletContractV5R1.create({ workchain: 0, publicKey: zeroKey }).init.code.hash().toString("hex")
const V4R2_CODE = WalletContractV4.create({ workchain: 0, publicKey: zeroKey }).init.code.hash().toString("hex")

/**
 * The public key inside a wallet state init (W5R1: is_signature_allowed:1 seqno:32 wallet_id:32 key:256;
 * v4R2: seqno:32 subwallet:32 key:256), and the address that state init deploys to on `workchain`.
 */
export const walletKeyOf = (
  stateInitBase64: string,
  workchain = 0,
): { readonly publicKey: Buffer; readonly address: Address; readonly version: "v5r1" | "v4r2" } => {
  const init = loadStateInit(Cell.fromBase64(stateInitBase64).beginParse())
  if (!init.code || !init.data) throw new Error("the state init has no code or data")
  const code = init.code.hash().toString("hex")
  const data = init.data.beginParse()
  let version: "v5r1" | "v4r2"
  if (code === V5R1_CODE) {
    data.skip(1 + 32 + 32)
    version = "v5r1"
  } else if (code === V4R2_CODE) {
    data.skip(32 + 32)
    version = "v4r2"
  } else {
    throw new Error("unknown wallet contract")
  }
  return { publicKey: data.loadBuffer(32), address: contractAddress(workchain, init), version }
}

export interface TonProof {
  readonly timestamp: number
  readonly domain: { readonly lengthBytes: number; readonly value: string }
  readonly payload: string
  /** base64 */
  readonly signature: string
}

/** What the page posts after a connect: the account the wallet reported and its proof. */
export interface ProofCheckRequest {
  readonly address: string
  readonly network: string
  readonly publicKey: string
  readonly walletStateInit: string
  readonly proof: TonProof
}

export type CheckResult = { readonly valid: true; readonly address: string } | { readonly valid: false; readonly reason: string }

/** "ton-proof-item-v2/" || wc int32 BE || hash || domainLen u32 LE || domain || timestamp u64 LE || payload */
export const tonProofMessage = (address: Address, proof: Omit<TonProof, "signature">): Buffer => {
  const domain = Buffer.from(proof.domain.value, "utf8")
  return Buffer.concat([
    Buffer.from("ton-proof-item-v2/", "utf8"),
    i32be(address.workChain),
    address.hash,
    u32le(domain.length),
    domain,
    u64le(proof.timestamp),
    Buffer.from(proof.payload, "utf8"),
  ])
}

/** The 32 bytes a wallet signs for ton_proof: sha256(0xffff || "ton-connect" || sha256(message)). */
export const tonProofDigest = (address: Address, proof: Omit<TonProof, "signature">): Buffer =>
  sha256(Buffer.concat([Buffer.from([0xff, 0xff]), Buffer.from("ton-connect", "utf8"), sha256(tonProofMessage(address, proof))]))

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null

/** The shape a check needs (the page posts JSON: anything may arrive). */
export const isProofCheckRequest = (value: unknown): value is ProofCheckRequest => {
  if (!isObject(value) || !isObject(value.proof) || !isObject(value.proof.domain)) return false
  const { proof } = value
  const domain = proof.domain as Record<string, unknown>
  return (
    typeof value.address === "string" &&
    typeof value.publicKey === "string" &&
    typeof value.walletStateInit === "string" &&
    typeof proof.timestamp === "number" &&
    Number.isSafeInteger(proof.timestamp) &&
    proof.timestamp >= 0 &&
    typeof proof.payload === "string" &&
    typeof proof.signature === "string" &&
    typeof domain.value === "string" &&
    typeof domain.lengthBytes === "number"
  )
}

export interface ProofServiceOptions {
  /** host[:port] the proofs must name (the dApp's own). */
  readonly domain: string
  /** How long an issued payload and a proof's timestamp stay acceptable (seconds). */
  readonly maxAgeSeconds?: number
  /** Unix seconds; tests move it. */
  readonly now?: () => number
}

/**
 * Issues one-time proof payloads and checks proofs against them: the payload must be one issued here,
 * unused and fresh, the domain this dApp's, the timestamp recent, the state init must deploy to the
 * claimed address and hold the claimed public key, and the signature must verify with that key.
 */
export const makeProofService = (options: ProofServiceOptions) => {
  const maxAge = options.maxAgeSeconds ?? 15 * 60
  const now = options.now ?? (() => Math.floor(Date.now() / 1000))
  const issued = new Map<string, number>()

  const payload = (): string => {
    for (const [value, at] of issued) if (now() - at > maxAge) issued.delete(value)
    const value = randomBytes(32).toString("hex")
    issued.set(value, now())
    return value
  }

  const fail = (reason: string): CheckResult => ({ valid: false, reason })

  const checkProof = (request: ProofCheckRequest): CheckResult => {
    if (!isProofCheckRequest(request)) return fail("bad request")
    const { proof } = request
    const issuedAt = issued.get(proof.payload)
    if (issuedAt === undefined) return fail("unknown or already used payload")
    if (now() - issuedAt > maxAge) return fail("expired payload")
    if (proof.domain.value !== options.domain) return fail(`domain ${proof.domain.value} is not ${options.domain}`)
    if (proof.domain.lengthBytes !== Buffer.byteLength(proof.domain.value)) return fail("domain length mismatch")
    if (Math.abs(now() - proof.timestamp) > maxAge) return fail("stale timestamp")
    let address: Address
    let key: ReturnType<typeof walletKeyOf>
    try {
      address = Address.parse(request.address)
      key = walletKeyOf(request.walletStateInit, address.workChain)
    } catch (error) {
      return fail(error instanceof Error ? error.message : "bad account")
    }
    if (!key.address.equals(address)) return fail("the state init does not deploy to this address")
    if (request.publicKey.toLowerCase() !== key.publicKey.toString("hex")) return fail("the public key is not the state init's")
    if (!ed25519Verify(key.publicKey, tonProofDigest(address, proof), Buffer.from(proof.signature, "base64"))) return fail("bad signature")
    issued.delete(proof.payload)
    return { valid: true, address: address.toRawString() }
  }

  return { payload, checkProof }
}

export type SignDataPayload = { readonly type: "text"; readonly text: string } | { readonly type: "binary"; readonly bytes: string }

/** What the page posts after signData: the wallet's answer plus the account it connected with. */
export interface SignDataCheckRequest {
  readonly walletStateInit: string
  readonly result: {
    readonly signature: string
    readonly address: string
    readonly timestamp: number
    readonly domain: string
    readonly payload: SignDataPayload
  }
}

/** 0xffff || "ton-connect/sign-data/" || wc int32 || hash || domainLen u32 || domain || ts u64 || "txt"|"bin" || len u32 || data */
export const signDataMessage = (address: Address, domain: string, timestamp: number, payload: SignDataPayload): Buffer => {
  const domainBytes = Buffer.from(domain, "utf8")
  const data = payload.type === "text" ? Buffer.from(payload.text, "utf8") : Buffer.from(payload.bytes, "base64")
  return Buffer.concat([
    Buffer.from([0xff, 0xff]),
    Buffer.from("ton-connect/sign-data/", "utf8"),
    i32be(address.workChain),
    address.hash,
    u32be(domainBytes.length),
    domainBytes,
    u64be(timestamp),
    Buffer.from(payload.type === "text" ? "txt" : "bin", "utf8"),
    u32be(data.length),
    data,
  ])
}

/** Checks a text or binary signData answer: this dApp's domain, the state init's key, the signature over sha256(message). */
export const checkSignData = (request: SignDataCheckRequest, domain: string): CheckResult => {
  const result = isObject(request) && isObject(request.result) ? request.result : undefined
  if (
    result === undefined ||
    typeof request.walletStateInit !== "string" ||
    typeof result.signature !== "string" ||
    typeof result.address !== "string" ||
    typeof result.domain !== "string" ||
    !Number.isSafeInteger(result.timestamp) ||
    result.timestamp < 0 ||
    !isObject(result.payload)
  ) {
    return { valid: false, reason: "bad request" }
  }
  if (result.domain !== domain) return { valid: false, reason: `domain ${result.domain} is not ${domain}` }
  if (result.payload.type !== "text" && result.payload.type !== "binary") return { valid: false, reason: "only text and binary are checked here" }
  let address: Address
  let key: ReturnType<typeof walletKeyOf>
  try {
    address = Address.parse(result.address)
    key = walletKeyOf(request.walletStateInit, address.workChain)
  } catch (error) {
    return { valid: false, reason: error instanceof Error ? error.message : "bad account" }
  }
  if (!key.address.equals(address)) return { valid: false, reason: "the state init does not deploy to this address" }
  const digest = sha256(signDataMessage(address, result.domain, result.timestamp, result.payload))
  if (!ed25519Verify(key.publicKey, digest, Buffer.from(result.signature, "base64"))) return { valid: false, reason: "bad signature" }
  return { valid: true, address: address.toRawString() }
}
