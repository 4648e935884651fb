/**
 * Address formats of the networks custody runs on: syntax and checksum checks that answer the raw
 * codes of spec 2 §5 (invalid_number_of_characters, invalid_address, ...), canonical forms for
 * comparisons, and deterministic per-user addresses of the simulated networks. Pure functions.
 *
 * - tron: base58check (double SHA-256), version byte 0x41, 34 characters (T...)
 * - ethereum: 0x + 40 hex; EIP-55 checksum (keccak-256) enforced when the case is mixed
 * - solana: base58 of a 32-byte ed25519 key (32-44 characters; no checksum in the format)
 * - bitcoin: bech32 (segwit v0, bc1q...) / bech32m (v1+, bc1p...), or legacy base58check 1... / 3...
 * - ton: raw `wc:hex` or the 48-character friendly form (CRC16), via @ton/core
 */
import { createHmac } from "node:crypto"
import { keccak_256 } from "@noble/hashes/sha3.js"
import { sha256 } from "@noble/hashes/sha2.js"
import { base58, bech32, bech32m, createBase58check } from "@scure/base"
import { Address } from "@ton/core"
import type { AddressCheckCode } from "../../api.ts"
import type { NetworkCode } from "../../currencies.ts"

export type AddressCheck = { readonly ok: true; readonly address: string } | { readonly ok: false; readonly code: AddressCheckCode; readonly message: string }

const ok = (address: string): AddressCheck => ({ ok: true, address })
const bad = (code: AddressCheckCode, message: string): AddressCheck => ({ ok: false, code, message })

const b58check = createBase58check(sha256)
const BASE58_CHARS = /^[1-9A-HJ-NP-Za-km-z]+$/

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString("hex")

// --- ethereum (EIP-55) -------------------------------------------------------------------------

/** The EIP-55 mixed-case form of a 20-byte address. */
export const toEip55 = (address: string): string => {
  const lower = address.toLowerCase().replace(/^0x/, "")
  const hash = hex(keccak_256(new TextEncoder().encode(lower)))
  let out = "0x"
  for (let i = 0; i < lower.length; i++) out += parseInt(hash[i]!, 16) >= 8 ? lower[i]!.toUpperCase() : lower[i]!
  return out
}

export const checkEthereum = (input: string): AddressCheck => {
  if (!/^0x[0-9a-fA-F]*$/.test(input)) return bad("invalid_address", "an Ethereum address is 0x followed by hex digits")
  if (input.length !== 42) return bad("invalid_number_of_characters", "an Ethereum address has 42 characters")
  const body = input.slice(2)
  const mixed = body !== body.toLowerCase() && body !== body.toUpperCase()
  if (mixed && toEip55(input) !== input) return bad("invalid_address", "the EIP-55 checksum (letter case) does not match")
  return ok(toEip55(input))
}

// --- tron --------------------------------------------------------------------------------------

export const checkTron = (input: string): AddressCheck => {
  if (!BASE58_CHARS.test(input) || !input.startsWith("T")) return bad("invalid_address", "a TRON address starts with T and uses base58 characters")
  if (input.length !== 34) return bad("invalid_number_of_characters", "a TRON address has 34 characters")
  let payload: Uint8Array
  try {
    payload = b58check.decode(input)
  } catch {
    return bad("invalid_address", "the base58check checksum does not match")
  }
  if (payload.length !== 21 || payload[0] !== 0x41) return bad("invalid_address", "not a TRON mainnet address")
  return ok(input)
}

export const tronAddressOf = (body20: Uint8Array): string => b58check.encode(Uint8Array.from([0x41, ...body20.slice(0, 20)]))

// --- solana ------------------------------------------------------------------------------------

export const checkSolana = (input: string): AddressCheck => {
  if (!BASE58_CHARS.test(input)) return bad("invalid_address", "a Solana address uses base58 characters")
  if (input.length < 32 || input.length > 44) return bad("invalid_number_of_characters", "a Solana address has 32 to 44 characters")
  let bytes: Uint8Array
  try {
    bytes = base58.decode(input)
  } catch {
    return bad("invalid_address", "not base58")
  }
  if (bytes.length !== 32) return bad("invalid_address", "a Solana address is a 32-byte key")
  return ok(input)
}

// --- bitcoin -----------------------------------------------------------------------------------

export const checkBitcoin = (input: string): AddressCheck => {
  if (/^bc1/i.test(input)) {
    const lower = input.toLowerCase()
    if (input !== lower && input !== input.toUpperCase()) return bad("invalid_address", "a bech32 address is all lower or all upper case")
    if (!/^bc1[02-9ac-hj-np-z]+$/.test(lower)) return bad("invalid_address", "not a bech32 address")
    if (lower.length !== 42 && lower.length !== 62) return bad("invalid_number_of_characters", "a segwit address has 42 or 62 characters")
    const version = bech32.decodeUnsafe(lower, 90)
    const versionM = version === undefined ? bech32m.decodeUnsafe(lower, 90) : undefined
    const decoded = version ?? versionM
    if (decoded === undefined || decoded.prefix !== "bc" || decoded.words.length === 0) return bad("invalid_address", "the bech32 checksum does not match")
    const witnessVersion = decoded.words[0]!
    // BIP-350: version 0 uses bech32, versions 1-16 bech32m.
    if ((witnessVersion === 0 && version === undefined) || (witnessVersion > 0 && versionM === undefined) || witnessVersion > 16) {
      return bad("invalid_address", "wrong checksum variant for the witness version")
    }
    const program = bech32.fromWordsUnsafe(decoded.words.slice(1))
    if (program === undefined || program.length < 2 || program.length > 40) return bad("invalid_address", "invalid witness program")
    if (witnessVersion === 0 && program.length !== 20 && program.length !== 32) return bad("invalid_address", "a v0 witness program is 20 or 32 bytes")
    if (witnessVersion === 1 && program.length !== 32) return bad("invalid_address", "a taproot program is 32 bytes")
    return ok(lower)
  }
  if (/^(tb1|bcrt1|[mn2])/i.test(input)) return bad("invalid_address", "a testnet address on mainnet")
  if (!BASE58_CHARS.test(input) || !/^[13]/.test(input)) return bad("invalid_address", "a bitcoin address starts with bc1, 1 or 3")
  if (input.length < 26 || input.length > 35) return bad("invalid_number_of_characters", "a legacy bitcoin address has 26 to 35 characters")
  let payload: Uint8Array
  try {
    payload = b58check.decode(input)
  } catch {
    return bad("invalid_address", "the base58check checksum does not match")
  }
  if (payload.length !== 21 || (payload[0] !== 0x00 && payload[0] !== 0x05)) return bad("invalid_address", "not a bitcoin mainnet address")
  return ok(input)
}

export const bitcoinAddressOf = (program20: Uint8Array): string => bech32.encode("bc", [0, ...bech32.toWords(program20.slice(0, 20))])

// --- ton ---------------------------------------------------------------------------------------

/** TON: raw or friendly; `testnet` refuses mainnet-only forms the other way round (test-only flag). */
export const checkTon = (input: string, options: { readonly testnet: boolean }): AddressCheck => {
  if (/^-?[0-9]+:/.test(input)) {
    if (!/^-?[0-9]+:[0-9a-fA-F]*$/.test(input)) return bad("invalid_address", "a raw address is workchain:hex")
    if (input.split(":")[1]!.length !== 64) return bad("invalid_number_of_characters", "a raw address has 64 hex digits")
    try {
      return ok(Address.parseRaw(input).toRawString())
    } catch {
      return bad("invalid_address", "not a TON address")
    }
  }
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(input)) return bad("invalid_address", "not a TON address")
  if (input.length !== 48) return bad("invalid_number_of_characters", "a TON address has 48 characters")
  try {
    const parsed = Address.parseFriendly(input)
    if (parsed.isTestOnly && !options.testnet) return bad("invalid_address", "a testnet address on mainnet")
    if (parsed.address.workChain !== 0 && parsed.address.workChain !== -1) return bad("invalid_address", "unknown workchain")
    return ok(input)
  } catch {
    return bad("invalid_address", "the address checksum does not match")
  }
}

/** The canonical (comparable) form of a checked address: raw for TON, lower case for EVM and bech32. */
export const canonicalAddress = (network: NetworkCode, address: string): string => {
  switch (network) {
    case "ton":
      try {
        return Address.parse(address).toRawString()
      } catch {
        return address
      }
    case "ethereum":
      return address.toLowerCase()
    case "bitcoin":
      return /^bc1/i.test(address) ? address.toLowerCase() : address
    default:
      return address
  }
}

/** Syntax and checksum of an address of a non-TON network (TON also needs DNS: see ton.ts). */
export const checkAddressFormat = (network: Exclude<NetworkCode, "ton">, input: string): AddressCheck => {
  switch (network) {
    case "tron":
      return checkTron(input)
    case "ethereum":
      return checkEthereum(input)
    case "solana":
      return checkSolana(input)
    case "bitcoin":
      return checkBitcoin(input)
  }
}

/**
 * Names that look like a web3 domain (`name.eth`, `name.sol`, `@name.t.me` ...). On TON only `.ton`
 * names resolve (through DNS); the others answer invalid_web3_domain.
 */
export const looksLikeDomain = (input: string): boolean => /^[a-z0-9-]+(\.[a-z0-9-]+)*\.[a-z]{2,}$/i.test(input) && !/^[0-9a-f]+$/i.test(input.split(".")[0]!)

// --- derivation --------------------------------------------------------------------------------

/** 32 bytes derived from the master seed for one purpose ("ton:deposit:42"): HMAC-SHA256. */
export const deriveBytes = (masterSeed: Uint8Array, purpose: string): Buffer => createHmac("sha256", masterSeed).update(purpose).digest()

/** A user's deposit address on a simulated network (the simulated chains need no keys). */
export const simDepositAddress = (network: Exclude<NetworkCode, "ton">, masterSeed: Uint8Array, purpose: string): string => {
  const bytes = deriveBytes(masterSeed, `${network}:${purpose}`)
  switch (network) {
    case "tron":
      return tronAddressOf(bytes)
    case "ethereum":
      return toEip55(`0x${bytes.subarray(0, 20).toString("hex")}`)
    case "solana":
      return base58.encode(bytes)
    case "bitcoin":
      return bitcoinAddressOf(bytes)
  }
}
