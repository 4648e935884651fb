/**
 * Operation tokens on custody's money endpoints (docs/decisions/0550): transfer creation (every
 * path: the handler checks before the item joins a batch) and withdrawal creation call the
 * kernel's `requireOperation` with the operation and parameters computed from their own payload
 * (`../operations.ts`, the same function the mini-app uses) and the USD value for the limit.
 *
 * Replays: the check runs first; when it refuses, a request whose idempotency key already made
 * this same request (the Ledger hold of the transfer, the withdrawal row) goes on and replays the
 * first answer, so a retry never needs a second token. A token consumed for one key also passes
 * again for that key while it is valid (an HTTP retry racing the first request).
 */
import { Effect } from "effect"
import { requireOperation } from "@wallet/kernel-server"
import type { CreateTransferRequest } from "../api.ts"
import type { CreateWithdrawRequest } from "../api.ts"
import { currencyInfo, parseAmount } from "../currencies.ts"
import { transferOperation, withdrawalOperation } from "../operations.ts"
import { isWithdrawReplay } from "./chain/service.ts"
import { holdKey, isTransferReplay } from "./transfers.ts"
import { usdValue } from "./usdValue.ts"

/** Before a transfer: the operation token, unless this is a replay of a transfer already made. */
export const guardTransfer = (senderId: number, request: CreateTransferRequest) =>
  Effect.gen(function* () {
    const info = currencyInfo(request.currency)
    const usdCents = yield* usdValue(request.currency, info === undefined ? undefined : parseAmount(request.amount, info.decimals))
    yield* requireOperation({ operation: transferOperation(request), usdCents, replayKey: holdKey(senderId, request.idempotencyKey) }).pipe(
      Effect.catchTag("OperationTokenError", (error) =>
        Effect.flatMap(isTransferReplay(senderId, request), (replay) => (replay ? Effect.void : Effect.fail(error))),
      ),
    )
  })

/** Before a withdrawal: the operation token, unless this is a replay of a withdrawal already made. */
export const guardWithdrawal = (userId: number, request: CreateWithdrawRequest) =>
  Effect.gen(function* () {
    // A "max" withdrawal's value is the balance: unknown here, so it counts as above any limit.
    const usdCents = yield* usdValue(request.currency, request.max_value ? undefined : request.amount)
    yield* requireOperation({ operation: withdrawalOperation(request), usdCents, replayKey: `custody:withdraw:${userId}:${request.idempotency_key}` }).pipe(
      Effect.catchTag("OperationTokenError", (error) =>
        Effect.flatMap(isWithdrawReplay(userId, request), (replay) => (replay ? Effect.void : Effect.fail(error))),
      ),
    )
  })
