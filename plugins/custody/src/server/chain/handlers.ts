/** HTTP handlers of the custody chain group, and the layer that runs the watcher and processor. */
import { Effect, Layer } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { CurrentSession, NotFound } from "@wallet/kernel/api"
import { enforceRateLimit } from "@wallet/kernel-server"
import { Chain } from "@wallet/kernel-server/chain"
import { CustodyApi } from "../../api.ts"
import { NetworkAdapters, type NetworkAdapter } from "./adapter.ts"
import { ChainSettings, readChainSettings } from "./config.ts"
import { chainLoop, createWithdraw, getOrCreateWallet, getWithdraw, validateAddress, withdrawLimits } from "./service.ts"
import { makeSimAdapter } from "./sim.ts"
import { withdrawalJson } from "./store.ts"
import { makeTonAdapter } from "./ton.ts"
import { currentUser, requireAccess } from "../users.ts"
import { guardWithdrawal } from "../guard.ts"
import { Rates } from "../rates/Rates.ts"

const userId = Effect.gen(function* () {
  const session = yield* CurrentSession
  return session.userId
})

/** Settings from the region config and env; the TON adapter on the Chain service, the others on the devnet's simulated networks. */
export const ChainServicesLive = Layer.unwrap(
  Effect.gen(function* () {
    const settings = yield* readChainSettings
    const chain = yield* Chain
    const adapters: Partial<Record<NetworkAdapter["network"], NetworkAdapter>> = settings.enabled
      ? {
          ton: makeTonAdapter(chain, settings),
          tron: makeSimAdapter("tron", settings),
          ethereum: makeSimAdapter("ethereum", settings),
          solana: makeSimAdapter("solana", settings),
          bitcoin: makeSimAdapter("bitcoin", settings),
        }
      : {}
    return Layer.mergeAll(Layer.succeed(ChainSettings, settings), Layer.succeed(NetworkAdapters, adapters))
  }),
)

const CustodyChainHandlers = HttpApiBuilder.group(CustodyApi, "custodyChain", (handlers) =>
  handlers
    .handle("getOrCreateWallet", ({ params, query }) =>
      Effect.gen(function* () {
        const id = yield* userId
        yield* requireAccess(yield* currentUser(id), "accessToCreateAddress", "canReceive")
        return yield* getOrCreateWallet(id, params.currency, query.network)
      }),
    )
    .handle("validateAddress", ({ query }) =>
      Effect.flatMap(userId, (user) =>
        Effect.map(validateAddress(user, query.currency, query.network, query.address), (checked) => ({
          address: checked.address,
          network_code: checked.network_code,
          domain: checked.domain,
        })),
      ),
    )
    .handle("withdrawLimits", ({ query }) => Effect.flatMap(userId, (user) => withdrawLimits(user, query.currency, query.network)))
    .handle("createWithdraw", ({ payload }) =>
      Effect.gen(function* () {
        const id = yield* userId
        // Money calls per user, counted with transfers (decision 0206).
        yield* enforceRateLimit("moneyPerUser", id)
        yield* requireAccess(yield* currentUser(id), "accessToWithdraws", "canWithdrawOuter")
        // The operation token (decision 0550): before anything is held.
        yield* guardWithdrawal(id, payload)
        return yield* createWithdraw(id, payload)
      }),
    )
    .handle("getWithdraw", ({ params }) =>
      Effect.gen(function* () {
        const row = yield* getWithdraw(yield* userId, params.id)
        if (row === undefined) return yield* new NotFound({ code: "not_found", message: "No such withdrawal" })
        return withdrawalJson(row)
      }),
    ),
)

/** The watcher and withdrawal processor live as long as the server. */
const Background = Layer.effectDiscard(Effect.forkScoped(chainLoop))

// Rates: the USD value of a withdrawal for the operation-token limit.
export const chainHandlers = Layer.mergeAll(CustodyChainHandlers, Background).pipe(Layer.provide(ChainServicesLive), Layer.provide(Rates.layer))
