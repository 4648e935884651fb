/**
 * `@wallet/plugin-p2p/api`: the P2P market's HTTP contract (spec 3 §3, §7.1; decision 1000).
 * Browser-safe (only `effect`, `@wallet/kernel/api` and the plugin's pure rules). Every endpoint needs
 * `Authorization: Bearer <access token>`. Crypto amounts are minor units and fiat amounts cents, both
 * as decimal strings.
 */
import { Schema } from "effect"
import { HttpApi, HttpApiEndpoint, HttpApiGroup, HttpApiSchema } from "effect/http-api"
import { ApiId, authenticated, BigIntId, userText } from "@wallet/kernel/api"
import { EXPRESS_CALCULATION_TYPES, EXPRESS_REQUEST_STATUSES } from "./express.ts"
import { CHAT_IMAGE_TYPES, MAX_CHAT_FILE_BYTES, MAX_CHAT_TEXT, MAX_RECEIPTS, RECEIPT_TYPES } from "./chatRules.ts"
import { MERCHANT_APPLICATION_STATUSES, MERCHANT_CRITERIA } from "./merchantRules.ts"
import { EXPORT_DELIVERIES, EXPORT_PERIODS } from "./orderCsv.ts"
import {
  HISTORY_FILTERS,
  OFFER_STATUSES,
  OFFER_TYPES,
  ORDER_MOVES,
  ORDER_STATUSES,
  PAYMENT_METHOD_CODES,
  PAYMENT_WINDOWS,
  PRICE_TYPES,
  SERVER_FILTERS,
  UNAVAILABLE_REASONS,
  UNAVAILABLE_WHY,
  P2P_CRYPTO,
  APPEAL_OUTCOMES,
  ISSUE_TYPES,
  MAX_STATEMENT,
  FLOATING_MAX_BPS,
  FLOATING_MIN_BPS,
} from "./domain.ts"
import { FEEDBACK_COMMENT_MAX } from "./reputation.ts"

/** A non-negative integer as a decimal string: at most 18 digits, so every amount fits the database's bigint (bug: a 25-digit volume was a 500). */
export const Units = Schema.String.check(Schema.isPattern(/^(0|[1-9][0-9]{0,17})$/, { message: "a whole number of minor units, as a decimal string" }))
export const PositiveUnits = Schema.String.check(
  Schema.isPattern(/^[1-9][0-9]{0,17}$/, { message: "a positive whole number of minor units, as a decimal string" }),
)
export const Id = Schema.Int.check(Schema.isGreaterThan(0))
export const OfferTypeSchema = Schema.Literals(OFFER_TYPES)
export const CryptoCode = Schema.Literals(P2P_CRYPTO.map((c) => c.code))
export const FiatCode = Schema.String.check(Schema.isPattern(/^[A-Z]{3}$/, { message: "a three-letter fiat code (ISO 4217)" }))
export const MethodCode = Schema.Literals(PAYMENT_METHOD_CODES)
export const OrderStatusSchema = Schema.Literals(ORDER_STATUSES)
export const UnavailableReasonSchema = Schema.Literals(UNAVAILABLE_REASONS)
export const Fields = Schema.Record(userText({ maxLength: 40 }), userText({ maxLength: 200 }))

/** A counterparty as the market shows them (spec 3 §3 "P2P user"; reputation is issue 21). */
export const Trader = Schema.Struct({
  userId: Schema.Number,
  name: Schema.String,
  completedOrders: Schema.Number,
  /** Completed / (completed + cancelled by them), whole percent; null before the first closed order. */
  completionRate: Schema.NullOr(Schema.Number),
  /** Reputation (issue 21, `reputation.ts`): the same over the last 30 days, average times in seconds, feedback. */
  completedOrders30d: Schema.optional(Schema.Number),
  completionRate30d: Schema.optional(Schema.NullOr(Schema.Number)),
  avgReleaseSeconds: Schema.optional(Schema.NullOr(Schema.Number)),
  avgPaymentSeconds: Schema.optional(Schema.NullOr(Schema.Number)),
  positiveFeedbackRate: Schema.optional(Schema.NullOr(Schema.Number)),
  feedbackCount: Schema.optional(Schema.Number),
  /** Approved by support as a trusted merchant (issue 21): the badge. */
  trustedMerchant: Schema.optional(Schema.Boolean),
})
export type Trader = typeof Trader.Type

export const PaymentMethodRef = Schema.Struct({ code: MethodCode, name: Schema.String })

/** A user's payment details for one method and fiat (spec 3 §2.1 /p2p/user/payments). */
export const PaymentDetails = Schema.Struct({
  id: Schema.Number,
  paymentMethod: PaymentMethodRef,
  fiat: FiatCode,
  /** The fields by kind (cardNumber, phone, bankName, holderName, ...); masked when not the viewer's to see. */
  fields: Schema.Record(Schema.String, Schema.String),
})
export type PaymentDetails = typeof PaymentDetails.Type
export const PaymentDetailsList = Schema.Struct({ items: Schema.Array(PaymentDetails) })
export const SavePaymentDetails = Schema.Struct({ code: MethodCode, fiat: FiatCode, fields: Fields })
export type SavePaymentDetails = typeof SavePaymentDetails.Type

export const MethodInfo = Schema.Struct({
  code: MethodCode,
  name: Schema.String,
  fields: Schema.Array(Schema.String),
  paymentWindow: Schema.Number,
})
export const MethodCatalog = Schema.Struct({ fiat: FiatCode, methods: Schema.Array(MethodInfo) })

export const Price = Schema.Struct({
  type: Schema.Literals(PRICE_TYPES),
  /** FIXED: cents per whole crypto unit; FLOATING: basis points of the market rate (10000 = the rate). */
  value: PositiveUnits,
})
export type Price = typeof Price.Type

export const Offer = Schema.Struct({
  id: Schema.Number,
  type: OfferTypeSchema,
  status: Schema.Literals(OFFER_STATUSES),
  user: Trader,
  isMine: Schema.Boolean,
  crypto: CryptoCode,
  fiat: FiatCode,
  price: Price,
  /** The price now, cents per whole unit (a floating price follows the market rate). */
  priceCents: Units,
  /** Crypto offered in all. */
  volume: Units,
  /** Crypto orders may still take. */
  available: Units,
  minOrderFiat: Units,
  maxOrderFiat: Units,
  paymentMethods: Schema.Array(PaymentMethodRef),
  /** The maker's own payment details of a SALE offer (only to the maker). */
  paymentDetailsIds: Schema.Array(Schema.Number),
  paymentWindowMinutes: Schema.Number,
  terms: Schema.NullOr(Schema.String),
  autoAccept: Schema.Boolean,
  openOrders: Schema.Number,
  unavailableReason: Schema.NullOr(UnavailableReasonSchema),
  makerFeeBps: Schema.Number,
  takerFeeBps: Schema.Number,
  createdAt: Schema.String,
})
export type Offer = typeof Offer.Type

export const OfferForm = Schema.Struct({
  type: OfferTypeSchema,
  crypto: CryptoCode,
  fiat: FiatCode,
  price: Price,
  volume: PositiveUnits,
  minOrderFiat: PositiveUnits,
  maxOrderFiat: PositiveUnits,
  /** SALE: the maker's payment details (ids); PURCHASE: the method codes the maker pays with. */
  paymentDetailsIds: Schema.Array(Id).check(Schema.isMaxLength(5)),
  paymentMethodCodes: Schema.Array(MethodCode).check(Schema.isMaxLength(5)),
  paymentWindowMinutes: Schema.Literals(PAYMENT_WINDOWS),
  terms: Schema.NullOr(userText({ maxLength: 1000 })),
  autoAccept: Schema.Boolean,
})
export type OfferForm = typeof OfferForm.Type
export const CreateOfferRequest = Schema.Struct({ ...OfferForm.fields, idempotencyKey: Schema.String.check(Schema.isPattern(/^[A-Za-z0-9_-]{8,64}$/)) })
export type CreateOfferRequest = typeof CreateOfferRequest.Type

export const OfferListRequest = Schema.Struct({
  type: OfferTypeSchema,
  crypto: CryptoCode,
  fiat: FiatCode,
  /** Any of these methods (empty: all). */
  paymentMethods: Schema.Array(MethodCode).check(Schema.isMaxLength(20)),
  /** Only offers that can fill this fiat amount (cents). */
  amountFiat: Schema.optional(PositiveUnits),
  offset: Schema.Int.check(Schema.isGreaterThanOrEqualTo(0)),
  limit: Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 50 })),
})
export type OfferListRequest = typeof OfferListRequest.Type
export const OfferList = Schema.Struct({ items: Schema.Array(Offer) })
export const OfferStatusRequest = Schema.Struct({ status: Schema.Literals(OFFER_STATUSES) })

export const OrderParty = Schema.Struct({ ...Trader.fields })

/** Issue 21: a file of an order (a chat image, an appeal's receipt) as its parties see it; its bytes are `orderFile`. */
export const OrderFile = Schema.Struct({ id: Schema.Number, mime: Schema.String, size: Schema.Number, name: Schema.NullOr(Schema.String) })
export type OrderFile = typeof OrderFile.Type

export const Order = Schema.Struct({
  id: Schema.Number,
  offerId: Schema.Number,
  offerType: Schema.Literals(["SALE", "BUY"]),
  status: OrderStatusSchema,
  /** The requester's side and role. */
  side: Schema.Literals(["buyer", "seller"]),
  role: Schema.Literals(["maker", "taker"]),
  buyer: OrderParty,
  seller: OrderParty,
  crypto: CryptoCode,
  fiat: FiatCode,
  amount: Units,
  fiatAmount: Units,
  priceCents: Units,
  sellerFee: Units,
  buyerFee: Units,
  buyerReceives: Units,
  paymentMethod: PaymentMethodRef,
  /** The seller's details the buyer pays to; shown to the buyer once the order is accepted. */
  paymentDetails: Schema.NullOr(PaymentDetails),
  paymentWindowMinutes: Schema.Number,
  terms: Schema.NullOr(Schema.String),
  /** When the current step times out (REQUESTED: the maker's answer; ACCEPTED: the payment), else null. */
  deadline: Schema.NullOr(Schema.String),
  /** Moves the requester may make now. */
  moves: Schema.Array(Schema.Literals(ORDER_MOVES)),
  cancelledBy: Schema.NullOr(Schema.Literals(["buyer", "seller", "system", "support"])),
  /** The order's appeal (issue 21), with both sides' statements and support's, oldest first. */
  appeal: Schema.NullOr(
    Schema.Struct({
      status: Schema.Literals(["OPEN", "RESOLVED"]),
      issue: Schema.Literals(ISSUE_TYPES),
      openedBy: Schema.Literals(["buyer", "seller"]),
      outcome: Schema.NullOr(Schema.Literals(APPEAL_OUTCOMES)),
      /** Crypto the buyer got by the decision (SPLIT), minor units. */
      buyerAmount: Schema.NullOr(Units),
      statements: Schema.Array(
        Schema.Struct({ author: Schema.Literals(["buyer", "seller", "support"]), text: Schema.String, at: Schema.String, files: Schema.Array(OrderFile) }),
      ),
      openedAt: Schema.String,
      decidedAt: Schema.NullOr(Schema.String),
    }),
  ),
  createdAt: Schema.String,
  acceptedAt: Schema.NullOr(Schema.String),
  paidAt: Schema.NullOr(Schema.String),
  completedAt: Schema.NullOr(Schema.String),
  closedAt: Schema.NullOr(Schema.String),
  /** Chat messages of the other side the requester has not read (issue 21). */
  unreadMessages: Schema.Number,
})
export type Order = typeof Order.Type

export const TakeOfferRequest = Schema.Struct({
  offerId: Id,
  /** Crypto minor units the order trades. */
  amount: PositiveUnits,
  /** The price the taker saw (cents per unit): a different price now is `price_moved`. */
  priceCents: PositiveUnits,
  /** SALE offer: the method the buyer pays with (one of the offer's). */
  paymentMethodCode: Schema.optional(MethodCode),
  /** PURCHASE offer: the taking seller's own details the buyer pays to. */
  paymentDetailsId: Schema.optional(Id),
  idempotencyKey: Schema.String.check(Schema.isPattern(/^[A-Za-z0-9_-]{8,64}$/)),
})
export type TakeOfferRequest = typeof TakeOfferRequest.Type

export const OrderRequest = Schema.Struct({ orderId: Id })
export const MoveRequest = Schema.Struct({
  orderId: Id,
  /** An appeal opens with `openAppeal` (it needs the issue and a statement). */
  move: Schema.Literals(ORDER_MOVES.filter((move) => move !== "appeal")),
  /** The status the client last saw: a move from another status is refused (`order_state_changed`). */
  status: Schema.optional(OrderStatusSchema),
})
export type MoveRequest = typeof MoveRequest.Type

/** Issue 21: either side of a paid order asks support; the hold stays frozen until staff decide. */
export const OpenAppealRequest = Schema.Struct({
  orderId: Id,
  issue: Schema.Literals(ISSUE_TYPES),
  statement: userText({ minLength: 1, maxLength: MAX_STATEMENT }),
  status: Schema.optional(OrderStatusSchema),
  /** Receipts uploaded for this order (`uploadReceipt`) that the statement carries. */
  receiptIds: Schema.optional(Schema.Array(Id).check(Schema.isMaxLength(MAX_RECEIPTS))),
})
export type OpenAppealRequest = typeof OpenAppealRequest.Type
export const StatementRequest = Schema.Struct({
  orderId: Id,
  text: userText({ minLength: 1, maxLength: MAX_STATEMENT }),
  receiptIds: Schema.optional(Schema.Array(Id).check(Schema.isMaxLength(MAX_RECEIPTS))),
})
export type StatementRequest = typeof StatementRequest.Type

export const HistoryRequest = Schema.Struct({
  offset: Schema.Int.check(Schema.isGreaterThanOrEqualTo(0)),
  limit: Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 50 })),
  filter: Schema.Struct({ status: Schema.Literals(SERVER_FILTERS) }),
})
export type HistoryRequest = typeof HistoryRequest.Type
export const OrderList = Schema.Struct({ items: Schema.Array(Order) })

/** Spec 3 §3 "P2P user" plus what the market needs to open. */
export const P2pUser = Schema.Struct({
  userId: Schema.Number,
  name: Schema.String,
  p2pInitialized: Schema.Boolean,
  isExperienced: Schema.Boolean,
  completedOrders: Schema.Number,
  completionRate: Schema.NullOr(Schema.Number),
  /** Null when the market is open to the user; else why not (spec 3 §4.1). */
  unavailable: Schema.NullOr(Schema.Literals(UNAVAILABLE_WHY)),
  /** Crypto held in the user's active SALE offers, per currency (shown on the wallet as "in P2P offers"). */
  inOffers: Schema.Array(Schema.Struct({ crypto: CryptoCode, amount: Units })),
  /** Approved by support as a trusted merchant (issue 21): the badge on the profile. */
  trustedMerchant: Schema.optional(Schema.Boolean),
  /** Spec 3 §4.1 express-only mode (issue 21): the market opens on express and offers nothing else. */
  expressOnly: Schema.optional(Schema.Boolean),
})
export type P2pUser = typeof P2pUser.Type

/** Spec 3 §3 "P2P settings (per user)". */
export const P2pSettings = Schema.Struct({
  defaultCurrencyForSaleOfferCreation: Schema.NullOr(FiatCode),
  defaultCurrencyForPurchaseOfferCreation: Schema.NullOr(CryptoCode),
  createOfferTypeInUserProfile: OfferTypeSchema,
  expressCalculationType: Schema.Literals(["BY_AMOUNT", "BY_FIAT"]),
  isHoldModalShown: Schema.Boolean,
  nameDisclosureWarningDismissed: Schema.Boolean,
  autoAcceptOnboardingCompletedDate: Schema.NullOr(Schema.String),
  paymentMethodGroupsByCurrency: Schema.Record(Schema.String, Schema.Array(MethodCode)),
  recentFiats: Schema.Array(FiatCode),
  /** Express onboarding's "don't show again" (issue 21). */
  expressOnboardingHidden: Schema.optional(Schema.Boolean),
})
export type P2pSettings = typeof P2pSettings.Type
export const P2pSettingsPatch = Schema.Struct({
  defaultCurrencyForSaleOfferCreation: Schema.optional(Schema.NullOr(FiatCode)),
  defaultCurrencyForPurchaseOfferCreation: Schema.optional(Schema.NullOr(CryptoCode)),
  createOfferTypeInUserProfile: Schema.optional(OfferTypeSchema),
  expressCalculationType: Schema.optional(Schema.Literals(["BY_AMOUNT", "BY_FIAT"])),
  isHoldModalShown: Schema.optional(Schema.Boolean),
  nameDisclosureWarningDismissed: Schema.optional(Schema.Boolean),
  autoAcceptOnboardingCompleted: Schema.optional(Schema.Boolean),
  paymentMethodGroupsByCurrency: Schema.optional(Schema.Record(FiatCode, Schema.Array(MethodCode))),
  expressOnboardingHidden: Schema.optional(Schema.Boolean),
  /** A fiat the user just chose: kept first among at most two. */
  recentFiat: Schema.optional(FiatCode),
})
export type P2pSettingsPatch = typeof P2pSettingsPatch.Type

/** Spec 3 §7.1 "Find all supported currencies". */
export const Currencies = Schema.Struct({
  data: Schema.Struct({
    crypto: Schema.Array(Schema.Struct({ code: CryptoCode, decimals: Schema.Number })),
    fiat: Schema.Array(Schema.Struct({ code: FiatCode })),
  }),
})
export const PairAvailability = Schema.Struct({ data: Schema.Struct({ data: Schema.Boolean }) })
export const MarketPrice = Schema.Struct({ crypto: CryptoCode, fiat: FiatCode, priceCents: Units })
/** Spec 3 §3: offer settings per residence country. */
export const OfferSettings = Schema.Struct({
  residenceCountryAlpha2: Schema.NullOr(Schema.String),
  fiats: Schema.Array(FiatCode),
  floatingMinBps: Schema.Literal(FLOATING_MIN_BPS),
  floatingMaxBps: Schema.Literal(FLOATING_MAX_BPS),
  paymentWindows: Schema.Array(Schema.Number),
  makerFeeBps: Schema.Number,
  takerFeeBps: Schema.Number,
  maxOpenOrdersPerOffer: Schema.Number,
})

/* ---- chat (issue 21) ---- */

/** One chat message: a text, or an image (its bytes: `orderFile` with kind `chat` and the message's id). */
export const ChatMessage = Schema.Struct({
  id: Schema.Number,
  author: Schema.Literals(["buyer", "seller"]),
  mine: Schema.Boolean,
  text: Schema.NullOr(Schema.String),
  image: Schema.NullOr(OrderFile),
  createdAt: Schema.String,
})
export type ChatMessage = typeof ChatMessage.Type
/** The messages after `afterId` (all of them without it), oldest first. */
export const ChatListRequest = Schema.Struct({ orderId: Id, afterId: Schema.optional(Schema.Int.check(Schema.isGreaterThanOrEqualTo(0))) })
export const ChatPage = Schema.Struct({
  messages: Schema.Array(ChatMessage),
  /** The other side's messages after the requester's read mark. */
  unread: Schema.Number,
  /** False once the order is closed: the chat stays readable for the record. */
  writable: Schema.Boolean,
})
export type ChatPage = typeof ChatPage.Type
export const ChatSendRequest = Schema.Struct({
  orderId: Id,
  text: userText({ minLength: 1, maxLength: MAX_CHAT_TEXT }).check(Schema.isPattern(/\S/, { message: "a message has some text" })),
})
/** The requester read up to this message. */
export const ChatReadRequest = Schema.Struct({ orderId: Id, lastId: Id })
export const ChatUnread = Schema.Struct({ unread: Schema.Number })
/** A file's bytes to one of the order's two sides (`no-store`). */
export const OrderFileQuery = Schema.Struct({ orderId: BigIntId, kind: Schema.Literals(["chat", "receipt"]), id: BigIntId })
/** `POST /api/p2p/chat/image?orderId=…` with the image as the body. */
export const ChatImageQuery = Schema.Struct({ orderId: BigIntId })
/** `POST /api/p2p/orders/appeal/receipt?orderId=…&name=…` with the receipt (image or PDF) as the body. */
export const ReceiptQuery = Schema.Struct({ orderId: BigIntId, name: userText({ minLength: 1, maxLength: 120 }) })
export const RemoveReceiptRequest = Schema.Struct({ orderId: Id, fileId: Id })
/** The requester's receipts of the order not yet carried by a statement. */
export const PendingReceipts = Schema.Struct({ files: Schema.Array(OrderFile) })
export type PendingReceipts = typeof PendingReceipts.Type
/** Which bot messages the user gets (every group on by default). */
export const NotifySettings = Schema.Struct({ orders: Schema.Boolean, chat: Schema.Boolean, appeals: Schema.Boolean })
export type NotifySettings = typeof NotifySettings.Type
export const NotifySettingsPatch = Schema.Struct({
  orders: Schema.optional(Schema.Boolean),
  chat: Schema.optional(Schema.Boolean),
  appeals: Schema.optional(Schema.Boolean),
})
export type NotifySettingsPatch = typeof NotifySettingsPatch.Type

/* ---- merchant (issue 21) ---- */

/** One trusted-merchant criterion with the user's value (null: none yet) and the threshold. */
export const MerchantCriterion = Schema.Struct({
  id: Schema.Literals(MERCHANT_CRITERIA),
  met: Schema.Boolean,
  value: Schema.NullOr(Schema.Number),
  required: Schema.Number,
})
export const MerchantApplication = Schema.Struct({
  id: Schema.Number,
  status: Schema.Literals(MERCHANT_APPLICATION_STATUSES),
  /** Support's reason for a rejection or a revocation. */
  reason: Schema.NullOr(Schema.String),
  createdAt: Schema.String,
  decidedAt: Schema.NullOr(Schema.String),
  /** After a rejection or a revocation: when a new application may be sent. */
  reapplyAt: Schema.NullOr(Schema.String),
})
export type MerchantApplication = typeof MerchantApplication.Type
/** `GET /api/p2p/merchant`: the badge, each criterion, and the latest application. */
export const MerchantStatus = Schema.Struct({
  trustedMerchant: Schema.Boolean,
  criteria: Schema.Array(MerchantCriterion),
  /** Every criterion met, nothing pending or approved, no cooldown running. */
  canApply: Schema.Boolean,
  application: Schema.NullOr(MerchantApplication),
})
export type MerchantStatus = typeof MerchantStatus.Type
/** `POST /api/p2p/orders/export`: the period, and how the file reaches the user. */
export const ExportRequest = Schema.Struct({ period: Schema.Literals(EXPORT_PERIODS), delivery: Schema.Literals(EXPORT_DELIVERIES) })
export type ExportRequest = typeof ExportRequest.Type
export const ExportLink = Schema.Struct({
  /** The single-use link, absolute (for the Telegram client's download or the bot message). */
  url: Schema.String,
  fileName: Schema.String,
  expiresAt: Schema.String,
  /** Orders in the file. */
  orders: Schema.Number,
  delivery: Schema.Literals(EXPORT_DELIVERIES),
})
export type ExportLink = typeof ExportLink.Type

/* ---- express (issue 21) ---- */
/** Spec 3 §7.1 express calls. `offerType` is the user's side: PURCHASE buys crypto (matched with SALE offers), SALE sells it. */
export const ExpressCalculationTypeSchema = Schema.Literals(EXPRESS_CALCULATION_TYPES)
export const ExpressPairsRequest = Schema.Struct({ offerType: OfferTypeSchema })
export const ExpressPairs = Schema.Struct({ status: Schema.Literal("SUCCESS"), pairs: Schema.Array(Schema.Struct({ crypto: CryptoCode, fiat: FiatCode })) })
export type ExpressPairs = typeof ExpressPairs.Type
export const ExpressLimitsRequest = Schema.Struct({ offerType: OfferTypeSchema, baseCurrencyCode: CryptoCode, quoteCurrencyCode: FiatCode })
export type ExpressLimitsRequest = typeof ExpressLimitsRequest.Type
/** Null without offers. Fiat in cents, crypto (`minAmount`, `maxAmount`) in minor units. */
export const ExpressLimitsAnswer = Schema.Struct({
  status: Schema.Literal("SUCCESS"),
  limits: Schema.NullOr(Schema.Struct({ minFiat: Units, maxFiat: Units, minAmount: Units, maxAmount: Units })),
})
export type ExpressLimitsAnswer = typeof ExpressLimitsAnswer.Type
export const ExpressQuoteRequest = Schema.Struct({
  ...ExpressLimitsRequest.fields,
  /** BY_AMOUNT: `amount` is crypto minor units; BY_FIAT: fiat cents. */
  calculationType: ExpressCalculationTypeSchema,
  amount: PositiveUnits,
  /** Only offers with this payment method. */
  paymentMethodCode: Schema.optional(MethodCode),
})
export type ExpressQuoteRequest = typeof ExpressQuoteRequest.Type
/** The best offer for the amount and the order it would make. */
export const ExpressMatch = Schema.Struct({
  offerId: Schema.Number,
  side: OfferTypeSchema,
  crypto: CryptoCode,
  fiat: FiatCode,
  priceCents: Units,
  amount: Units,
  fiatAmount: Units,
  sellerFee: Units,
  buyerFee: Units,
  buyerReceives: Units,
  /** What a selling user has held: the amount and their fee. */
  hold: Units,
  paymentMethod: PaymentMethodRef,
  /** The methods the user could use on this offer (a seller's: those they have details for). */
  paymentMethods: Schema.Array(PaymentMethodRef),
  /** A selling user's details the buyer will pay to. */
  paymentDetailsId: Schema.NullOr(Schema.Number),
  merchant: Trader,
  paymentWindowMinutes: Schema.Number,
  autoAccept: Schema.Boolean,
})
export type ExpressMatch = typeof ExpressMatch.Type
export const ExpressQuote = Schema.Struct({ status: Schema.Literal("SUCCESS"), match: ExpressMatch })
export const ExpressCreateRequest = Schema.Struct({
  ...ExpressQuoteRequest.fields,
  /** The price the user confirmed: the server matches again and refuses a worse one beyond the market's tolerance (`price_moved`). */
  priceCents: PositiveUnits,
  idempotencyKey: Schema.String.check(Schema.isPattern(/^[A-Za-z0-9_-]{8,64}$/)),
})
export type ExpressCreateRequest = typeof ExpressCreateRequest.Type
export const ExpressRequest = Schema.Struct({
  id: Schema.Number,
  side: OfferTypeSchema,
  crypto: CryptoCode,
  fiat: FiatCode,
  calculationType: ExpressCalculationTypeSchema,
  amount: Units,
  status: Schema.Literals(EXPRESS_REQUEST_STATUSES),
  /** FAILED: the refusal's code. */
  failure: Schema.NullOr(Schema.String),
  /** The order it became (MATCHED, CLOSED). */
  order: Schema.NullOr(Order),
  createdAt: Schema.String,
})
export type ExpressRequest = typeof ExpressRequest.Type
/** The user's current request: the open one, else one whose order finished within the hour; null otherwise. */
export const ExpressCurrent = Schema.Struct({ request: Schema.NullOr(ExpressRequest) })

/* ---- reputation (issue 21) ---- */

/** One period of a user's record: completed orders that count (anti-wash caps) and the completion rate. */
export const ReputationPeriod = Schema.Struct({ completedOrders: Schema.Number, completionRate: Schema.NullOr(Schema.Number) })
/** A rating one side left the other after a completed order. */
export const FeedbackEntry = Schema.Struct({ positive: Schema.Boolean, comment: Schema.NullOr(Schema.String), at: Schema.String })
/** A user's reputation (`POST /api/p2p/users/reputation`): the 30-day and all-time record, average times, feedback. */
export const Reputation = Schema.Struct({
  userId: Schema.Number,
  name: Schema.String,
  last30d: ReputationPeriod,
  allTime: ReputationPeriod,
  /** Seller: PAID to COMPLETED; buyer: ACCEPTED to PAID; seconds over the counted orders of the last 30 days. */
  avgReleaseSeconds: Schema.NullOr(Schema.Number),
  avgPaymentSeconds: Schema.NullOr(Schema.Number),
  positiveFeedbackRate: Schema.NullOr(Schema.Number),
  feedbackCount: Schema.Number,
  /** The latest counted ratings the user got, newest first (at most 5). */
  recentFeedback: Schema.Array(FeedbackEntry),
})
export type Reputation = typeof Reputation.Type
export const ReputationRequest = Schema.Struct({ userId: Id })
/** An order's ratings as one side sees them: its own of the other, the other's of it. */
export const OrderFeedback = Schema.Struct({
  orderId: Schema.Number,
  mine: Schema.NullOr(FeedbackEntry),
  theirs: Schema.NullOr(FeedbackEntry),
  /** The requester may rate now (a party, the order COMPLETED, not rated yet). */
  canRate: Schema.Boolean,
  /** Whether this order counts for reputation (false beyond the pair's cap: anti-wash). */
  counts: Schema.Boolean,
})
export type OrderFeedback = typeof OrderFeedback.Type
export const RateOrderRequest = Schema.Struct({
  orderId: Id,
  positive: Schema.Boolean,
  comment: Schema.optional(Schema.NullOr(userText({ maxLength: FEEDBACK_COMMENT_MAX }))),
})
export type RateOrderRequest = typeof RateOrderRequest.Type

// --- errors --------------------------------------------------------------------------------------

export const P2P_ERROR_CODES = [
  "invalid_offer",
  "invalid_payment_details",
  "amount_out_of_limits",
  "amount_above_available",
  "payment_method_required",
  "insufficient_funds",
  "verification_limit",
  "file_too_large",
  "file_invalid",
  "too_many_files",
  "too_many_messages",
  "invalid_receipts",
  "merchant_criteria_not_met",
  "merchant_application_exists",
  "merchant_cooldown",
  "export_rate_limited",
  "express_no_offer",
  "express_no_payment_details",
  "express_request_open",
  "express_only",
] as const

export class P2pRefused extends Schema.TaggedError<P2pRefused>()(
  "P2pRefused",
  { code: Schema.Literals(P2P_ERROR_CODES), message: Schema.String, fields: Schema.optional(Schema.Array(Schema.String)) },
  { httpApiStatus: 400, description: "The request was refused; `code` says why and nothing changed" },
) {}

export class P2pConflict extends Schema.TaggedError<P2pConflict>()(
  "P2pConflict",
  {
    code: Schema.Literals(["price_moved", "order_state_changed", "offer_unavailable", "offer_state_changed", "chat_closed", "already_rated"]),
    message: Schema.String,
    /** price_moved: the price now. */
    priceCents: Schema.optional(Units),
    /** order_state_changed: the order's status now. */
    status: Schema.optional(OrderStatusSchema),
    /** offer_unavailable: why. */
    reason: Schema.optional(UnavailableReasonSchema),
  },
  { httpApiStatus: 409, description: "The offer or order moved on; nothing changed (read it again)" },
) {}

export class P2pForbidden extends Schema.TaggedError<P2pForbidden>()(
  "P2pForbidden",
  { code: Schema.Literals(["p2p_unavailable", "wrong_side"]), message: Schema.String, why: Schema.optional(Schema.Literals(UNAVAILABLE_WHY)) },
  { httpApiStatus: 403, description: "The market is closed to this user, or the move belongs to the other side" },
) {}

export class P2pNotFound extends Schema.TaggedError<P2pNotFound>()(
  "P2pNotFound",
  { code: Schema.Literals(["offer_not_found", "order_not_found", "payment_details_not_found", "file_not_found", "user_not_found"]), message: Schema.String },
  { httpApiStatus: 404 },
) {}

const Errors = [P2pRefused, P2pConflict, P2pForbidden, P2pNotFound] as const

export const P2pGroup = authenticated(
  HttpApiGroup.make("p2p").add(
    HttpApiEndpoint.get("user", "/api/p2p/user", { success: P2pUser }),
    HttpApiEndpoint.post("initUser", "/api/p2p/user/init", { success: P2pUser, error: P2pForbidden }),
    HttpApiEndpoint.get("settings", "/api/p2p/settings", { success: P2pSettings }),
    HttpApiEndpoint.post("updateSettings", "/api/p2p/settings", { payload: P2pSettingsPatch, success: P2pSettings }),
    HttpApiEndpoint.get("offerSettings", "/api/p2p/offer-settings", { success: OfferSettings }),
    HttpApiEndpoint.get("currencies", "/api/p2p/currencies", { success: Currencies }),
    HttpApiEndpoint.get("pairAvailability", "/api/p2p/pair-availability", { query: Schema.Struct({ fiat: FiatCode }), success: PairAvailability }),
    HttpApiEndpoint.get("marketPrice", "/api/p2p/market-price", {
      query: Schema.Struct({ crypto: CryptoCode, fiat: FiatCode }),
      success: MarketPrice,
      error: P2pRefused,
    }),
    HttpApiEndpoint.get("methods", "/api/p2p/payment-methods", { query: Schema.Struct({ fiat: FiatCode }), success: MethodCatalog }),
    HttpApiEndpoint.get("myPayments", "/api/p2p/user/payments", { success: PaymentDetailsList }),
    HttpApiEndpoint.post("createPayment", "/api/p2p/user/payments", {
      payload: SavePaymentDetails,
      success: PaymentDetails,
      error: [P2pRefused, P2pForbidden],
    }),
    HttpApiEndpoint.post("updatePayment", "/api/p2p/user/payments/update", {
      payload: Schema.Struct({ id: Id, ...SavePaymentDetails.fields }),
      success: PaymentDetails,
      error: [P2pRefused, P2pNotFound],
    }),
    HttpApiEndpoint.post("deletePayment", "/api/p2p/user/payments/delete", {
      payload: Schema.Struct({ id: Id }),
      success: PaymentDetailsList,
      error: P2pNotFound,
    }),
    HttpApiEndpoint.post("createOffer", "/api/p2p/offers", { payload: CreateOfferRequest, success: Offer, error: Errors }),
    HttpApiEndpoint.post("updateOffer", "/api/p2p/offers/update", { payload: Schema.Struct({ id: Id, ...OfferForm.fields }), success: Offer, error: Errors }),
    HttpApiEndpoint.post("setOfferStatus", "/api/p2p/offers/status", {
      payload: Schema.Struct({ id: Id, ...OfferStatusRequest.fields }),
      success: Offer,
      error: Errors,
    }),
    HttpApiEndpoint.post("getOffer", "/api/p2p/offers/get", { payload: Schema.Struct({ offerId: Id }), success: Offer, error: P2pNotFound }),
    HttpApiEndpoint.post("listOffers", "/api/p2p/offers/list", { payload: OfferListRequest, success: OfferList, error: P2pForbidden }),
    HttpApiEndpoint.post("myOffers", "/api/p2p/offers/mine", { payload: Schema.Struct({ type: Schema.optional(OfferTypeSchema) }), success: OfferList }),
    HttpApiEndpoint.post("takeOffer", "/api/p2p/orders", { payload: TakeOfferRequest, success: Order, error: Errors }),
    HttpApiEndpoint.post("getOrder", "/api/p2p/orders/get", { payload: OrderRequest, success: Order, error: Errors }),
    HttpApiEndpoint.post("moveOrder", "/api/p2p/orders/move", { payload: MoveRequest, success: Order, error: Errors }),
    HttpApiEndpoint.post("history", "/api/p2p/orders/history", { payload: HistoryRequest, success: OrderList }),
    HttpApiEndpoint.post("openAppeal", "/api/p2p/orders/appeal", { payload: OpenAppealRequest, success: Order, error: Errors }),
    HttpApiEndpoint.post("addStatement", "/api/p2p/orders/appeal/statement", { payload: StatementRequest, success: Order, error: Errors }),
    HttpApiEndpoint.post("expressPairs", "/api/p2p/express/pairs", { payload: ExpressPairsRequest, success: ExpressPairs, error: Errors }),
    HttpApiEndpoint.post("expressLimits", "/api/p2p/express/limits", { payload: ExpressLimitsRequest, success: ExpressLimitsAnswer, error: Errors }),
    HttpApiEndpoint.post("expressQuote", "/api/p2p/express/quote", { payload: ExpressQuoteRequest, success: ExpressQuote, error: Errors }),
    HttpApiEndpoint.post("expressCreate", "/api/p2p/express/requests", { payload: ExpressCreateRequest, success: ExpressRequest, error: Errors }),
    HttpApiEndpoint.get("expressCurrentRequest", "/api/p2p/express/current", { success: ExpressCurrent, error: Errors }),
    HttpApiEndpoint.get("merchantStatus", "/api/p2p/merchant", { success: MerchantStatus, error: Errors }),
    HttpApiEndpoint.post("merchantApply", "/api/p2p/merchant/apply", { success: MerchantStatus, error: Errors }),
    HttpApiEndpoint.post("exportOrders", "/api/p2p/orders/export", { payload: ExportRequest, success: ExportLink, error: Errors }),
    HttpApiEndpoint.post("chatList", "/api/p2p/chat/list", { payload: ChatListRequest, success: ChatPage, error: Errors }),
    HttpApiEndpoint.post("chatSend", "/api/p2p/chat/send", { payload: ChatSendRequest, success: ChatMessage, error: Errors }),
    HttpApiEndpoint.post("chatImage", "/api/p2p/chat/image", {
      query: ChatImageQuery,
      payload: HttpApiSchema.StreamUint8Array({ contentType: [...CHAT_IMAGE_TYPES, "application/octet-stream"], maxBytes: MAX_CHAT_FILE_BYTES }),
      success: ChatMessage,
      error: Errors,
    }),
    HttpApiEndpoint.post("chatRead", "/api/p2p/chat/read", { payload: ChatReadRequest, success: ChatUnread, error: Errors }),
    HttpApiEndpoint.get("orderFile", "/api/p2p/orders/file", {
      query: OrderFileQuery,
      success: Schema.Uint8Array.pipe(HttpApiSchema.asUint8Array()),
      error: Errors,
    }),
    HttpApiEndpoint.post("uploadReceipt", "/api/p2p/orders/appeal/receipt", {
      query: ReceiptQuery,
      payload: HttpApiSchema.StreamUint8Array({ contentType: [...RECEIPT_TYPES, "application/octet-stream"], maxBytes: MAX_CHAT_FILE_BYTES }),
      success: PendingReceipts,
      error: Errors,
    }),
    HttpApiEndpoint.post("pendingReceipts", "/api/p2p/orders/appeal/receipts", { payload: OrderRequest, success: PendingReceipts, error: Errors }),
    HttpApiEndpoint.post("removeReceipt", "/api/p2p/orders/appeal/receipt/remove", { payload: RemoveReceiptRequest, success: PendingReceipts, error: Errors }),
    HttpApiEndpoint.get("notifySettings", "/api/p2p/notifications", { success: NotifySettings }),
    HttpApiEndpoint.post("updateNotifySettings", "/api/p2p/notifications", { payload: NotifySettingsPatch, success: NotifySettings }),
    HttpApiEndpoint.post("reputation", "/api/p2p/users/reputation", { payload: ReputationRequest, success: Reputation, error: P2pNotFound }),
    HttpApiEndpoint.post("orderFeedback", "/api/p2p/orders/feedback/get", { payload: OrderRequest, success: OrderFeedback, error: Errors }),
    HttpApiEndpoint.post("rateOrder", "/api/p2p/orders/feedback", { payload: RateOrderRequest, success: OrderFeedback, error: Errors }),
  ),
)

export const P2pApi = HttpApi.make(ApiId).add(P2pGroup)

/** The home's filter (spec 3 §2.1) as a search value. */
export const HistoryFilterSchema = Schema.Literals(HISTORY_FILTERS)
