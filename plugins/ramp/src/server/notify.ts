/** The bot's messages when a purchase's crypto arrives or a sale pays out (queued through the Outbox with the Ledger movement). */
export const creditedMessage = (language: "en" | "ru", facts: { readonly crypto: string; readonly fiat: string }): string =>
  language === "ru"
    ? `Покупка завершена: ${facts.crypto} зачислено в ваш кошелёк (оплачено ${facts.fiat}).`
    : `Purchase completed: ${facts.crypto} has arrived in your wallet (paid ${facts.fiat}).`

export const paidOutMessage = (language: "en" | "ru", facts: { readonly crypto: string; readonly fiat: string }): string =>
  language === "ru"
    ? `Продажа завершена: ${facts.crypto} продано, выплата ${facts.fiat} отправлена.`
    : `Sale completed: you sold ${facts.crypto} and the payout of ${facts.fiat} is on its way.`
