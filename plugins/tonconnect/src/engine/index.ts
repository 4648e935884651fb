// @wallet/plugin-tonconnect/engine: the wallet side of TonConnect v2, framework-free. Import it lazily
// (`await import("@wallet/plugin-tonconnect/engine")`): it pulls @tonconnect/protocol, @ton/ton and @ton/core.
// The Buffer shim comes first: ESM evaluates it before the modules below load @ton/core.
export { BUFFER_INSTALLED } from "./buffer-shim.ts"
export {
  makeEngine,
  type ConnectProposal,
  type DeviceInfo,
  type EngineOptions,
  type PendingRequest,
  type RefusedRequest,
  type SignDataResult,
  type TonConnectEngine,
} from "./engine.ts"
export { BridgeError, makeBridgeClient, type BridgeClient, type BridgeClientOptions, type BridgeEvent } from "./bridge.ts"
export {
  ConnectLinkError,
  decodeStartParam,
  encodeStartParam,
  isConnectLink,
  MISSING_PARAMS_MESSAGE,
  parseConnectLink,
  parseConnectParams,
  STARTAPP_PREFIX,
  type ConnectLink,
  type ConnectParams,
  type ReturnStrategy,
} from "./links.ts"
export { fetchManifest, ManifestError, shortHost, validateManifest, type AppInfo } from "./manifest.ts"
export { dnsEncodeDomain, signDataCell, signDataDigest, signDataMessage, tonProofDigest, tonProofMessage } from "./proof.ts"
export { PROTOCOL_VERSION, type ConnectRequest, type SignDataPayload, type TransactionPayload } from "./protocol.ts"
// The protocol's error codes, as the package names them.
export { CONNECT_EVENT_ERROR_CODES, SEND_TRANSACTION_ERROR_CODES, SIGN_DATA_ERROR_CODES } from "@tonconnect/protocol"
export {
  decryptFrom,
  encryptFor,
  keyValueStoreFrom,
  memoryStore,
  newSessionKeys,
  openMessage,
  sessionsKey,
  UndecryptableMessage,
  type KeyValueStore,
  type SessionInfo,
} from "./session.ts"
export { isSealedRecord, sealedStore, storedSessionCount, type SealedStoreOptions, type SealingKeys, type SealKeyId } from "./sealed-store.ts"
export { keyPairSigner, maxMessagesOf, SignerError, type TonNetwork, type WalletSigner, type WalletVersion } from "./signer.ts"
export {
  buildSignedTransfer,
  buildUnsignedTransfer,
  decodeBody,
  decodeTransaction,
  RequestError,
  validateTransaction,
  type RpcErrorCode,
  walletContractOf,
  type DecodedMessage,
  type MessageAction,
  type TransactionRequest,
} from "./transaction.ts"
export { tonConnectPlatform, walletConnectAvailability, WALLET_CONNECT_MIN_VERSION, type WalletConnectAvailability } from "./availability.ts"
