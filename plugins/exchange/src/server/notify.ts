/** The bot's message when an exchange executes (queued through the Outbox in the conversion's transaction). */
export const executedMessage = (language: "en" | "ru", facts: { readonly pay: string; readonly receive: string }): string =>
  language === "ru"
    ? `Обмен выполнен: вы отдали ${facts.pay} и получили ${facts.receive}. Средства уже в кошельке.`
    : `Exchange completed: you paid ${facts.pay} and received ${facts.receive}. It is in your wallet now.`
