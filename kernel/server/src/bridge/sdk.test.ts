/**
 * The real dApp SDK (@tonconnect/sdk, with its Node EventSource) against this bridge: it connects,
 * sends a transaction request and disconnects, while a minimal wallet made of `SessionCrypto` and
 * the bridge's HTTP endpoints answers. Proves the bridge speaks what the SDK expects (paths, query
 * parameters, event format, last event ids, CORS-free Node use); the wallet side proper is the
 * tonconnect plugin's.
 */
import { Base64, hexToByteArray, SessionCrypto } from "@tonconnect/protocol"
import { TonConnect } from "@tonconnect/sdk"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type RunningServer, startServer } from "../server.ts"
import { openSse, type SseConnection } from "./sseClient.ts"

/** The user-friendly (bounceable, base64url) form of `0:<hash>`: the SDK checks message addresses. */
const friendly = (hash: Uint8Array): string => {
  const data = new Uint8Array([0x11, 0x00, ...hash])
  let crc = 0
  for (const byte of data) {
    crc ^= byte << 8
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff
  }
  return Buffer.from([...data, crc >> 8, crc & 0xff]).toString("base64url")
}

describe("the @tonconnect/sdk dApp through the bridge", () => {
  let server: RunningServer
  let walletStream: SseConnection | undefined

  beforeAll(async () => {
    server = await startServer({ port: 0, database: { kind: "pglite" }, botToken: "123:bridge-sdk" })
  }, 120_000)
  afterAll(async () => {
    walletStream?.close()
    await server?.close()
  })

  it("connects, sends a transaction request and disconnects", async () => {
    const store = new Map<string, string>()
    const connector = new TonConnect({
      manifestUrl: "http://127.0.0.1:9/tonconnect-manifest.json",
      storage: {
        setItem: async (key, value) => void store.set(key, value),
        getItem: async (key) => store.get(key) ?? null,
        removeItem: async (key) => void store.delete(key),
      },
      analytics: { mode: "off" },
      walletsListSource: "http://127.0.0.1:9/wallets.json",
    } as ConstructorParameters<typeof TonConnect>[0])
    const statuses: Array<string | null> = []
    const connected = new Promise<void>((resolve, reject) =>
      connector.onStatusChange(
        (wallet) => {
          statuses.push(wallet?.account.address ?? null)
          if (wallet !== null) resolve()
        },
        (error) => reject(error),
      ),
    )

    const link = connector.connect({ universalLink: "https://wallet.example/ton-connect", bridgeUrl: `${server.url}/bridge` }) as string
    const params = new URL(link).searchParams
    const dappId = params.get("id")!
    expect(dappId).toMatch(/^[0-9a-f]{64}$/)
    expect(JSON.parse(params.get("r")!)).toMatchObject({ items: [{ name: "ton_addr" }] })

    // The wallet: its own session, listening on the bridge, answering with a connect event.
    const wallet = new SessionCrypto()
    walletStream = await openSse(`${server.url}/bridge/events?client_id=${wallet.sessionId}`)
    const sendToDapp = async (payload: object) => {
      const body = Base64.encode(wallet.encrypt(JSON.stringify(payload), hexToByteArray(dappId)))
      const response = await fetch(`${server.url}/bridge/message?client_id=${wallet.sessionId}&to=${dappId}&ttl=300`, { method: "POST", body })
      expect(response.status).toBe(200)
    }
    const address = `0:${"ab".repeat(32)}`
    const destination = friendly(new Uint8Array(32).fill(0xab))
    await sendToDapp({
      event: "connect",
      id: 1,
      payload: {
        items: [{ name: "ton_addr", address, network: "-3", publicKey: "cd".repeat(32), walletStateInit: "te6ccgEBAQEAAgAAAA==" }],
        device: { platform: "linux", appName: "wallet", appVersion: "1.0.0", maxProtocolVersion: 2, features: [{ name: "SendTransaction", maxMessages: 4 }] },
      },
    })
    await connected
    expect(connector.connected).toBe(true)
    expect(connector.account?.address).toBe(address)

    // sendTransaction: the SDK posts the encrypted request to the wallet's client id.
    const pending = connector.sendTransaction({ validUntil: Math.floor(Date.now() / 1000) + 300, messages: [{ address: destination, amount: "1000" }] })
    const event = await walletStream.next()
    const envelope = JSON.parse(event.data) as { from: string; message: string }
    expect(envelope.from).toBe(dappId)
    const request = JSON.parse(wallet.decrypt(Base64.decode(envelope.message).toUint8Array(), hexToByteArray(dappId))) as {
      method: string
      params: [string]
      id: string
    }
    expect(request.method).toBe("sendTransaction")
    expect(JSON.parse(request.params[0])).toMatchObject({ messages: [{ address: destination, amount: "1000" }] })
    await sendToDapp({ result: "te6ccgEBAQEAAgAAAA==", id: request.id })
    expect((await pending).boc).toBe("te6ccgEBAQEAAgAAAA==")

    // disconnect: the SDK tells the wallet through the bridge.
    const disconnecting = connector.disconnect()
    const bye = JSON.parse((await walletStream.next()).data) as { message: string }
    const disconnect = JSON.parse(wallet.decrypt(Base64.decode(bye.message).toUint8Array(), hexToByteArray(dappId))) as { method: string; id: string }
    expect(disconnect.method).toBe("disconnect")
    await sendToDapp({ result: {}, id: disconnect.id })
    await disconnecting
    expect(connector.connected).toBe(false)
    expect(statuses).toEqual([address, null])
  }, 60_000)
})
