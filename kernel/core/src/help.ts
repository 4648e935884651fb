/**
 * Help-centre articles (spec 1 §9, spec 2 "help link table"): one table of links in English and
 * Russian; any other language, or an article without a Russian version, opens the English one.
 */
const HELP = "https://help.wallet.tg/article"

export const HELP_LINKS = {
  passcode: { en: `${HELP}/passcode`, ru: `${HELP}/ru/passcode` },
  recoveryEmail: { en: `${HELP}/recovery-email`, ru: `${HELP}/ru/recovery-email` },
  frozenFunds: { en: `${HELP}/frozen-funds`, ru: `${HELP}/ru/frozen-funds` },
  depositNetworks: { en: `${HELP}/deposit-networks`, ru: `${HELP}/ru/deposit-networks` },
  telegramTransfers: { en: `${HELP}/telegram-transfers`, ru: `${HELP}/ru/telegram-transfers` },
  tonSpace: { en: `${HELP}/ton-space`, ru: `${HELP}/ru/ton-space` },
  recoveryPhrase: { en: `${HELP}/recovery-phrase`, ru: `${HELP}/ru/recovery-phrase` },
  tonConnect: { en: `${HELP}/tonconnect` },
  languages: { en: `${HELP}/languages` },
} as const satisfies Readonly<Record<string, { readonly en: string; readonly ru?: string }>>

export type HelpArticle = keyof typeof HELP_LINKS

/** The article's link in the language, falling back to English. */
export const helpLink = (article: HelpArticle, language: string): string => {
  const links: { readonly en: string; readonly ru?: string } = HELP_LINKS[article]
  return (language.toLowerCase().startsWith("ru") ? links.ru : undefined) ?? links.en
}
