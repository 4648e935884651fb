/**
 * What each custodial currency is, in the languages the mini-app speaks (spec 1 §3 asset
 * `description`; the public asset page shows it). Server-side so the mini-app's bundle carries none
 * of it; a currency without a text answers null and the page says so.
 */
const DESCRIPTIONS: Readonly<Record<string, Readonly<Record<"en" | "ru", string>>>> = {
  TON: {
    en: "Toncoin is the native currency of The Open Network, the blockchain built into Telegram. It pays network fees and secures the network through staking.",
    ru: "Toncoin — собственная валюта The Open Network, блокчейна, встроенного в Telegram. Ею оплачивают комиссии сети, а стейкинг обеспечивает её безопасность.",
  },
  USDT: {
    en: "Dollars are USD₮, a stablecoin issued by Tether and backed one to one by US dollar reserves, so its price stays close to 1 USD.",
    ru: "Доллары — это USD₮, стейблкоин компании Tether, обеспеченный резервами в долларах США один к одному, поэтому его цена держится около 1 USD.",
  },
  BTC: {
    en: "Bitcoin is the first decentralised cryptocurrency. Its supply is capped at 21 million coins.",
    ru: "Bitcoin — первая децентрализованная криптовалюта. Её эмиссия ограничена 21 миллионом монет.",
  },
  ETH: {
    en: "Ether is the native currency of Ethereum, a blockchain for smart contracts and decentralised applications.",
    ru: "Ether — собственная валюта Ethereum, блокчейна для смарт-контрактов и децентрализованных приложений.",
  },
  XAUT: {
    en: "Gold is Tether Gold (XAU₮): each token stands for one troy ounce of physical gold held in a Swiss vault.",
    ru: "Золото — это Tether Gold (XAU₮): каждый токен соответствует одной тройской унции физического золота в хранилище в Швейцарии.",
  },
  SOL: {
    en: "Solana is a fast, low-fee blockchain; SOL pays its transaction fees and staking rewards.",
    ru: "Solana — быстрый блокчейн с низкими комиссиями; SOL используется для оплаты транзакций и в стейкинге.",
  },
  NOT: {
    en: "Notcoin started as a tap-to-earn game in Telegram and became a token on TON.",
    ru: "Notcoin начинался как tap-to-earn игра в Telegram и стал токеном в сети TON.",
  },
  DOGS: {
    en: "Dogs is a community token on TON inspired by the dog mascot of Telegram.",
    ru: "Dogs — токен сообщества в сети TON, вдохновлённый собакой-талисманом Telegram.",
  },
  HMSTR: {
    en: "Hamster Kombat is the token of the Telegram game of the same name, on TON.",
    ru: "Hamster Kombat — токен одноимённой игры в Telegram, в сети TON.",
  },
  X: {
    en: "X Empire is the token of the X Empire game in Telegram, on TON.",
    ru: "X Empire — токен игры X Empire в Telegram, в сети TON.",
  },
  MAJOR: {
    en: "Major is the token of the Major game in Telegram, on TON.",
    ru: "Major — токен игры Major в Telegram, в сети TON.",
  },
  CATI: {
    en: "Catizen is the token of the Catizen game platform in Telegram, on TON.",
    ru: "Catizen — токен игровой платформы Catizen в Telegram, в сети TON.",
  },
  TSLAx: {
    en: "Tesla xStock is a token that tracks the price of Tesla, Inc. shares.",
    ru: "Tesla xStock — токен, который следует за ценой акций Tesla, Inc.",
  },
  SPYx: {
    en: "SP500 xStock is a token that tracks the S&P 500 index.",
    ru: "SP500 xStock — токен, который следует за индексом S&P 500.",
  },
}

/** The description of `currency` in `language` (English when the language has none), or null. */
export const descriptionOf = (currency: string, language: string | null | undefined): string | null => {
  const texts = DESCRIPTIONS[currency]
  if (texts === undefined) return null
  return language === "ru" ? texts.ru : texts.en
}
