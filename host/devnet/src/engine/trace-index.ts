// The devnet's indexer: traces by id, transaction and external message hash, each account's events
// in lt order, jetton operations by owner, and the provisional events of messages still in the mempool.
import type { AccountEventJson, JettonOpRecord, StoredAccountEvent, TraceRecord } from "../model.ts"

export class TraceIndex {
  private readonly traces = new Map<string, TraceRecord>()
  private readonly txToTrace = new Map<string, string>()
  private readonly extToTrace = new Map<string, string>()
  private readonly eventsByAccount = new Map<string, StoredAccountEvent[]>()
  private readonly jettonOps = new Map<string, JettonOpRecord[]>()
  /** last event time of each account (seconds) */
  readonly lastActivity = new Map<string, number>()
  /** events of messages accepted into the mempool, by external message hash, until their block runs */
  readonly provisional = new Map<string, StoredAccountEvent[]>()

  add(record: TraceRecord): void {
    this.traces.set(record.traceId, record)
    for (const h of record.txHashes) this.txToTrace.set(h, record.traceId)
    if (record.extHash) this.extToTrace.set(record.extHash, record.traceId)
    for (const e of record.accountEvents) {
      let list = this.eventsByAccount.get(e.account)
      if (!list) this.eventsByAccount.set(e.account, (list = []))
      list.push(e)
      if (list.length > 1 && list[list.length - 2]!.lt > e.lt) list.sort((a, b) => a.lt - b.lt)
      this.lastActivity.set(e.account, Math.max(this.lastActivity.get(e.account) ?? 0, record.utime))
    }
    for (const op of record.jettonOps) {
      let list = this.jettonOps.get(op.owner)
      if (!list) this.jettonOps.set(op.owner, (list = []))
      list.push(op)
    }
  }

  holdersCount(master: string): number {
    const owners = new Set<string>()
    for (const [owner, ops] of this.jettonOps) if (ops.some((o) => o.master === master)) owners.add(owner)
    return owners.size
  }

  listEvents(
    account: string,
    opts: {
      beforeLt?: number
      afterLt?: number
      limit: number
      subjectOnly: boolean
      initiator?: boolean
      asc?: boolean
      startDate?: number
      endDate?: number
    },
  ): { events: AccountEventJson[]; next_from: number } {
    const all = this.eventsByAccount.get(account) ?? []
    const out: AccountEventJson[] = []
    const provisional = opts.beforeLt === undefined && !opts.asc ? [...this.provisional.values()].flat().filter((e) => e.account === account) : []
    const filterEvent = (e: StoredAccountEvent): AccountEventJson | undefined => {
      if (opts.initiator && !e.initiator) return undefined
      if (opts.startDate !== undefined && e.event.timestamp < opts.startDate) return undefined
      if (opts.endDate !== undefined && e.event.timestamp > opts.endDate) return undefined
      if (!opts.subjectOnly) return e.event
      const actions = e.event.actions.filter((_, i) => e.subject[i])
      return actions.length ? { ...e.event, actions } : undefined
    }
    for (const e of provisional) {
      const ev = filterEvent(e)
      if (ev && out.length < opts.limit) out.push(ev)
    }
    // binary search the first index with lt >= beforeLt
    let hi = all.length
    if (opts.beforeLt !== undefined) {
      let lo = 0
      hi = all.length
      while (lo < hi) {
        const mid = (lo + hi) >> 1
        if (all[mid]!.lt < opts.beforeLt) lo = mid + 1
        else hi = mid
      }
    }
    let last: StoredAccountEvent | undefined
    if (opts.asc) {
      for (let i = 0; i < hi && out.length < opts.limit; i++) {
        const e = all[i]!
        if (opts.afterLt !== undefined && e.lt <= opts.afterLt) continue
        const ev = filterEvent(e)
        if (ev) {
          out.push(ev)
          last = e
        }
      }
    } else {
      for (let i = hi - 1; i >= 0 && out.length < opts.limit; i--) {
        const e = all[i]!
        if (opts.afterLt !== undefined && e.lt <= opts.afterLt) break
        const ev = filterEvent(e)
        if (ev) {
          out.push(ev)
          last = e
        }
      }
    }
    return { events: out, next_from: out.length < opts.limit || !last ? 0 : last.lt }
  }

  accountEvent(account: string, eventId: string, subjectOnly: boolean): AccountEventJson | undefined {
    const id = this.normalizeId(eventId)
    for (const list of this.provisional.values()) {
      const p = list.find((e) => e.account === account && e.event.event_id === id)
      if (p) return p.event
    }
    const traceId = this.txToTrace.get(id) ?? this.extToTrace.get(id) ?? id
    const rec = this.traces.get(traceId)
    const e = rec?.accountEvents.find((x) => x.account === account)
    if (!e) return undefined
    return subjectOnly ? { ...e.event, actions: e.event.actions.filter((_, i) => e.subject[i]) } : e.event
  }

  normalizeId(id: string): string {
    const s = id.trim()
    if (/^[0-9a-fA-F]{64}$/.test(s)) return s.toLowerCase()
    try {
      const b = Buffer.from(s, "base64url")
      if (b.length === 32) return b.toString("hex")
    } catch {
      // fall through
    }
    return s.toLowerCase()
  }

  trace(id: string): TraceRecord | undefined {
    const h = this.normalizeId(id)
    const traceId = this.txToTrace.get(h) ?? this.extToTrace.get(h) ?? h
    return this.traces.get(traceId)
  }

  jettonHistory(account: string, opts: { master?: string; beforeLt?: number; limit: number; startDate?: number; endDate?: number }) {
    const all = (this.jettonOps.get(account) ?? []).filter(
      (o) =>
        (!opts.master || o.master === opts.master) &&
        (opts.beforeLt === undefined || o.lt < opts.beforeLt) &&
        (opts.startDate === undefined || (o.json.utime as number) >= opts.startDate) &&
        (opts.endDate === undefined || (o.json.utime as number) <= opts.endDate),
    )
    const page = all.slice(-opts.limit).toReversed()
    return { operations: page.map((o) => o.json), ...(page.length === opts.limit ? { next_from: page[page.length - 1]!.lt } : {}) }
  }
}
