/**
 * The webhook delivery loop: every 100 ms it sends the due outbox rows one at a time in enqueue
 * order (while a webhook URL is set), with the digest headers and a 5 s timeout. 2xx is delivered;
 * anything else is retried after `retryDelaysMs[attempt]` and marked failed after the last one.
 * Chaos: a delivered webhook may be sent once more ~300 ms later; a held applicantPending is
 * released once a later event of its applicant is delivered (or failed for good).
 * The loop is generic over a `DeliveryChannel` (its outbox table, signing headers, clock, retry
 * schedule and chaos): Sumsub's channel is `sumsubChannel`; the ramp sandbox has one per provider.
 */
import type { PGlite } from "@electric-sql/pglite"
import type { Chaos } from "./config.ts"
import type { SandboxContext } from "./context.ts"
import { payloadDigest } from "./webhooks.ts"

const TICK_MS = 100
const TIMEOUT_MS = 5000
const DUPLICATE_AFTER_MS = 300
/** idle() does not wait for retries due later than this */
const IDLE_HORIZON_MS = 1000

interface Delivery {
  id: number
  applicant_id: string
  type: string
  body: string
  attempt: number
  duplicate_of: number | null
}

/**
 * Where and how a loop delivers. `table` has the columns of Sumsub's `deliveries` table;
 * `applicant_id` is the subject whose events the reorder chaos holds back (an applicant, a transaction).
 */
export interface DeliveryChannel {
  readonly db: PGlite
  readonly table: string
  /** the log prefix, e.g. "sumsub" */
  readonly name: string
  /** the headers besides content-type, computed at each send (a signature may carry the time) */
  readonly headers: (body: string) => Readonly<Record<string, string>>
  readonly retryDelaysMs: ReadonlyArray<number>
  readonly chaos: () => Readonly<Required<Chaos>>
  readonly now: () => number
}

/** Sumsub's channel: the `deliveries` table, `x-payload-digest` and its algorithm. */
export const sumsubChannel = (ctx: SandboxContext): DeliveryChannel => ({
  db: ctx.db,
  table: "deliveries",
  name: "sumsub",
  headers: (body) => ({
    "x-payload-digest": payloadDigest(ctx.config.digestAlg, ctx.config.webhookSecret, body),
    "x-payload-digest-alg": ctx.config.digestAlg,
  }),
  retryDelaysMs: ctx.config.retryDelaysMs,
  chaos: ctx.chaos,
  now: ctx.config.now,
})

export interface DeliveryLoop {
  setWebhookUrl(url: string | undefined): void
  idle(): Promise<void>
  close(): Promise<void>
}

const describe = (error: unknown): string => {
  if (!(error instanceof Error)) return String(error)
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : ""
  return `${error.message}${cause}`
}

export const startDeliveryLoop = (channel: DeliveryChannel, initialUrl: string | undefined, log: (line: string) => void): DeliveryLoop => {
  const { db, table, name } = channel
  let webhookUrl = initialUrl
  let running: Promise<void> | undefined
  let closed = false
  const stopping = new AbortController()

  const nextDue = async (): Promise<Delivery | undefined> => {
    const { rows } = await db.query<Delivery>(
      `select id, applicant_id, type, body, attempt, duplicate_of from ${table} where state = 'queued' and next_at <= $1 order by id limit 1`,
      [channel.now()],
    )
    return rows[0]
  }

  /** One POST; undefined when the receiver answered 2xx, else what went wrong. */
  const post = async (url: string, body: string): Promise<string | undefined> => {
    try {
      const res = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json", ...channel.headers(body) },
        body,
        signal: AbortSignal.any([AbortSignal.timeout(TIMEOUT_MS), stopping.signal]),
      })
      await res.arrayBuffer().catch(() => undefined)
      return res.ok ? undefined : `HTTP ${res.status}`
    } catch (error) {
      return describe(error)
    }
  }

  const releaseHeld = async (d: Delivery, now: number): Promise<void> => {
    await db.query(`update ${table} set state = 'queued', next_at = $3 where applicant_id = $1 and state = 'held' and id < $2`, [d.applicant_id, d.id, now])
  }

  const deliver = async (d: Delivery, url: string): Promise<void> => {
    const failure = await post(url, d.body)
    if (closed && failure) return // interrupted by close(): the row stays due for the next start
    const now = channel.now()
    const original = d.duplicate_of === null
    if (failure === undefined) {
      await db.transaction(async (tx) => {
        await tx.query(`update ${table} set state = 'delivered', attempt = attempt + 1, delivered_at = $2, last_error = null where id = $1`, [d.id, now])
        if (original && Math.random() < channel.chaos().duplicate) {
          await tx.query(
            `insert into ${table} (applicant_id, type, body, state, next_at, duplicate_of, created_at) values ($1, $2, $3, 'queued', $4, $5, $6)`,
            [d.applicant_id, d.type, d.body, now + DUPLICATE_AFTER_MS, d.id, now],
          )
        }
      })
      if (original) await releaseHeld(d, now)
      return
    }
    const delay = channel.retryDelaysMs[d.attempt]
    if (delay === undefined) {
      await db.query(`update ${table} set state = 'failed', attempt = attempt + 1, last_error = $2 where id = $1`, [d.id, failure])
      log(`${name} webhook ${d.type} #${d.id} failed for good after ${d.attempt + 1} attempts: ${failure}`)
      if (original) await releaseHeld(d, now)
    } else {
      await db.query(`update ${table} set attempt = attempt + 1, next_at = $2, last_error = $3 where id = $1`, [d.id, now + delay, failure])
      log(`${name} webhook ${d.type} #${d.id} to ${url}: ${failure}; retry in ${delay} ms`)
    }
  }

  const drain = async (): Promise<void> => {
    for (;;) {
      const url = webhookUrl
      if (closed || !url) return
      const due = await nextDue()
      if (!due) return
      await deliver(due, url)
    }
  }

  const tick = (): void => {
    if (running || closed) return
    running = drain()
      .catch((error: unknown) => {
        if (!closed) log(`${name} webhook loop: ${describe(error)}`)
      })
      .finally(() => {
        running = undefined
      })
  }

  const timer = setInterval(tick, TICK_MS)
  timer.unref()

  const busy = async (): Promise<boolean> => {
    if (running) return true
    if (!webhookUrl) return false
    const { rows } = await db.query<{ n: number }>(`select count(*)::int as n from ${table} where state = 'queued' and next_at <= $1`, [
      channel.now() + IDLE_HORIZON_MS,
    ])
    return (rows[0]?.n ?? 0) > 0
  }

  return {
    setWebhookUrl: (url) => {
      webhookUrl = url
      tick()
    },
    idle: async () => {
      for (;;) {
        if (closed || !(await busy())) return
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
    },
    close: async () => {
      closed = true
      clearInterval(timer)
      stopping.abort()
      await running
    },
  }
}
