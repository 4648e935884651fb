// Shapes shared by the indexer, classifier and HTTP layer. JSON field names follow tonapi v2.
import type { Address, Cell, Message } from "@ton/core"

export type AccountStatus = "nonexist" | "uninit" | "active" | "frozen"

export interface AccountAddressJson {
  address: string
  name?: string
  is_scam: boolean
  icon?: string
  is_wallet: boolean
}

export interface JettonPreviewJson {
  address: string
  name: string
  symbol: string
  decimals: number
  image: string
  verification: "whitelist" | "graylist" | "blacklist" | "none"
  score: number
  description?: string
}

export interface EcPreviewJson {
  id: number
  symbol: string
  decimals: number
  image: string
}

export interface AccountInfo {
  readonly address: string
  readonly status: AccountStatus
  readonly isWallet: boolean
  readonly interfaces: readonly string[]
  readonly name?: string
  readonly isScam: boolean
  readonly jettonWallet?: { readonly master: string; readonly owner: string }
  readonly jettonMaster?: JettonPreviewJson
  readonly nftItem?: { readonly collection?: string; readonly index: bigint }
  readonly nftCollection?: boolean
}

/** One transaction of a trace with what the classifier needs, already decoded. */
export interface TxNode {
  readonly hash: string
  readonly lt: bigint
  readonly utime: number
  readonly account: string
  readonly address: Address
  readonly inMsg?: Message
  readonly inBody?: Cell
  readonly op?: number
  readonly inValue: bigint
  /** extra currencies carried by the inbound internal message: [id, amount] */
  readonly inExtra?: ReadonlyArray<readonly [number, bigint]>
  readonly source?: string
  readonly bounced: boolean
  readonly success: boolean
  readonly aborted: boolean
  readonly origStatus: AccountStatus
  readonly endStatus: AccountStatus
  readonly endBalance: bigint
  readonly fees: bigint
  /** Net nanoton change of the account caused by this transaction. */
  readonly delta: bigint
  readonly outMsgs: readonly Message[]
  readonly children: TxNode[]
  parent?: TxNode
  readonly json: TransactionJson
}

export type TransactionJson = Record<string, unknown> & { hash: string; lt: number }
export type ActionJson = Record<string, unknown> & { type: string; status: "ok" | "failed" }

export interface ClassifiedAction {
  readonly json: ActionJson
  /** accounts for which this action shows up (owners, wallets, contracts touched) */
  readonly involved: ReadonlySet<string>
  /** the accounts that are the real subject (sender/recipient owners): used by subject_only */
  readonly subjects: ReadonlySet<string>
  /** explicit TON moved by the action per account (negative = out) */
  readonly ton: ReadonlyMap<string, bigint>
  readonly jettons: ReadonlyArray<{ owner: string; master: string; amount: bigint }>
}

export interface AccountEventJson {
  event_id: string
  account: AccountAddressJson
  timestamp: number
  actions: ActionJson[]
  is_scam: boolean
  lt: number
  in_progress: boolean
  extra: number
  progress: number
  ext_msg_hash?: string
}

export interface StoredAccountEvent {
  readonly account: string
  readonly lt: number
  readonly event: AccountEventJson
  /** per action: is the account a subject of it */
  readonly subject: readonly boolean[]
  /** the account sent the external message that started the trace */
  readonly initiator?: boolean
}

export interface JettonOpRecord {
  readonly owner: string
  readonly master: string
  readonly json: Record<string, unknown>
  readonly lt: number
}

export interface TraceRecord {
  readonly traceId: string
  readonly lt: number
  readonly utime: number
  readonly extHash: string
  readonly trace: Record<string, unknown>
  readonly event: Record<string, unknown>
  readonly accountEvents: readonly StoredAccountEvent[]
  readonly jettonOps: readonly JettonOpRecord[]
  readonly txHashes: readonly string[]
}
