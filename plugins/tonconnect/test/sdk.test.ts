/**
 * The real dApp SDK (@tonconnect/sdk) against the real bridge (the API server on PGlite) and this
 * engine as the wallet, on an in-process devnet with a faucet-funded W5R1 wallet: connect with
 * ton_proof (checked independently of the engine), a transaction that lands on the chain, signData
 * (text, binary, cell) checked by signature, and disconnects in both directions.
 */
import { createPublicKey, createHash, verify } from "node:crypto"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { Address, beginCell, Cell, contractAddress, loadStateInit, storeStateInit } from "@ton/core"
import { WalletContractV5R1 } from "@ton/ton"
import { SessionCrypto } from "@tonconnect/protocol"
import { TonConnect, type Wallet } from "@tonconnect/sdk"
import { type RunningDevnet, startDevnet } from "@wallet/devnet"
import { makeChainClient } from "@wallet/kernel/chain"
import { type RunningServer, startServer } from "@wallet/kernel-server"
import { Effect } from "effect"
import nacl from "tweetnacl"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { keyPairSigner, makeBridgeClient, makeEngine, memoryStore, parseConnectLink, type PendingRequest, type TonConnectEngine } from "../src/engine/index.ts"

/** ed25519 verification through Node's crypto (not tweetnacl, which the engine's test signer uses). */
const ed25519Verify = (publicKey: Buffer, message: Buffer, signature: Buffer): boolean => {
  const spki = Buffer.concat([Buffer.from("302a300506032b6570032100", "hex"), publicKey])
  return verify(null, message, createPublicKey({ key: spki, format: "der", type: "spki" }), signature)
}
const sha = (data: Buffer): Buffer => createHash("sha256").update(data).digest()

/** A queue of the engine's pending requests, awaited one by one. */
const requestQueue = () => {
  const items: Array<PendingRequest> = []
  const waiters: Array<(r: PendingRequest) => void> = []
  return {
    push: (r: PendingRequest) => {
      const waiter = waiters.shift()
      if (waiter) waiter(r)
      else items.push(r)
    },
    next: (): Promise<PendingRequest> => {
      const item = items.shift()
      return item ? Promise.resolve(item) : new Promise((resolve) => waiters.push(resolve))
    },
  }
}

describe("the @tonconnect/sdk dApp and the wallet engine through the bridge, on the devnet", () => {
  let server: RunningServer
  let devnet: RunningDevnet
  let site: Server
  let siteUrl: string
  let engine: TonConnectEngine | undefined
  const connectors: Array<TonConnect> = []

  const seed = new Uint8Array(32).map((_, i) => (i * 7 + 3) & 0xff)
  const keys = nacl.sign.keyPair.fromSeed(seed)
  const contract = WalletContractV5R1.create({ workchain: 0, publicKey: Buffer.from(keys.publicKey), walletId: { networkGlobalId: -239 } })
  const stateInit = beginCell().store(storeStateInit(contract.init)).endCell().toBoc().toString("base64")
  const signer = keyPairSigner({ secretKey: keys.secretKey, address: contract.address.toRawString(), stateInit, network: "-239" })
  const requests = requestQueue()
  let firstDapp: ReturnType<typeof newConnector> | undefined
  let nftAddress = ""

  beforeAll(async () => {
    ;[server, devnet] = await Promise.all([
      startServer({ port: 0, database: { kind: "pglite" }, botToken: "123:tonconnect-sdk" }),
      startDevnet({ blockMs: 100 }),
    ])
    site = createServer((req, res) => {
      if (req.url === "/wallets.json") {
        res.writeHead(200, { "content-type": "application/json" })
        res.end("[]")
      } else if (req.url === "/tonconnect-manifest.json") {
        res.writeHead(200, { "content-type": "application/json", "access-control-allow-origin": "*" })
        res.end(JSON.stringify({ url: siteUrl, name: "Demo dApp", iconUrl: `${siteUrl}/icon.png` }))
      } else {
        res.writeHead(404)
        res.end()
      }
    })
    await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve))
    siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`
    const minted = await devnet.faucet({
      address: contract.address.toString({ bounceable: false }),
      ton: 3_000_000_000n,
      jetton: "usdt",
      amount: 50_000_000n,
      nft: true,
    })
    nftAddress = minted.nft!
    await devnet.stepBlock()
    await devnet.stepBlock()
  }, 180_000)

  afterAll(async () => {
    engine?.stop()
    for (const connector of connectors) connector.pauseConnection()
    await new Promise<void>((resolve) => site?.close(() => resolve()))
    await Promise.all([server?.close(), devnet?.close()])
  })

  const newConnector = (manifestUrl = `${siteUrl}/tonconnect-manifest.json`) => {
    const store = new Map<string, string>()
    const connector = new TonConnect({
      manifestUrl,
      storage: {
        setItem: async (key, value) => void store.set(key, value),
        getItem: async (key) => store.get(key) ?? null,
        removeItem: async (key) => void store.delete(key),
      },
      analytics: { mode: "off" },
      walletsListSource: `${siteUrl}/wallets.json`,
    } as ConstructorParameters<typeof TonConnect>[0])
    connectors.push(connector)
    const statuses: Array<Wallet | null> = []
    const waiters: Array<{ until: (w: Wallet | null) => boolean; resolve: (w: Wallet | null) => void }> = []
    const errorWaiters: Array<(e: Error) => void> = []
    connector.onStatusChange(
      (wallet) => {
        statuses.push(wallet)
        for (const waiter of waiters.splice(0)) {
          if (waiter.until(wallet)) waiter.resolve(wallet)
          else waiters.push(waiter)
        }
      },
      (error) => {
        for (const waiter of errorWaiters.splice(0)) waiter(error)
      },
    )
    const status = (until: (w: Wallet | null) => boolean) => new Promise<Wallet | null>((resolve) => waiters.push({ until, resolve }))
    const nextError = () => new Promise<Error>((resolve) => errorWaiters.push(resolve))
    return { connector, statuses, status, nextError }
  }

  const chain = () => makeChainClient({ baseUrl: devnet.url })

  it("a declined connection reaches the SDK as UserRejectsError, a missing manifest the dApp as code 2", async () => {
    const lonely = makeEngine({
      signer,
      storage: memoryStore(),
      bridgeUrl: `${server.url}/bridge`,
      chain: chain(),
      device: { platform: "linux", appName: "wallet", appVersion: "6.4.0" },
    })
    const declining = newConnector()
    const rejected = declining.nextError()
    const link = await Effect.runPromise(
      parseConnectLink(declining.connector.connect({ universalLink: "https://wallet.example/tc", bridgeUrl: `${server.url}/bridge` })),
    )
    await Effect.runPromise(lonely.prepareConnect(link).pipe(Effect.flatMap(lonely.declineConnect)))
    expect((await rejected).constructor.name).toBe("UserRejectsError")
    expect(declining.connector.connected).toBe(false)

    // The SDK rethrows manifest errors out of its event listener (an unhandled rejection by design),
    // so this case listens on the bridge as a bare dApp session instead.
    const dapp = new SessionCrypto()
    const inbox: Array<string> = []
    const listener = makeBridgeClient({ url: `${server.url}/bridge` }).listen([dapp.sessionId], undefined, async (event) => void inbox.push(event.data))
    try {
      const request = { manifestUrl: `${siteUrl}/missing-manifest.json`, items: [{ name: "ton_addr" as const }] }
      const failed = await Effect.runPromise(Effect.result(lonely.prepareConnect({ version: 2, clientId: dapp.sessionId, request, ret: "back" })))
      expect(failed._tag === "Failure" && failed.failure).toMatchObject({ code: 2 })
      for (let i = 0; i < 100 && inbox.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 50))
      const envelope = JSON.parse(inbox[0]!) as { from: string; message: string }
      const event = JSON.parse(dapp.decrypt(Buffer.from(envelope.message, "base64"), Buffer.from(envelope.from, "hex"))) as object
      expect(event).toMatchObject({ event: "connect_error", payload: { code: 2 } })
    } finally {
      listener.close()
    }
  }, 60_000)

  it("connects with a ton_proof that checks out independently", async () => {
    engine = makeEngine({
      signer,
      storage: memoryStore(),
      bridgeUrl: `${server.url}/bridge`,
      chain: chain(),
      device: { platform: "linux", appName: "wallet", appVersion: "6.4.0" },
      onRequest: requests.push,
      reconnectDelaysMs: [100],
    })
    await Effect.runPromise(engine.start())
    const dapp = newConnector()
    const connected = dapp.status((w) => w !== null)
    // Inside Telegram the SDK packs the request into startapp=tonconnect-… with its character encoding.
    const link = dapp.connector.connect(
      { universalLink: "https://t.me/wallet?attach=wallet", bridgeUrl: `${server.url}/bridge` },
      { tonProof: "proof-payload-42" },
    )
    expect(new URL(link).searchParams.get("startapp")).toMatch(/^tonconnect-/)
    const parsed = await Effect.runPromise(parseConnectLink(link))
    const proposal = await Effect.runPromise(engine.prepareConnect(parsed))
    expect(proposal.app).toMatchObject({ name: "Demo dApp", shortHost: "127.0.0.1", domain: new URL(siteUrl).host })
    expect(proposal.proofPayload).toBe("proof-payload-42")
    await Effect.runPromise(engine.approveConnect(proposal))
    const wallet = (await connected)!

    // The address the wallet claims is the one its state init deploys to, with that public key inside.
    const init = loadStateInit(Cell.fromBase64(wallet.account.walletStateInit!).beginParse())
    expect(contractAddress(0, init).toRawString()).toBe(wallet.account.address)
    const data = init.data!.beginParse()
    data.skip(1 + 32 + 32)
    expect(data.loadBuffer(32).toString("hex")).toBe(wallet.account.publicKey)
    expect(wallet.account.chain).toBe("-239")
    expect(wallet.device.features).toContainEqual({ name: "SignData", types: ["text", "binary", "cell"] })

    // ton_proof re-derived from the spec with Buffer arithmetic and checked with Node's ed25519.
    const proofItem = wallet.connectItems?.tonProof
    expect(proofItem && "proof" in proofItem).toBe(true)
    const proof = (proofItem as { proof: { timestamp: number; domain: { lengthBytes: number; value: string }; payload: string; signature: string } }).proof
    expect(proof.domain.value).toBe(new URL(siteUrl).host)
    expect(proof.payload).toBe("proof-payload-42")
    expect(Math.abs(proof.timestamp - Date.now() / 1000)).toBeLessThan(120)
    const [wc, hashHex] = wallet.account.address.split(":") as [string, string]
    const wcBuf = Buffer.alloc(4)
    wcBuf.writeInt32BE(Number(wc))
    const lenBuf = Buffer.alloc(4)
    lenBuf.writeUInt32LE(proof.domain.lengthBytes)
    const tsBuf = Buffer.alloc(8)
    tsBuf.writeBigUInt64LE(BigInt(proof.timestamp))
    const message = Buffer.concat([
      Buffer.from("ton-proof-item-v2/"),
      wcBuf,
      Buffer.from(hashHex, "hex"),
      lenBuf,
      Buffer.from(proof.domain.value),
      tsBuf,
      Buffer.from(proof.payload),
    ])
    const digest = sha(Buffer.concat([Buffer.from([0xff, 0xff]), Buffer.from("ton-connect"), sha(message)]))
    const publicKey = Buffer.from(wallet.account.publicKey!, "hex")
    expect(ed25519Verify(publicKey, digest, Buffer.from(proof.signature, "base64"))).toBe(true)
    expect(ed25519Verify(publicKey, sha(Buffer.concat([digest, Buffer.from([1])])), Buffer.from(proof.signature, "base64"))).toBe(false)

    const sessions = await Effect.runPromise(engine.sessions())
    expect(sessions.map((s) => s.app.name)).toEqual(["Demo dApp"])
    firstDapp = dapp
  }, 60_000)

  it("sends a transaction that lands on the devnet and answers with its BoC", async () => {
    const dapp = firstDapp!
    const receiver = Address.parseRaw(`0:${Buffer.from(nacl.randomBytes(32)).toString("hex")}`)
    const sending = dapp.connector.sendTransaction({
      validUntil: Math.floor(Date.now() / 1000) + 240,
      messages: [
        {
          address: receiver.toString({ bounceable: false }),
          amount: "150000000",
          payload: beginCell().storeUint(0, 32).storeStringTail("for the tests").endCell().toBoc().toString("base64"),
        },
      ],
    })
    const pending = await requests.next()
    if (pending.kind !== "sendTransaction") throw new Error(`expected a transaction, got ${pending.kind}`)
    expect(pending.request.messages).toHaveLength(1)
    expect(pending.request.messages[0]).toMatchObject({
      to: receiver.toRawString(),
      amount: 150_000_000n,
      bounce: false,
      action: { kind: "ton", comment: "for the tests" },
    })
    const emulated = await Effect.runPromise(engine!.emulate(pending))
    expect(BigInt(emulated.risk.gram)).toBe(150_000_000n)

    const { boc } = await Effect.runPromise(engine!.approveTransaction(pending))
    const answer = await sending
    expect(answer.boc).toBe(boc)
    // The BoC is an external message to the wallet carrying its state init (first transfer deploys it).
    const external = Cell.fromBase64(answer.boc).beginParse()
    expect(external.loadUint(2)).toBe(2) // ext_in_msg_info$10
    const client = chain()
    let balance = 0n
    for (let i = 0; i < 100 && balance === 0n; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100))
      const account = await Effect.runPromise(Effect.result(client.getAccount(receiver.toRawString())))
      if (account._tag === "Success") balance = BigInt(account.success.balance)
    }
    expect(balance).toBe(150_000_000n)
    const wallet = await Effect.runPromise(client.getAccount(signer.address))
    expect(wallet.status).toBe("active")
  }, 60_000)

  it("sends a jetton and an NFT in one transaction: decoded, emulated as what leaves the wallet, and landed", async () => {
    const dapp = firstDapp!
    const client = chain()
    const usdt = devnet.jetton("usdt")
    const mine = await Effect.runPromise(client.getJettonBalance(signer.address, usdt))
    expect(BigInt(mine.balance)).toBe(50_000_000n)
    const receiver = Address.parseRaw(`0:${Buffer.from(nacl.randomBytes(32)).toString("hex")}`)
    const me = Address.parseRaw(signer.address)
    const jettonBody = beginCell()
      .storeUint(0x0f8a7ea5, 32)
      .storeUint(1, 64)
      .storeCoins(1_250_000n)
      .storeAddress(receiver)
      .storeAddress(me)
      .storeMaybeRef(null)
      .storeCoins(1n)
      .storeBit(0)
      .endCell()
    const nftBody = beginCell()
      .storeUint(0x5fcc3d14, 32)
      .storeUint(2, 64)
      .storeAddress(receiver)
      .storeAddress(me)
      .storeMaybeRef(null)
      .storeCoins(0n)
      .storeBit(0)
      .endCell()
    const sending = dapp.connector.sendTransaction({
      validUntil: Math.floor(Date.now() / 1000) + 240,
      messages: [
        { address: Address.parse(mine.wallet_address.address).toString(), amount: "100000000", payload: jettonBody.toBoc().toString("base64") },
        { address: Address.parse(nftAddress).toString(), amount: "100000000", payload: nftBody.toBoc().toString("base64") },
      ],
    })
    const pending = await requests.next()
    if (pending.kind !== "sendTransaction") throw new Error(`expected a transaction, got ${pending.kind}`)
    expect(pending.request.messages.map((m) => m.action)).toEqual([
      { kind: "jetton", queryId: 1n, jettonAmount: 1_250_000n, recipient: receiver.toRawString(), responseDestination: me.toRawString(), forwardTonAmount: 1n },
      { kind: "nft", queryId: 2n, newOwner: receiver.toRawString(), responseDestination: me.toRawString(), forwardAmount: 0n },
    ])
    const { risk } = await Effect.runPromise(engine!.emulate(pending))
    expect(risk.jettons.map((j) => [Address.parse(j.jetton.address).toRawString(), BigInt(j.quantity)])).toEqual([
      [Address.parse(usdt).toRawString(), 1_250_000n],
    ])
    expect(risk.nfts.map((n) => Address.parse(n.address).toRawString())).toEqual([Address.parse(nftAddress).toRawString()])
    await Effect.runPromise(engine!.approveTransaction(pending))
    await sending
    let received = 0n
    let owner = ""
    for (let i = 0; i < 100 && (received === 0n || owner !== receiver.toRawString()); i++) {
      await new Promise((resolve) => setTimeout(resolve, 100))
      const balance = await Effect.runPromise(Effect.result(client.getJettonBalance(receiver.toRawString(), usdt)))
      if (balance._tag === "Success") received = BigInt(balance.success.balance)
      const item = await Effect.runPromise(client.getNft(nftAddress))
      owner = item.owner ? Address.parse(item.owner.address).toRawString() : ""
    }
    expect(received).toBe(1_250_000n)
    expect(owner).toBe(receiver.toRawString())
  }, 60_000)

  it("signs text, binary and cell data with signatures that verify", async () => {
    const dapp = firstDapp!
    const domain = new URL(siteUrl).host
    const publicKey = Buffer.from(signer.publicKey)
    const hash = Buffer.from(signer.address.split(":")[1]!, "hex")

    for (const payload of [
      { type: "text" as const, text: "I agree to the demo terms" },
      { type: "binary" as const, bytes: Buffer.from([1, 2, 3, 250]).toString("base64") },
    ]) {
      const signing = dapp.connector.signData(payload)
      const pending = await requests.next()
      if (pending.kind !== "signData") throw new Error(`expected signData, got ${pending.kind}`)
      await Effect.runPromise(engine!.approveSignData(pending))
      const result = await signing
      expect(result.address).toBe(signer.address)
      expect(result.domain).toBe(domain)
      const data = payload.type === "text" ? Buffer.from(payload.text) : Buffer.from(payload.bytes, "base64")
      const head = Buffer.alloc(4)
      head.writeInt32BE(0)
      const len = Buffer.alloc(4)
      len.writeUInt32BE(Buffer.byteLength(domain))
      const ts = Buffer.alloc(8)
      ts.writeBigUInt64BE(BigInt(result.timestamp))
      const dataLen = Buffer.alloc(4)
      dataLen.writeUInt32BE(data.length)
      const message = Buffer.concat([
        Buffer.from([0xff, 0xff]),
        Buffer.from("ton-connect/sign-data/"),
        head,
        hash,
        len,
        Buffer.from(domain),
        ts,
        Buffer.from(payload.type === "text" ? "txt" : "bin"),
        dataLen,
        data,
      ])
      expect(ed25519Verify(publicKey, sha(message), Buffer.from(result.signature, "base64"))).toBe(true)
    }

    const schema = "comment#_ text:uint64 = Comment;"
    const cell = beginCell().storeUint(777, 64).endCell()
    const signing = dapp.connector.signData({ type: "cell", schema, cell: cell.toBoc().toString("base64") })
    const pending = await requests.next()
    if (pending.kind !== "signData") throw new Error(`expected signData, got ${pending.kind}`)
    await Effect.runPromise(engine!.approveSignData(pending))
    const result = await signing
    // crc32 through zlib-compatible table here: node:zlib has crc32 from Node 20.15 / 22.2.
    const { crc32 } = await import("node:zlib")
    const dns = domain
      .split(".")
      .toReversed()
      .map((label) => `${label}\0`)
      .join("")
    const expected = beginCell()
      .storeUint(0x75569022, 32)
      .storeUint(crc32(Buffer.from(schema)), 32)
      .storeUint(result.timestamp, 64)
      .storeAddress(Address.parseRaw(signer.address))
      .storeStringRefTail(dns)
      .storeRef(cell)
      .endCell()
    expect(ed25519Verify(publicKey, expected.hash(), Buffer.from(result.signature, "base64"))).toBe(true)
  }, 60_000)

  it("refuses a request for another wallet with code 1, and a declined one with 300", async () => {
    const dapp = firstDapp!
    const other = Address.parseRaw(`0:${"11".repeat(32)}`).toString()
    await expect(
      dapp.connector.sendTransaction({ validUntil: Math.floor(Date.now() / 1000) + 60, from: other, messages: [{ address: other, amount: "1" }] }),
    ).rejects.toThrow(/BadRequestError[\s\S]*another wallet/)
    const declined = dapp.connector.signData({ type: "text", text: "no" })
    const pending = await requests.next()
    await Effect.runPromise(engine!.reject(pending))
    await expect(declined).rejects.toThrow(/UserRejectsError/)
  }, 60_000)

  it("disconnects from the wallet side (the SDK sees it) and from the dApp side (the engine forgets)", async () => {
    const dapp = firstDapp!
    const gone = dapp.status((w) => w === null)
    const [session] = await Effect.runPromise(engine!.sessions())
    await Effect.runPromise(engine!.disconnect(session!.id))
    expect(await gone).toBeNull()
    expect(dapp.connector.connected).toBe(false)
    expect(await Effect.runPromise(engine!.sessions())).toEqual([])

    // A second dApp connects (universal link, no proof) and disconnects itself.
    const second = newConnector()
    const connected = second.status((w) => w !== null)
    const link = second.connector.connect({ universalLink: "https://wallet.example/ton-connect", bridgeUrl: `${server.url}/bridge` })
    await Effect.runPromise(parseConnectLink(link).pipe(Effect.flatMap(engine!.prepareConnect), Effect.flatMap(engine!.approveConnect)))
    await connected
    expect(await Effect.runPromise(engine!.sessions())).toHaveLength(1)
    await second.connector.disconnect()
    for (let i = 0; i < 100 && (await Effect.runPromise(engine!.sessions())).length > 0; i++) await new Promise((resolve) => setTimeout(resolve, 50))
    expect(await Effect.runPromise(engine!.sessions())).toEqual([])
  }, 60_000)
})
