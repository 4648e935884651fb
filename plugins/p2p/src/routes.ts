import { booleanParam, enumParam, numberParam, optionalEnumParam, routeRef, searchParams, stringParam } from "@wallet/kernel"
import { HISTORY_FILTERS, ISSUE_TYPES, OFFER_TYPES, PAYMENT_METHOD_CODES, UNAVAILABLE_REASONS, UNAVAILABLE_WHY } from "./domain.ts"
import { EXPRESS_OPERATIONS } from "./express.ts"

/**
 * The P2P plugin's routes (spec 3 §2.1) as typed references (decision 0170), with their search
 * checks: invalid enumerated values are dropped or replaced by the stated default (spec 3 §5).
 */
export const P2pHomeSearch = searchParams({
  type: optionalEnumParam(OFFER_TYPES),
  source: stringParam,
  filter: enumParam(HISTORY_FILTERS, "active"),
  crypto: stringParam,
  backToMain: booleanParam,
})
export const P2pUnavailableSearch = searchParams({ why: enumParam(UNAVAILABLE_WHY, "generic"), originalPath: stringParam, source: stringParam })
export const OfferListSearch = searchParams({ back: stringParam, fiatCurrency: stringParam, crypto: stringParam })
export const CreateOfferSearch = searchParams({ offerType: enumParam(OFFER_TYPES, "SALE") })
export const EditOfferSearch = searchParams({ mode: enumParam(["edit"] as const, "edit"), offerType: optionalEnumParam(OFFER_TYPES) })
export const OfferUnavailableSearch = searchParams({
  offerId: numberParam,
  reason: optionalEnumParam(UNAVAILABLE_REASONS),
  offerType: optionalEnumParam(OFFER_TYPES),
})
export const OfferSearch = searchParams({ previousPrice: stringParam, isAutoAccept: booleanParam, paymentMethodCode: optionalEnumParam(PAYMENT_METHOD_CODES) })
export const OfferSuccessSearch = searchParams({
  mode: enumParam(["create", "edit"] as const, "create"),
  status: stringParam,
  baseCurrencyCode: stringParam,
  quoteCurrencyCode: stringParam,
  offerType: optionalEnumParam(OFFER_TYPES),
})
export const OfferLandingSearch = searchParams({ offerUserId: numberParam })
export const OrderSearch = searchParams({ openedFrom: optionalEnumParam(["p2p"] as const), isAutoAccept: booleanParam, initialPrice: stringParam })
export const ConfirmSentSearch = searchParams({ source: enumParam(["help_flow", "order"] as const, "order") })
export const ConfirmReceivedSearch = searchParams({
  source: enumParam(["help_flow", "order", "notification"] as const, "help_flow"),
  issueType: stringParam,
  issueAction: stringParam,
})
/** Spec 3 §2.1 order help: the issue chosen from the fixed list, and skipRefund. */
export const OrderHelpSearch = searchParams({ issueListSelect: optionalEnumParam(ISSUE_TYPES), skipRefund: booleanParam })
export const PaymentsSearch = searchParams({ code: stringParam, name: stringParam, nameEng: stringParam, originNameLocale: stringParam, fiat: stringParam })
export const NewPaymentSearch = searchParams({ fiat: stringParam, code: optionalEnumParam(PAYMENT_METHOD_CODES) })

export const p2pHomeRoute = routeRef("/p2p", P2pHomeSearch)
export const p2pUnavailableRoute = routeRef("/p2p/unavailable", P2pUnavailableSearch)
export const offerListRoute = routeRef("/p2p/offers/list/$type", OfferListSearch)
export const createOfferRoute = routeRef("/p2p/offers/create", CreateOfferSearch)
export const offerUnavailableRoute = routeRef("/p2p/offers/unavailable", OfferUnavailableSearch)
export const offerRoute = routeRef("/p2p/offers/$id", OfferSearch)
export const editOfferRoute = routeRef("/p2p/offers/$id/edit", EditOfferSearch)
export const offerPreviewRoute = routeRef("/p2p/offers/$id/preview")
export const offerSuccessRoute = routeRef("/p2p/offers/$id/success", OfferSuccessSearch)
export const offerLandingRoute = routeRef("/p2p/offers/$id/start-param-landing", OfferLandingSearch)
export const selectPaymentRoute = routeRef("/p2p/offers/$id/select-payment")
export const orderRoute = routeRef("/p2p/orders/$id", OrderSearch)
export const orderDetailsRoute = routeRef("/p2p/orders/$id/details")
export const orderSuccessRoute = routeRef("/p2p/orders/$id/success")
export const confirmSentRoute = routeRef("/p2p/orders/$id/confirm-sent-payment", ConfirmSentSearch)
export const confirmReceivedRoute = routeRef("/p2p/orders/$id/confirm-received-payment", ConfirmReceivedSearch)
export const orderHelpRoute = routeRef("/p2p/orders/$id/help", OrderHelpSearch)
export const orderHelpIssueRoute = routeRef("/p2p/orders/$id/help/$issueType", OrderHelpSearch)
/** Issue 21: the order's chat between its two sides. */
export const orderChatRoute = routeRef("/p2p/orders/$id/chat")
export const p2pUserRoute = routeRef("/p2p/user")
export const paymentsRoute = routeRef("/p2p/user/payments", PaymentsSearch)
export const newPaymentRoute = routeRef("/p2p/user/payments/new", NewPaymentSearch)
export const newPaymentFiatRoute = routeRef("/p2p/user/payments/new/select-fiat-currency", NewPaymentSearch)
export const createPaymentRoute = routeRef("/p2p/user/payments/create", NewPaymentSearch)
export const editPaymentRoute = routeRef("/p2p/user/payments/$id/edit")
export const notificationsRoute = routeRef("/p2p/user/$id/notifications")
/** Issue 21: the trusted-merchant application and the order-history export (spec 3 §2.1). */
export const trustedMerchantRoute = routeRef("/p2p/trusted-merchant-application")
export const exportHistoryRoute = routeRef("/p2p/export-order-history")
/** Issue 21, spec 3 §2.1 express mode: the pair asked for (crypto, fiatCurrency); the onboarding keeps the operation to return to. */
export const ExpressSearch = searchParams({ crypto: stringParam, fiatCurrency: stringParam })
export const ExpressOnboardingSearch = searchParams({ crypto: stringParam, fiatCurrency: stringParam, operation: optionalEnumParam(EXPRESS_OPERATIONS) })
export const expressOnboardingRoute = routeRef("/p2p/express/onboarding", ExpressOnboardingSearch)
export const expressRoute = routeRef("/p2p/express", ExpressSearch)
export const expressOperationRoute = routeRef("/p2p/express/$operation", ExpressSearch)
/** Wallet main (the home plugin): the unavailable screen's back target without history. */
export const walletMainRoute = routeRef("/main")

/** Every reference of this plugin (the route-reference test checks them against the composed tree). */
export const routeRefs = [
  p2pHomeRoute,
  p2pUnavailableRoute,
  offerListRoute,
  createOfferRoute,
  offerUnavailableRoute,
  offerRoute,
  editOfferRoute,
  offerPreviewRoute,
  offerSuccessRoute,
  offerLandingRoute,
  selectPaymentRoute,
  orderRoute,
  orderDetailsRoute,
  orderSuccessRoute,
  confirmSentRoute,
  confirmReceivedRoute,
  orderHelpRoute,
  orderHelpIssueRoute,
  orderChatRoute,
  p2pUserRoute,
  paymentsRoute,
  newPaymentRoute,
  newPaymentFiatRoute,
  createPaymentRoute,
  editPaymentRoute,
  notificationsRoute,
  expressOnboardingRoute,
  expressRoute,
  expressOperationRoute,
  trustedMerchantRoute,
  exportHistoryRoute,
  walletMainRoute,
] as const
