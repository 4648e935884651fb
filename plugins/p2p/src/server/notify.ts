/**
 * Bot messages of the order moves (issue 20: every move tells both sides), queued through the Outbox
 * in the move's transaction, in each recipient's language (ru or en).
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { formatAmount } from "@wallet/kernel"
import { Outbox } from "@wallet/kernel-server/outbox"
import { cryptoDecimals, type OrderStatus } from "../domain.ts"

export type Event = "created" | "requested" | "accepted" | "rejected" | "paid" | "completed" | "cancelled" | "expired" | "appealed" | "resolved"

export interface OrderFacts {
  readonly id: number
  readonly buyerId: number
  readonly sellerId: number
  readonly crypto: string
  readonly amount: bigint
  readonly fiat: string
  readonly fiatAmount: bigint
}

const money = (facts: OrderFacts) => `${formatAmount(facts.amount, cryptoDecimals(facts.crypto) ?? 0)} ${facts.crypto}`
const fiat = (facts: OrderFacts) => `${(Number(facts.fiatAmount) / 100).toFixed(2)} ${facts.fiat}`

type Texts = Record<Event, (f: OrderFacts, buyer: boolean) => string>

const TEXT: Record<"en" | "ru", Texts> = {
  en: {
    created: (f, buyer) =>
      buyer
        ? `Order #${f.id}: pay ${fiat(f)} to the seller within the payment window, then mark it paid.`
        : `Order #${f.id}: a buyer takes ${money(f)} for ${fiat(f)}. Wait for the payment.`,
    requested: (f, buyer) =>
      buyer ? `Order #${f.id} sent: waiting for the seller to accept.` : `Order #${f.id}: a buyer asks for ${money(f)} for ${fiat(f)}. Accept or reject it.`,
    accepted: (f, buyer) =>
      buyer ? `Order #${f.id} accepted: pay ${fiat(f)} to the seller, then mark it paid.` : `Order #${f.id} accepted. Wait for the buyer's payment.`,
    rejected: (f) => `Order #${f.id} was rejected.`,
    paid: (f, buyer) =>
      buyer
        ? `Order #${f.id}: you marked ${fiat(f)} as paid. The seller releases the crypto after checking.`
        : `Order #${f.id}: the buyer says ${fiat(f)} is paid. Check your account, then release ${money(f)}.`,
    completed: (f, buyer) =>
      buyer ? `Order #${f.id} completed: ${money(f)} is in your wallet.` : `Order #${f.id} completed: ${money(f)} released to the buyer.`,
    cancelled: (f) => `Order #${f.id} was cancelled.`,
    expired: (f) => `Order #${f.id} expired: the time ran out.`,
    appealed: (f) => `Order #${f.id} is with support now. The crypto stays held until they decide; add your statement and receipts in the order.`,
    resolved: (f) => `Support decided order #${f.id}. Open the order to see the outcome.`,
  },
  ru: {
    created: (f, buyer) =>
      buyer
        ? `Сделка №${f.id}: переведите продавцу ${fiat(f)} в срок и отметьте оплату.`
        : `Сделка №${f.id}: покупатель берёт ${money(f)} за ${fiat(f)}. Ждите оплату.`,
    requested: (f, buyer) =>
      buyer
        ? `Заявка на сделку №${f.id} отправлена: ждём, пока продавец её примет.`
        : `Сделка №${f.id}: покупатель просит ${money(f)} за ${fiat(f)}. Примите или отклоните.`,
    accepted: (f, buyer) =>
      buyer ? `Сделка №${f.id} принята: переведите продавцу ${fiat(f)} и отметьте оплату.` : `Сделка №${f.id} принята. Ждите оплату от покупателя.`,
    rejected: (f) => `Сделка №${f.id} отклонена.`,
    paid: (f, buyer) =>
      buyer
        ? `Сделка №${f.id}: вы отметили оплату ${fiat(f)}. Продавец переведёт криптовалюту после проверки.`
        : `Сделка №${f.id}: покупатель сообщил об оплате ${fiat(f)}. Проверьте счёт и переведите ${money(f)}.`,
    completed: (f, buyer) =>
      buyer ? `Сделка №${f.id} завершена: ${money(f)} в вашем кошельке.` : `Сделка №${f.id} завершена: ${money(f)} переведено покупателю.`,
    cancelled: (f) => `Сделка №${f.id} отменена.`,
    expired: (f) => `Сделка №${f.id} закрыта: время вышло.`,
    appealed: (f) => `По сделке №${f.id} открыта апелляция. Криптовалюта заморожена до решения поддержки; добавьте объяснение и чеки в сделке.`,
    resolved: (f) => `Поддержка приняла решение по сделке №${f.id}. Откройте сделку, чтобы узнать итог.`,
  },
}

export const eventOf = (to: OrderStatus, autoAccepted: boolean): Event =>
  to === "REQUESTED" ? "requested" : to === "ACCEPTED" ? (autoAccepted ? "created" : "accepted") : (to.toLowerCase() as Event)

const languageOf = (userId: number) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<{ language: string | null; language_code: string | null }>`select language, language_code from kernel_users where id = ${userId}`
    return (rows[0]?.language ?? rows[0]?.language_code ?? "en").startsWith("ru") ? ("ru" as const) : ("en" as const)
  })

/** Queues the move's message to both sides (in the caller's transaction). */
export const notifyBoth = (facts: OrderFacts, event: Event) =>
  Effect.gen(function* () {
    const outbox = yield* Outbox
    for (const [userId, buyer] of [
      [facts.buyerId, true],
      [facts.sellerId, false],
    ] as const) {
      const language = yield* languageOf(userId)
      yield* outbox.enqueue({ channel: "telegram", recipient: String(userId), subject: `p2p.order.${event}`, body: TEXT[language][event](facts, buyer) })
    }
  })
