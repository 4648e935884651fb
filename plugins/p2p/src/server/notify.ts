/**
 * Bot messages of the order moves (issue 20: every move tells both sides), queued through the Outbox
 * in the move's transaction, in each recipient's language (ru or en), with the amounts, the payment
 * method and the time left; a recipient who turned the event's group off (issue 21) gets none.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { formatAmount } from "@wallet/kernel"
import { ServerConfig } from "@wallet/kernel-server"
import { Outbox } from "@wallet/kernel-server/outbox"
import type { NotifyGroup, NotifySettings } from "../chatRules.ts"
import { cryptoDecimals, paymentMethod, type OrderStatus } from "../domain.ts"

export type Event = "created" | "requested" | "accepted" | "rejected" | "paid" | "completed" | "cancelled" | "expired" | "appealed" | "resolved"

export interface OrderFacts {
  readonly id: number
  readonly buyerId: number
  readonly sellerId: number
  readonly crypto: string
  readonly amount: bigint
  readonly fiat: string
  readonly fiatAmount: bigint
  /** The payment method's code. */
  readonly method: string
  /** When the current step times out (null when nothing waits on a clock). */
  readonly deadline: Date | null
}

/** What the bot says needs the time now (minutes left). */
interface Said extends OrderFacts {
  readonly minutesLeft: number | null
}

const money = (facts: OrderFacts) => `${formatAmount(facts.amount, cryptoDecimals(facts.crypto) ?? 0)} ${facts.crypto}`
const fiat = (facts: OrderFacts) => `${(Number(facts.fiatAmount) / 100).toFixed(2)} ${facts.fiat}`
/** The method as the bot names it (Russian names where the market uses them). */
const RU_METHODS: Readonly<Record<string, string>> = { sbp: "СБП", card: "банковская карта", volt_banktransfer_eur: "SEPA-перевод" }
const method = (facts: OrderFacts, language: "en" | "ru") =>
  (language === "ru" ? RU_METHODS[facts.method] : undefined) ?? paymentMethod(facts.method)?.name ?? facts.method
const left = (f: Said, language: "en" | "ru") =>
  f.minutesLeft === null ? "" : language === "ru" ? ` в течение ${f.minutesLeft} мин` : ` within ${f.minutesLeft} min`

type Texts = Record<Event, (f: Said, buyer: boolean) => string>

const TEXT: Record<"en" | "ru", Texts> = {
  en: {
    created: (f, buyer) =>
      buyer
        ? `Order #${f.id}: pay ${fiat(f)} via ${method(f, "en")}${left(f, "en")}, then mark it paid. You get ${money(f)}.`
        : `Order #${f.id}: a buyer takes ${money(f)} for ${fiat(f)} via ${method(f, "en")}. ${f.minutesLeft === null ? "Wait for the payment." : `They have ${f.minutesLeft} min to pay.`}`,
    requested: (f, buyer) =>
      buyer
        ? `Order #${f.id} sent: ${money(f)} for ${fiat(f)} via ${method(f, "en")}. ${f.minutesLeft === null ? "Waiting for the seller to accept." : `The seller has ${f.minutesLeft} min to accept.`}`
        : `Order #${f.id}: a buyer asks for ${money(f)} for ${fiat(f)} via ${method(f, "en")}. Accept or reject it${left(f, "en")}.`,
    accepted: (f, buyer) =>
      buyer
        ? `Order #${f.id} accepted: pay ${fiat(f)} via ${method(f, "en")}${left(f, "en")}, then mark it paid.`
        : `Order #${f.id} accepted. The buyer pays ${fiat(f)} via ${method(f, "en")}${left(f, "en")}.`,
    rejected: (f) => `Order #${f.id} (${money(f)} for ${fiat(f)}) was rejected.`,
    paid: (f, buyer) =>
      buyer
        ? `Order #${f.id}: you marked ${fiat(f)} via ${method(f, "en")} as paid. The seller releases ${money(f)} after checking.`
        : `Order #${f.id}: the buyer says ${fiat(f)} is paid via ${method(f, "en")}. Check your account, then release ${money(f)}.`,
    completed: (f, buyer) =>
      buyer ? `Order #${f.id} completed: ${money(f)} is in your wallet.` : `Order #${f.id} completed: ${money(f)} released to the buyer.`,
    cancelled: (f) => `Order #${f.id} (${money(f)} for ${fiat(f)}) was cancelled.`,
    expired: (f) => `Order #${f.id} (${money(f)} for ${fiat(f)}) expired: the time ran out.`,
    appealed: (f) =>
      `Order #${f.id} (${money(f)} for ${fiat(f)}) is with support now. The crypto stays held until they decide; add your statement and receipts in the order.`,
    resolved: (f) => `Support decided order #${f.id} (${money(f)} for ${fiat(f)}). Open the order to see the outcome.`,
  },
  ru: {
    created: (f, buyer) =>
      buyer
        ? `Сделка №${f.id}: переведите ${fiat(f)} (${method(f, "ru")})${left(f, "ru")} и отметьте оплату. Вы получите ${money(f)}.`
        : `Сделка №${f.id}: покупатель берёт ${money(f)} за ${fiat(f)} (${method(f, "ru")}). Ждите оплату${left(f, "ru")}.`,
    requested: (f, buyer) =>
      buyer
        ? `Заявка на сделку №${f.id} отправлена: ${money(f)} за ${fiat(f)} (${method(f, "ru")}). Продавец ответит${left(f, "ru")}.`
        : `Сделка №${f.id}: покупатель просит ${money(f)} за ${fiat(f)} (${method(f, "ru")}). Примите или отклоните заявку${left(f, "ru")}.`,
    accepted: (f, buyer) =>
      buyer
        ? `Сделка №${f.id} принята: переведите ${fiat(f)} (${method(f, "ru")})${left(f, "ru")} и отметьте оплату.`
        : `Сделка №${f.id} принята. Покупатель переведёт ${fiat(f)} (${method(f, "ru")})${left(f, "ru")}.`,
    rejected: (f) => `Сделка №${f.id} (${money(f)} за ${fiat(f)}) отклонена.`,
    paid: (f, buyer) =>
      buyer
        ? `Сделка №${f.id}: вы отметили оплату ${fiat(f)} (${method(f, "ru")}). Продавец переведёт ${money(f)} после проверки.`
        : `Сделка №${f.id}: покупатель сообщил об оплате ${fiat(f)} (${method(f, "ru")}). Проверьте счёт и переведите ${money(f)}.`,
    completed: (f, buyer) =>
      buyer ? `Сделка №${f.id} завершена: ${money(f)} в вашем кошельке.` : `Сделка №${f.id} завершена: ${money(f)} переведено покупателю.`,
    cancelled: (f) => `Сделка №${f.id} (${money(f)} за ${fiat(f)}) отменена.`,
    expired: (f) => `Сделка №${f.id} (${money(f)} за ${fiat(f)}) закрыта: время вышло.`,
    appealed: (f) =>
      `По сделке №${f.id} (${money(f)} за ${fiat(f)}) открыта апелляция. Криптовалюта заморожена до решения поддержки; добавьте объяснение и чеки в сделке.`,
    resolved: (f) => `Поддержка приняла решение по сделке №${f.id} (${money(f)} за ${fiat(f)}). Откройте сделку, чтобы узнать итог.`,
  },
}

/** The settings group an order event belongs to (issue 21: the user turns groups off). */
export const groupOf = (event: Event): NotifyGroup => (event === "appealed" || event === "resolved" ? "appeals" : "orders")

export const eventOf = (to: OrderStatus, autoAccepted: boolean): Event =>
  to === "REQUESTED" ? "requested" : to === "ACCEPTED" ? (autoAccepted ? "created" : "accepted") : (to.toLowerCase() as Event)

/** A recipient's bot language (ru or en) and notification settings (every group on until turned off), in one read. */
export const recipientOf = (userId: number) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const [row] = yield* sql<{ language: string | null; language_code: string | null; orders: boolean | null; chat: boolean | null; appeals: boolean | null }>`
      select u.language, u.language_code, n.orders, n.chat, n.appeals
        from kernel_users u left join p2p_notify_settings n on n.user_id = u.id where u.id = ${userId}`
    const language = (row?.language ?? row?.language_code ?? "en").startsWith("ru") ? ("ru" as const) : ("en" as const)
    const settings: NotifySettings = { orders: row?.orders ?? true, chat: row?.chat ?? true, appeals: row?.appeals ?? true }
    return { language, settings }
  })

/** A recipient's bot language (ru or en). */
export const languageOf = (userId: number) => Effect.map(recipientOf(userId), (recipient) => recipient.language)

/** Queues the move's message to both sides (in the caller's transaction), to each one that keeps the event's group on. */
export const notifyBoth = (facts: OrderFacts, event: Event) =>
  Effect.gen(function* () {
    const outbox = yield* Outbox
    const config = yield* ServerConfig
    const now = config.now()
    const said: Said = {
      ...facts,
      minutesLeft: facts.deadline === null || facts.deadline.getTime() <= now ? null : Math.max(1, Math.ceil((facts.deadline.getTime() - now) / 60_000)),
    }
    for (const [userId, buyer] of [
      [facts.buyerId, true],
      [facts.sellerId, false],
    ] as const) {
      const recipient = yield* recipientOf(userId)
      if (!recipient.settings[groupOf(event)]) continue
      yield* outbox.enqueue({
        channel: "telegram",
        recipient: String(userId),
        subject: `p2p.order.${event}`,
        body: TEXT[recipient.language][event](said, buyer),
      })
    }
  })
