/**
 * The providers' pages, rendered on the server: the buy checkout (summary and card form), the 3-D
 * Secure challenge, the sell page and its deposit page, results and errors. English and Russian (the
 * `language` query parameter, MoonPay's; `lang` too), light and dark by `prefers-color-scheme`, real
 * labels and live regions. The only script is small and inline, allowed by a per-response nonce.
 */
import { randomBytes } from "node:crypto"
import type { Reply } from "../http/http.ts"
import type { Provider } from "./config.ts"
import type { RampTransaction } from "./transactions.ts"

export type Lang = "en" | "ru"

export const langOf = (query: URLSearchParams): Lang => {
  const raw = (query.get("language") ?? query.get("lang") ?? "en").toLowerCase()
  return raw.startsWith("ru") ? "ru" : "en"
}

const TEXT = {
  en: {
    sandbox: "sandbox",
    buyTitle: "Buy crypto",
    sellTitle: "Sell crypto",
    youPay: "You pay",
    youGet: "You get",
    youSell: "You sell",
    fee: "Fee",
    to: "To wallet",
    card: "Card number",
    cardHint: "Test cards: 4242 4242 4242 4242 (approved), 4000 0000 0000 0002 (declined), 4000 0000 0000 3220 (3-D Secure).",
    expiry: "Expiry (MM/YY)",
    cvc: "CVC",
    holder: "Name on card",
    pay: "Pay",
    paying: "Processing…",
    errCard: "This card number is not accepted. Use one of the test cards.",
    errExpiry: "Enter a valid expiry date in the future, like 12/30.",
    errCvc: "Enter the 3 or 4 digits on the back of the card.",
    challengeTitle: "3-D Secure check",
    challengeText: "Your bank asks you to confirm this payment.",
    approve: "Confirm payment",
    reject: "Decline",
    sellConfirm: "Continue",
    cancel: "Cancel",
    depositTitle: "Send your crypto",
    depositText: "Send exactly this amount to the address below. The wallet does this for you.",
    depositAddress: "Deposit address",
    status: "Status",
    payout: "Payout",
    resultTitle: "Transaction",
    back: "Return to the wallet",
    errorTitle: "Something went wrong",
    invalidSignature: "Invalid signature: this link was changed or was not signed by the partner.",
    invalidApiKey: "Invalid API key.",
    invalidParams: "Some of the parameters are missing or invalid",
    amountOutOfRange: "The amount is outside the limits",
    unsupportedCurrency: "This currency is not supported",
    notFound: "Transaction not found.",
  },
  ru: {
    sandbox: "песочница",
    buyTitle: "Покупка криптовалюты",
    sellTitle: "Продажа криптовалюты",
    youPay: "Вы платите",
    youGet: "Вы получите",
    youSell: "Вы продаёте",
    fee: "Комиссия",
    to: "На кошелёк",
    card: "Номер карты",
    cardHint: "Тестовые карты: 4242 4242 4242 4242 (одобрена), 4000 0000 0000 0002 (отклонена), 4000 0000 0000 3220 (3-D Secure).",
    expiry: "Срок действия (ММ/ГГ)",
    cvc: "CVC",
    holder: "Имя на карте",
    pay: "Оплатить",
    paying: "Обработка…",
    errCard: "Эта карта не принимается. Используйте одну из тестовых карт.",
    errExpiry: "Укажите действующий срок, например 12/30.",
    errCvc: "Введите 3 или 4 цифры с обратной стороны карты.",
    challengeTitle: "Проверка 3-D Secure",
    challengeText: "Банк просит подтвердить этот платёж.",
    approve: "Подтвердить платёж",
    reject: "Отклонить",
    sellConfirm: "Продолжить",
    cancel: "Отменить",
    depositTitle: "Отправьте криптовалюту",
    depositText: "Отправьте ровно эту сумму на адрес ниже. Кошелёк сделает это за вас.",
    depositAddress: "Адрес для депозита",
    status: "Статус",
    payout: "Выплата",
    resultTitle: "Транзакция",
    back: "Вернуться в кошелёк",
    errorTitle: "Что-то пошло не так",
    invalidSignature: "Неверная подпись: ссылка изменена или не подписана партнёром.",
    invalidApiKey: "Неверный ключ API.",
    invalidParams: "Часть параметров отсутствует или неверна",
    amountOutOfRange: "Сумма вне допустимых пределов",
    unsupportedCurrency: "Эта валюта не поддерживается",
    notFound: "Транзакция не найдена.",
  },
} as const

export type TextKey = keyof (typeof TEXT)["en"]
export const t = (lang: Lang, key: TextKey): string => TEXT[lang][key]

const STATUS_TEXT: Readonly<Record<Lang, Readonly<Record<string, string>>>> = {
  en: {
    waitingPayment: "Waiting for payment",
    waitingAuthorization: "Waiting for authorization",
    waitingForDeposit: "Waiting for the deposit",
    new: "New",
    pending: "Processing",
    paid: "Paid",
    completed: "Completed",
    succeeded: "Completed",
    failed: "Failed",
    cancelled: "Cancelled",
  },
  ru: {
    waitingPayment: "Ожидает оплаты",
    waitingAuthorization: "Ожидает подтверждения",
    waitingForDeposit: "Ожидает депозита",
    new: "Новая",
    pending: "Обрабатывается",
    paid: "Оплачена",
    completed: "Завершена",
    succeeded: "Завершена",
    failed: "Не удалась",
    cancelled: "Отменена",
  },
}

export const statusText = (lang: Lang, status: string): string => STATUS_TEXT[lang][status] ?? status

const ENTITIES: Readonly<Record<string, string>> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }

export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c)

const BRAND: Readonly<Record<Provider, string>> = { moonpay: "MoonPay", mercuryo: "Mercuryo" }

const CSS = `
:root { color-scheme: light dark; --bg: #f6f6f8; --card: #fff; --fg: #15151a; --muted: #5d5d6b; --line: #d8d8e0; --accent: #5a2fd6; --accent-fg: #fff; --error: #b3261e; --ok: #1b7a3a; }
@media (prefers-color-scheme: dark) { :root { --bg: #111116; --card: #1c1c24; --fg: #f1f1f5; --muted: #a9a9b8; --line: #34343f; --accent: #9d83ff; --accent-fg: #111116; --error: #ff8a80; --ok: #7ddc98; } }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; background: var(--bg); color: var(--fg); }
main { max-width: 26rem; margin: 1.5rem auto; padding: 1.25rem; background: var(--card); border: 1px solid var(--line); border-radius: 12px; }
header { display: flex; justify-content: space-between; align-items: baseline; margin-bottom: .5rem; }
header span { color: var(--muted); font-size: .85rem; }
h1 { font-size: 1.3rem; margin: .25rem 0 1rem; }
dl { display: grid; grid-template-columns: auto 1fr; gap: .35rem 1rem; margin: 0 0 1rem; }
dt { color: var(--muted); } dd { margin: 0; text-align: right; overflow-wrap: anywhere; }
label { display: block; margin: .75rem 0 .25rem; font-weight: 600; }
input { width: 100%; padding: .6rem .7rem; font: inherit; color: inherit; background: transparent; border: 1px solid var(--line); border-radius: 8px; }
input[aria-invalid="true"] { border-color: var(--error); }
.row { display: grid; grid-template-columns: 1fr 1fr; gap: .75rem; }
.hint { color: var(--muted); font-size: .85rem; margin: .5rem 0 0; }
.error { color: var(--error); font-size: .9rem; margin: .25rem 0 0; }
.status-completed, .status-succeeded { color: var(--ok); } .status-failed { color: var(--error); }
button, .button { display: block; width: 100%; margin-top: 1rem; padding: .75rem; font: inherit; font-weight: 600; text-align: center; text-decoration: none; border: 0; border-radius: 8px; background: var(--accent); color: var(--accent-fg); cursor: pointer; }
button.secondary { background: transparent; color: var(--fg); border: 1px solid var(--line); }
button:disabled { opacity: .6; cursor: progress; }
:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
code { overflow-wrap: anywhere; }
`

export interface PageInput {
  readonly provider: Provider
  readonly lang: Lang
  readonly title: string
  readonly body: string
  readonly status?: number
  /** an inline script (runs with the response's nonce) */
  readonly script?: string
}

export const page = (p: PageInput): Reply => {
  const nonce = randomBytes(16).toString("base64")
  const html = `<!doctype html>
<html lang="${p.lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${escapeHtml(p.title)} · ${BRAND[p.provider]}</title>
<style nonce="${nonce}">${CSS}</style>
</head>
<body>
<main>
<header><strong>${BRAND[p.provider]}</strong><span>${t(p.lang, "sandbox")}</span></header>
${p.body}
</main>
${p.script ? `<script nonce="${nonce}">${p.script}</script>` : ""}
</body>
</html>`
  return {
    status: p.status ?? 200,
    headers: {
      "content-type": "text/html; charset=utf-8",
      "content-security-policy": `default-src 'none'; style-src 'nonce-${nonce}'; script-src 'nonce-${nonce}'; connect-src 'self'; img-src 'self' data:; base-uri 'none'`,
      "referrer-policy": "no-referrer",
    },
    body: html,
  }
}

export const errorPage = (provider: Provider, lang: Lang, message: string, status: number): Reply =>
  page({
    provider,
    lang,
    status,
    title: t(lang, "errorTitle"),
    body: `<h1>${t(lang, "errorTitle")}</h1><p role="alert" class="error" data-testid="ramp-error">${escapeHtml(message)}</p>`,
  })

const summary = (rows: ReadonlyArray<readonly [string, string]>): string =>
  `<dl data-testid="ramp-summary">${rows.map(([k, v]) => `<dt>${escapeHtml(k)}</dt><dd>${escapeHtml(v)}</dd>`).join("")}</dl>`

export const money = (amount: string, code: string): string => `${amount} ${code.toUpperCase()}`

export interface CheckoutInput {
  readonly provider: Provider
  readonly lang: Lang
  /** where the form posts */
  readonly action: string
  /** the signed widget query, posted back and verified again */
  readonly widget: string
  readonly fiatAmount: string
  readonly fiat: string
  readonly cryptoAmount: string
  readonly crypto: string
  readonly feeAmount: string
  readonly address: string
  readonly errors?: Partial<Record<"card" | "expiry" | "cvc", TextKey>>
  readonly values?: { readonly card?: string; readonly expiry?: string; readonly holder?: string }
}

const field = (
  lang: Lang,
  id: "card" | "expiry" | "cvc" | "holder",
  label: TextKey,
  attrs: string,
  value: string,
  error: TextKey | undefined,
  hint?: string,
): string => {
  const described = [hint ? `${id}-hint` : "", error ? `${id}-error` : ""].filter(Boolean).join(" ")
  return `<div><label for="${id}">${t(lang, label)}</label>
<input id="${id}" name="${id}" data-testid="ramp-${id}" ${attrs} value="${escapeHtml(value)}"${described ? ` aria-describedby="${described}"` : ""}${error ? ' aria-invalid="true"' : ""}>
${hint ? `<p class="hint" id="${id}-hint">${escapeHtml(hint)}</p>` : ""}${error ? `<p class="error" id="${id}-error" role="alert">${t(lang, error)}</p>` : ""}</div>`
}

/** Disables the submit button once the form is sent (no double payments from a double click). */
const ONCE_SCRIPT = `document.querySelectorAll("form").forEach(function (f) { f.addEventListener("submit", function (e) { var b = e.submitter || f.querySelector("button"); setTimeout(function () { f.querySelectorAll("button").forEach(function (x) { x.disabled = true }); if (b && b.dataset.busy) b.textContent = b.dataset.busy }, 0) }) })`

export const checkoutPage = (c: CheckoutInput): Reply =>
  page({
    provider: c.provider,
    lang: c.lang,
    status: c.errors ? 400 : 200,
    title: t(c.lang, "buyTitle"),
    body: `<h1>${t(c.lang, "buyTitle")}</h1>
${summary([
  [t(c.lang, "youPay"), money(c.fiatAmount, c.fiat)],
  [t(c.lang, "fee"), money(c.feeAmount, c.fiat)],
  [t(c.lang, "youGet"), money(c.cryptoAmount, c.crypto)],
  [t(c.lang, "to"), c.address],
])}
<form method="post" action="${escapeHtml(c.action)}" novalidate>
<input type="hidden" name="widget" value="${escapeHtml(c.widget)}">
${field(c.lang, "card", "card", 'inputmode="numeric" autocomplete="cc-number" required', c.values?.card ?? "", c.errors?.card, t(c.lang, "cardHint"))}
<div class="row">
${field(c.lang, "expiry", "expiry", 'inputmode="numeric" autocomplete="cc-exp" placeholder="MM/YY" required', c.values?.expiry ?? "", c.errors?.expiry)}
${field(c.lang, "cvc", "cvc", 'inputmode="numeric" autocomplete="cc-csc" required', "", c.errors?.cvc)}
</div>
${field(c.lang, "holder", "holder", 'autocomplete="cc-name"', c.values?.holder ?? "", undefined)}
<button type="submit" data-testid="ramp-pay" data-busy="${t(c.lang, "paying")}">${t(c.lang, "pay")} ${escapeHtml(money(c.fiatAmount, c.fiat))}</button>
</form>`,
    script: ONCE_SCRIPT,
  })

export const challengePage = (tx: RampTransaction, lang: Lang, action: string): Reply =>
  page({
    provider: tx.provider,
    lang,
    title: t(lang, "challengeTitle"),
    body: `<h1>${t(lang, "challengeTitle")}</h1>
<p>${t(lang, "challengeText")}</p>
${summary([
  [t(lang, "youPay"), money(tx.fiatAmount, tx.fiat)],
  [t(lang, "card"), `•••• ${tx.cardLast4 ?? ""}`],
])}
<form method="post" action="${escapeHtml(action)}">
<button type="submit" name="answer" value="pass" data-testid="ramp-3ds-complete" data-busy="${t(lang, "paying")}">${t(lang, "approve")}</button>
<button type="submit" name="answer" value="fail" class="secondary" data-testid="ramp-3ds-fail">${t(lang, "reject")}</button>
</form>`,
    script: ONCE_SCRIPT,
  })

export interface SellInput {
  readonly lang: Lang
  readonly action: string
  readonly widget: string
  readonly cryptoAmount: string
  readonly crypto: string
  readonly fiatAmount: string
  readonly fiat: string
  readonly feeAmount: string
}

export const sellPage = (s: SellInput): Reply =>
  page({
    provider: "moonpay",
    lang: s.lang,
    title: t(s.lang, "sellTitle"),
    body: `<h1>${t(s.lang, "sellTitle")}</h1>
${summary([
  [t(s.lang, "youSell"), money(s.cryptoAmount, s.crypto)],
  [t(s.lang, "fee"), money(s.feeAmount, s.fiat)],
  [t(s.lang, "youGet"), money(s.fiatAmount, s.fiat)],
])}
<form method="post" action="${escapeHtml(s.action)}">
<input type="hidden" name="widget" value="${escapeHtml(s.widget)}">
<button type="submit" data-testid="ramp-sell-confirm" data-busy="${t(s.lang, "paying")}">${t(s.lang, "sellConfirm")}</button>
</form>`,
    script: ONCE_SCRIPT,
  })

/** Polls the transaction's status (a sandbox page endpoint) and shows it. */
const pollScript = (statusUrl: string, lang: Lang): string =>
  `(function () { var el = document.getElementById("status"); var names = ${JSON.stringify(STATUS_TEXT[lang])}; function tick() { fetch(${JSON.stringify(statusUrl)}, { cache: "no-store" }).then(function (r) { return r.json() }).then(function (j) { if (el.dataset.status !== j.status) { el.dataset.status = j.status; el.className = "status-" + j.status; el.textContent = names[j.status] || j.status } if (j.status !== "completed" && j.status !== "failed") setTimeout(tick, 2000) }).catch(function () { setTimeout(tick, 4000) }) } setTimeout(tick, 2000) })()`

const statusLine = (lang: Lang, status: string): string =>
  `<p>${t(lang, "status")}: <strong id="status" role="status" aria-live="polite" data-testid="ramp-status" data-status="${escapeHtml(status)}" class="status-${escapeHtml(status)}">${escapeHtml(statusText(lang, status))}</strong></p>`

export interface DepositLinks {
  /** the status endpoint the page polls */
  readonly statusUrl: string
  readonly cancelAction: string
  /** back to the wallet (its redirect URL with MoonPay's parameters), when it gave one */
  readonly returnUrl: string | undefined
}

export const depositPage = (tx: RampTransaction, lang: Lang, links: DepositLinks): Reply =>
  page({
    provider: tx.provider,
    lang,
    title: t(lang, "depositTitle"),
    body: `<h1>${t(lang, "depositTitle")}</h1>
<p>${t(lang, "depositText")}</p>
${summary([
  [t(lang, "youSell"), money(tx.cryptoAmount, tx.crypto)],
  [t(lang, "payout"), money(tx.fiatAmount, tx.fiat)],
])}
<p>${t(lang, "depositAddress")}:<br><code data-testid="ramp-deposit-address">${escapeHtml(tx.depositAddress ?? "")}</code></p>
${statusLine(lang, tx.status)}
${links.returnUrl ? `<a class="button" href="${escapeHtml(links.returnUrl)}" data-testid="ramp-return">${t(lang, "back")}</a>` : ""}
${tx.status === "waitingForDeposit" ? `<form method="post" action="${escapeHtml(links.cancelAction)}"><button type="submit" class="secondary" data-testid="ramp-sell-cancel">${t(lang, "cancel")}</button></form>` : ""}`,
    script: pollScript(links.statusUrl, lang),
  })

export const resultPage = (tx: RampTransaction, lang: Lang): Reply =>
  page({
    provider: tx.provider,
    lang,
    title: t(lang, "resultTitle"),
    body: `<h1>${t(lang, "resultTitle")}</h1>
${summary([
  [t(lang, tx.direction === "buy" ? "youPay" : "youSell"), tx.direction === "buy" ? money(tx.fiatAmount, tx.fiat) : money(tx.cryptoAmount, tx.crypto)],
  [t(lang, "youGet"), tx.direction === "buy" ? money(tx.cryptoAmount, tx.crypto) : money(tx.fiatAmount, tx.fiat)],
])}
${statusLine(lang, tx.status)}`,
  })
