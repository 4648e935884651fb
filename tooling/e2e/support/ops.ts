/** Helpers the browser tests share: demo users' ids and the operator console signed in. */
import type { Page } from "playwright-core"
import type { Stack } from "@wallet/harness/stack"
import { hashPasswordNow } from "../../../kernel/server/src/operator/auth.ts"

/** A real 2×2 PNG (servers check a file's magic bytes). */
export const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP8z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==", "base64")

/** The Telegram id of a demo user of the stack's dev server. */
export const demoUserId = async (stack: Stack, kind: string): Promise<number> => {
  const users = (await (await fetch(`${stack.server.url}/api/dev/demo-users`)).json()) as Array<{ id: number; kind: string }>
  const user = users.find((candidate) => candidate.kind === kind)
  if (user === undefined) throw new Error(`no demo user ${kind}`)
  return user.id
}

/**
 * The operator console in its own browser context (its cookie is not the app's), signed in as an
 * operator made for the test, on `path` (e.g. `/ops/kyc?user=42`).
 */
export const openOperatorConsole = async (
  stack: Stack,
  operator: { readonly name: string; readonly password: string },
  path: string,
): Promise<{ readonly ops: Page; close(): Promise<void> }> => {
  const hash = await hashPasswordNow(operator.password)
  await stack.server.sql("insert into operator_accounts (name, password_hash, created_at) values ($1, $2, now()) on conflict do nothing", [operator.name, hash])
  const context = await stack.browser.newContext()
  const ops = await context.newPage()
  await ops.goto(`${stack.server.url}/ops`)
  await ops.getByLabel("Name").fill(operator.name)
  await ops.getByLabel("Password").fill(operator.password)
  await ops.getByRole("button", { name: "Sign in" }).click()
  await ops.getByRole("button", { name: "Sign out" }).waitFor()
  await ops.goto(`${stack.server.url}${path}`)
  return { ops, close: () => context.close() }
}
