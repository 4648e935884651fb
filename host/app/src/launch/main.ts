import { FakeTelegram } from "@wallet/harness/fake-telegram"
import type { ThemeName } from "@wallet/harness"
import "./launch.css"

/**
 * The dev launch page: pick a demo user, a platform, a theme and a language; the server signs
 * initData with the dev bot token exactly as Telegram would, and the app opens inside the fake
 * Telegram client. Query params (?user=&platform=&theme=&lang=&startParam=&autostart=1, and
 * version=9.0, safeTop= / safeRight= / safeBottom= / safeLeft= / contentSafeTop= in px, and
 * contactAnswer=decline) make it scriptable for the browser tests. The server also signs the user's
 * contact, which the fake client shares when the app asks for the phone (`contactAnswer`, "share" by
 * default; a test can change it later on `window.fakeTelegram`).
 */
interface DemoUser {
  readonly id: number
  readonly kind: string
  readonly name: string
  readonly description: string
}

const params = new URLSearchParams(window.location.search)
const root = document.getElementById("launch")!

const el = <K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Record<string, unknown> = {},
  ...children: Array<Node | string>
): HTMLElementTagNameMap[K] => {
  const node: HTMLElementTagNameMap[K] = document.createElement(tag)
  Object.assign(node, props)
  node.append(...children)
  return node
}

const select = (name: string, label: string, options: Array<[string, string]>, value: string | null) => {
  const control = el("select", { name, id: name })
  for (const [v, text] of options) control.append(el("option", { value: v, textContent: text, selected: v === value }))
  return el("label", { className: "field" }, el("span", { textContent: label }), control)
}

async function main() {
  const status = el("p", { className: "status", role: "status" })
  let users: DemoUser[] = []
  try {
    const response = await fetch("/api/dev/demo-users")
    if (!response.ok) throw new Error(`HTTP ${response.status}`)
    users = (await response.json()) as DemoUser[]
  } catch (error) {
    root.replaceChildren(
      el(
        "main",
        { className: "panel" },
        el("h1", { textContent: "Wallet dev launch" }),
        el("p", { className: "error", textContent: `The API server is not reachable (${String(error)}). Start everything with npm start.` }),
      ),
    )
    return
  }
  const form = el(
    "form",
    { className: "panel" },
    el("h1", { textContent: "Wallet dev launch" }),
    el("p", { className: "hint", textContent: "Opens the mini-app in a fake Telegram client with initData signed by the dev bot token." }),
    select(
      "user",
      "Demo user",
      users.map((u) => [String(u.id), `${u.name} — ${u.description}`]),
      params.get("user") ?? String(users.find((u) => u.kind === "balances")?.id ?? users[0]?.id),
    ),
    select(
      "platform",
      "Platform",
      [
        ["ios", "iOS"],
        ["android", "Android"],
      ],
      params.get("platform") ?? "ios",
    ),
    select(
      "theme",
      "Theme",
      [
        ["light", "Light"],
        ["dark", "Dark"],
      ],
      params.get("theme") ?? "light",
    ),
    select(
      "lang",
      "Language",
      [
        ["en", "English"],
        ["ru", "Русский"],
        ["hi", "हिन्दी"],
        ["bn", "বাংলা"],
        ["zh-TW", "繁體中文"],
      ],
      params.get("lang") ?? "en",
    ),
    el(
      "label",
      { className: "field" },
      el("span", { textContent: "Start param (optional)" }),
      el("input", {
        name: "startParam",
        id: "startParam",
        value: params.get("startParam") ?? "",
        placeholder: "e.g. settings_language",
        pattern: "[\\w-]{0,512}",
      }),
    ),
    el("button", { type: "submit", textContent: "Open mini-app" }),
    status,
    el(
      "p",
      { className: "hint" },
      "Emails the app sends (recovery codes) land in the ",
      el("a", { href: "/api/dev/outbox.html", target: "_blank", textContent: "dev outbox" }),
      ".",
    ),
  )
  const stage = el("section", { className: "stage", ariaLabel: "Telegram" })
  root.replaceChildren(el("div", { className: "layout" }, form, stage))

  const open = async () => {
    const data = new FormData(form)
    status.textContent = "Signing initData…"
    const body = {
      userId: Number(data.get("user")),
      platform: String(data.get("platform")),
      theme: String(data.get("theme")),
      language: String(data.get("lang")),
      ...(data.get("startParam") ? { startParam: String(data.get("startParam")) } : {}),
      ...(params.get("tamper") ? { tamper: params.get("tamper") } : {}),
    }
    const response = await fetch("/api/dev/launch", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) })
    if (!response.ok) {
      status.textContent = `Launch failed: HTTP ${response.status} ${await response.text()}`
      return
    }
    const { launchParams, contact } = (await response.json()) as { launchParams: string; contact?: string }
    status.textContent = ""
    // ?version=9.0 opens a newer (or older) client: the app reads it from tgWebAppVersion, the fake gates on it.
    const launch = new URLSearchParams(launchParams)
    const version = params.get("version") ?? launch.get("tgWebAppVersion") ?? "8.0"
    launch.set("tgWebAppVersion", version)
    const inset = (name: string) => {
      const value = Number(params.get(name) ?? "0")
      return Number.isFinite(value) && value > 0 ? value : 0
    }
    window.fakeTelegram?.dispose()
    window.fakeTelegram = new FakeTelegram({
      container: stage,
      appUrl: `/#${launch.toString()}`,
      platform: body.platform,
      theme: body.theme as ThemeName,
      version,
      safeArea: { top: inset("safeTop"), right: inset("safeRight"), bottom: inset("safeBottom"), left: inset("safeLeft") },
      contentSafeArea: { top: inset("contentSafeTop"), bottom: inset("contentSafeBottom") },
      contact: contact ?? null,
      contactAnswer: params.get("contactAnswer") === "decline" ? "decline" : "share",
    })
  }
  form.addEventListener("submit", (event) => {
    event.preventDefault()
    void open()
  })
  if (params.get("autostart") === "1") void open()
}

void main()
