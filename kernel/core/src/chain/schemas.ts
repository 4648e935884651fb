// Effect Schemas for the tonapi v2 subset (shared/data/tonapi-v2-subset.yml) the wallet reads.
// Structs ignore unknown keys, so new tonapi fields never break decoding. Money decodes to bigint.
import { Schema, SchemaGetter } from "effect"

/** An integer amount sent as a JSON number or a decimal string; decoded to bigint. */
export const Amount = Schema.Union([Schema.Int, Schema.String.check(Schema.isStringBigInt())]).pipe(
  Schema.decodeTo(Schema.BigInt, {
    decode: SchemaGetter.transform((v: number | string) => BigInt(v)),
    encode: SchemaGetter.transform((b: bigint) => b.toString()),
  }),
)

const opt = Schema.optionalKey

export const AccountStatus = Schema.Literals(["nonexist", "uninit", "active", "frozen"])
export type AccountStatus = typeof AccountStatus.Type

export const AccountAddress = Schema.Struct({
  address: Schema.String,
  name: opt(Schema.String),
  is_scam: Schema.Boolean,
  icon: opt(Schema.String),
  is_wallet: Schema.Boolean,
})
export type AccountAddress = typeof AccountAddress.Type

/** An extra currency (TVM extra-currency id) as tonapi previews it. */
export const EcPreview = Schema.Struct({ id: Schema.Int, symbol: Schema.String, decimals: Schema.Int, image: Schema.String })
export type EcPreview = typeof EcPreview.Type
export const ExtraCurrency = Schema.Struct({ amount: Amount, preview: EcPreview })
export type ExtraCurrency = typeof ExtraCurrency.Type

export const Account = Schema.Struct({
  address: Schema.String,
  balance: Amount,
  extra_balance: opt(Schema.Array(ExtraCurrency)),
  last_activity: Schema.Number,
  status: AccountStatus,
  interfaces: opt(Schema.Array(Schema.String)),
  name: opt(Schema.String),
  is_scam: opt(Schema.Boolean),
  icon: opt(Schema.String),
  memo_required: opt(Schema.Boolean),
  get_methods: Schema.Array(Schema.String),
  is_suspended: opt(Schema.Boolean),
  is_wallet: Schema.Boolean,
})
export type Account = typeof Account.Type
export const Accounts = Schema.Struct({ accounts: Schema.Array(Account) })

export const Verification = Schema.Literals(["whitelist", "graylist", "blacklist", "none"])

export const JettonPreview = Schema.Struct({
  address: Schema.String,
  name: Schema.String,
  symbol: Schema.String,
  decimals: Schema.Int,
  image: Schema.String,
  verification: Verification,
  score: opt(Schema.Number),
  description: opt(Schema.String),
})
export type JettonPreview = typeof JettonPreview.Type

export const TokenRates = Schema.Struct({
  prices: opt(Schema.Record(Schema.String, Schema.Number)),
  diff_24h: opt(Schema.Record(Schema.String, Schema.String)),
  diff_7d: opt(Schema.Record(Schema.String, Schema.String)),
  diff_30d: opt(Schema.Record(Schema.String, Schema.String)),
})
export type TokenRates = typeof TokenRates.Type

export const JettonBalance = Schema.Struct({
  balance: Amount,
  price: opt(TokenRates),
  wallet_address: AccountAddress,
  jetton: JettonPreview,
  extensions: opt(Schema.Array(Schema.String)),
  lock: opt(Schema.Struct({ amount: Amount, till: Schema.Number })),
})
export type JettonBalance = typeof JettonBalance.Type
export const JettonsBalances = Schema.Struct({ balances: Schema.Array(JettonBalance) })

export const EncryptedComment = Schema.Struct({ encryption_type: Schema.String, cipher_text: Schema.String })

export const TonTransferAction = Schema.Struct({
  sender: AccountAddress,
  recipient: AccountAddress,
  amount: Amount,
  comment: opt(Schema.String),
  encrypted_comment: opt(EncryptedComment),
})
export const ExtraCurrencyTransferAction = Schema.Struct({
  sender: AccountAddress,
  recipient: AccountAddress,
  amount: Amount,
  comment: opt(Schema.String),
  encrypted_comment: opt(EncryptedComment),
  currency: EcPreview,
})
export const JettonTransferAction = Schema.Struct({
  sender: opt(AccountAddress),
  recipient: opt(AccountAddress),
  senders_wallet: Schema.String,
  recipients_wallet: Schema.String,
  amount: Amount,
  comment: opt(Schema.String),
  encrypted_comment: opt(EncryptedComment),
  jetton: JettonPreview,
})
export const JettonMintAction = Schema.Struct({ recipient: AccountAddress, recipients_wallet: Schema.String, amount: Amount, jetton: JettonPreview })
export const JettonBurnAction = Schema.Struct({ sender: AccountAddress, senders_wallet: Schema.String, amount: Amount, jetton: JettonPreview })
export const NftItemTransferAction = Schema.Struct({
  sender: opt(AccountAddress),
  recipient: opt(AccountAddress),
  nft: Schema.String,
  comment: opt(Schema.String),
  encrypted_comment: opt(EncryptedComment),
  payload: opt(Schema.String),
})
export const ContractDeployAction = Schema.Struct({ address: Schema.String, interfaces: Schema.Array(Schema.String) })
export const SmartContractAction = Schema.Struct({
  executor: AccountAddress,
  contract: AccountAddress,
  gram_attached: Amount,
  operation: Schema.String,
  payload: opt(Schema.String),
})

export const ActionSimplePreview = Schema.Struct({
  name: Schema.String,
  description: Schema.String,
  value: opt(Schema.String),
  accounts: Schema.Array(AccountAddress),
})

/** One action. `type` is kept as a string: tonapi adds kinds over time; known kinds carry typed payloads. */
export const Action = Schema.Struct({
  type: Schema.String,
  status: Schema.Literals(["ok", "failed"]),
  TonTransfer: opt(TonTransferAction),
  ExtraCurrencyTransfer: opt(ExtraCurrencyTransferAction),
  JettonTransfer: opt(JettonTransferAction),
  JettonMint: opt(JettonMintAction),
  JettonBurn: opt(JettonBurnAction),
  NftItemTransfer: opt(NftItemTransferAction),
  ContractDeploy: opt(ContractDeployAction),
  SmartContractExec: opt(SmartContractAction),
  simple_preview: ActionSimplePreview,
  base_transactions: Schema.Array(Schema.String),
})
export type Action = typeof Action.Type

export const AccountEvent = Schema.Struct({
  event_id: Schema.String,
  account: AccountAddress,
  timestamp: Schema.Number,
  actions: Schema.Array(Action),
  is_scam: Schema.Boolean,
  lt: Schema.Number,
  in_progress: Schema.Boolean,
  extra: Amount,
  progress: opt(Schema.Number),
  ext_msg_hash: opt(Schema.String),
})
export type AccountEvent = typeof AccountEvent.Type
export const AccountEvents = Schema.Struct({ events: Schema.Array(AccountEvent), next_from: Schema.Number })
export type AccountEvents = typeof AccountEvents.Type

export const ValueFlow = Schema.Struct({
  account: AccountAddress,
  gram: Amount,
  fees: Amount,
  jettons: opt(Schema.Array(Schema.Struct({ account: AccountAddress, jetton: JettonPreview, qty: Amount }))),
})
export const Event = Schema.Struct({
  event_id: Schema.String,
  timestamp: Schema.Number,
  actions: Schema.Array(Action),
  value_flow: Schema.Array(ValueFlow),
  is_scam: Schema.Boolean,
  lt: Schema.Number,
  in_progress: Schema.Boolean,
  progress: opt(Schema.Number),
  ext_msg_hash: opt(Schema.String),
})
export type Event = typeof Event.Type

export const NftItem = Schema.Struct({
  address: Schema.String,
  index: Schema.Number,
  owner: opt(AccountAddress),
  collection: opt(Schema.Struct({ address: Schema.String, name: Schema.String, description: Schema.String })),
  verified: Schema.Boolean,
  metadata: Schema.Record(Schema.String, Schema.Unknown),
  previews: opt(Schema.Array(Schema.Struct({ resolution: Schema.String, url: Schema.String }))),
  dns: opt(Schema.String),
  trust: Verification,
})
export type NftItem = typeof NftItem.Type
export const NftItems = Schema.Struct({ nft_items: Schema.Array(NftItem) })

export const JettonQuantity = Schema.Struct({ quantity: Amount, wallet_address: AccountAddress, jetton: JettonPreview })
export const Risk = Schema.Struct({
  transfer_all_remaining_balance: Schema.Boolean,
  gram: Amount,
  jettons: Schema.Array(JettonQuantity),
  nfts: Schema.Array(NftItem),
  total_equivalent: opt(Schema.Number),
})
export type Risk = typeof Risk.Type

/** A trace node; the transaction is kept loosely typed apart from the fields the wallet reads. */
export interface Trace {
  readonly transaction: { readonly hash: string; readonly lt: number; readonly success: boolean; readonly account: AccountAddress }
  readonly interfaces: ReadonlyArray<string>
  readonly children?: ReadonlyArray<Trace>
  readonly emulated?: boolean
}
export const Trace: Schema.Codec<Trace> = Schema.Struct({
  transaction: Schema.Struct({ hash: Schema.String, lt: Schema.Number, success: Schema.Boolean, account: AccountAddress }),
  interfaces: Schema.Array(Schema.String),
  children: opt(Schema.Array(Schema.suspend((): Schema.Codec<Trace> => Trace))),
  emulated: opt(Schema.Boolean),
})

export const MessageConsequences = Schema.Struct({ trace: Trace, risk: Risk, event: AccountEvent })
export type MessageConsequences = typeof MessageConsequences.Type

export const Seqno = Schema.Struct({ seqno: Schema.Int })

export const JettonOperation = Schema.Struct({
  operation: Schema.Literals(["transfer", "mint", "burn"]),
  utime: Schema.Number,
  lt: Schema.Number,
  transaction_hash: Schema.String,
  source: opt(AccountAddress),
  destination: opt(AccountAddress),
  amount: Amount,
  jetton: JettonPreview,
  trace_id: Schema.String,
  query_id: Schema.String,
})
export const JettonOperations = Schema.Struct({ operations: Schema.Array(JettonOperation), next_from: opt(Schema.Number) })
export type JettonOperations = typeof JettonOperations.Type

export const DnsRecord = Schema.Struct({
  wallet: opt(
    Schema.Struct({
      address: Schema.String,
      account: AccountAddress,
      is_wallet: Schema.Boolean,
      has_method_pubkey: Schema.Boolean,
      has_method_seqno: Schema.Boolean,
      names: Schema.Array(Schema.String),
    }),
  ),
  next_resolver: opt(Schema.String),
  sites: Schema.Array(Schema.String),
  storage: opt(Schema.String),
})
export type DnsRecord = typeof DnsRecord.Type
export const DomainNames = Schema.Struct({ domains: Schema.Array(Schema.String) })

export interface TvmStackRecord {
  readonly type: "cell" | "num" | "nan" | "null" | "tuple"
  readonly cell?: string
  readonly slice?: string
  readonly num?: string
  readonly tuple?: ReadonlyArray<TvmStackRecord>
}
export const TvmStackRecord: Schema.Codec<TvmStackRecord> = Schema.Struct({
  type: Schema.Literals(["cell", "num", "nan", "null", "tuple"]),
  cell: opt(Schema.String),
  slice: opt(Schema.String),
  num: opt(Schema.String),
  tuple: opt(Schema.Array(Schema.suspend((): Schema.Codec<TvmStackRecord> => TvmStackRecord))),
})
export const MethodExecutionResult = Schema.Struct({
  success: Schema.Boolean,
  exit_code: Schema.Int,
  stack: Schema.Array(TvmStackRecord),
  decoded: opt(Schema.Unknown),
})
export type MethodExecutionResult = typeof MethodExecutionResult.Type

export const BlockchainRawAccount = Schema.Struct({
  address: Schema.String,
  balance: Amount,
  code: opt(Schema.String),
  data: opt(Schema.String),
  last_transaction_lt: Schema.Number,
  last_transaction_hash: opt(Schema.String),
  status: AccountStatus,
})
export type BlockchainRawAccount = typeof BlockchainRawAccount.Type

export const Rates = Schema.Struct({ rates: Schema.Record(Schema.String, TokenRates) })
export const ChartPoints = Schema.Struct({ points: Schema.Array(Schema.Tuple([Schema.Number, Schema.Number])) })

export const JettonInfo = Schema.Struct({
  mintable: Schema.Boolean,
  total_supply: Amount,
  admin: opt(AccountAddress),
  metadata: Schema.Struct({
    address: Schema.String,
    name: Schema.String,
    symbol: Schema.String,
    decimals: Schema.String,
    image: opt(Schema.String),
    description: opt(Schema.String),
  }),
  preview: opt(Schema.String),
  verification: Verification,
  holders_count: Schema.Int,
})
export type JettonInfo = typeof JettonInfo.Type

export const GaslessConfig = Schema.Struct({ relay_address: Schema.String, gas_jettons: Schema.Array(Schema.Struct({ master_id: Schema.String })) })
export type GaslessConfig = typeof GaslessConfig.Type
export const SignRawParams = Schema.Struct({
  protocol_name: Schema.String,
  relay_address: Schema.String,
  commission: Amount,
  from: Schema.String,
  valid_until: Schema.Number,
  messages: Schema.Array(Schema.Struct({ address: Schema.String, amount: Amount, payload: opt(Schema.String), stateInit: opt(Schema.String) })),
})
export type SignRawParams = typeof SignRawParams.Type
export const GaslessTx = Schema.Struct({ protocol_name: Schema.String, external: opt(Schema.String) })

export const StakingPool = Schema.Struct({
  implementation: Schema.Struct({ name: Schema.String, description: Schema.String, url: Schema.String, socials: Schema.Array(Schema.String) }),
  pool: Schema.Struct({
    address: Schema.String,
    name: Schema.String,
    total_amount: Amount,
    implementation: Schema.String,
    apy: Schema.Number,
    min_stake: Amount,
    cycle_start: Schema.Number,
    cycle_end: Schema.Number,
    verified: Schema.Boolean,
    current_nominators: Schema.Int,
    max_nominators: Schema.Int,
    liquid_jetton_master: opt(Schema.String),
    nominators_stake: Amount,
    validator_stake: Amount,
  }),
})
export type StakingPool = typeof StakingPool.Type

export const ErrorBody = Schema.Struct({ error: Schema.String, error_code: opt(Schema.Number) })
