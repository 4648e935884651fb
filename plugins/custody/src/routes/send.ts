import type { DeepLinkHandler, RouteDefinition } from "@wallet/kernel"
import { FirstTransactionSearch, ReceiverSearchSearch, SendOptionsSearch, SendSearch, StatusSearch } from "../routes.ts"

/** Money leaving: send to an address or a Telegram user, transfers, QR, first transaction (spec 1 §2). */
export const sendRoutes: ReadonlyArray<RouteDefinition> = [
  { id: "send-options", parent: "wallet", path: "/send-options", search: SendOptionsSearch, component: () => import("../client/send/SendOptionsScreen.tsx") },
  { id: "send", parent: "wallet", path: "/assets/send", search: SendSearch, component: () => import("../client/send/SendScreen.tsx") },
  {
    id: "send-request-confirmation",
    parent: "wallet",
    path: "/assets/send-request-confirmation",
    search: SendSearch,
    permissions: ["canWithdrawOuter"],
    component: () => import("../client/send/ConfirmScreen.tsx"),
  },
  {
    id: "send-request-status",
    parent: "wallet",
    path: "/assets/send-request-status",
    search: StatusSearch,
    component: () => import("../client/send/StatusScreen.tsx"),
  },
  {
    id: "receiver-search",
    parent: "wallet",
    path: "/assets/receiver-search",
    search: ReceiverSearchSearch,
    component: () => import("../client/send/ReceiverSearchScreen.tsx"),
  },
  { id: "transfers", parent: "wallet", path: "/transfers", component: () => import("../client/send/IncomingTransfersScreen.tsx") },
  { id: "transfer", parent: "wallet", path: "/transfers/$transferId", component: () => import("../client/send/TransferScreen.tsx") },
  {
    id: "first-transaction",
    parent: "wallet",
    path: "/first-transaction",
    search: FirstTransactionSearch,
    component: () => import("../client/send/FirstTransactionScreen.tsx"),
  },
]

/**
 * Spec 1 §2 start params: a transfer link (`tonwallet_tg_transfer_<id>`) opens the transfer page,
 * which decides by role (receiver: accept; sender: cancel; without custody: the transaction);
 * receiver search, send options and the send form.
 */
export const sendDeepLinks: ReadonlyArray<DeepLinkHandler> = [
  { prefix: "tonwallet_tg_transfer", to: "/transfers/$transferId", params: { transferId: "{rest}" } },
  { prefix: "receiverSearch", exact: true, to: "/assets/receiver-search" },
  { prefix: "sendOptions", exact: true, to: "/send-options" },
  { prefix: "sendcrypto", exact: true, to: "/send-options" },
  { prefix: "send", exact: true, to: "/assets/send" },
]
