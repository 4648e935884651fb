// Renders @ton/core transactions and messages into tonapi JSON (Transaction, Message, Trace).
import { type AccountStatus as CoreStatus, type Message, type Transaction, beginCell, storeMessage, storeStateInit } from "@ton/core"
import type { AccountAddressJson, AccountStatus } from "./model.ts"
import { cellHex, opHex, opOf, raw } from "./util.ts"

export const statusOf = (s: CoreStatus): AccountStatus =>
  s === "active" ? "active" : s === "frozen" ? "frozen" : s === "uninitialized" ? "uninit" : "nonexist"

export const messageHash = (m: Message): string => beginCell().store(storeMessage(m)).endCell().hash().toString("hex")

export const renderMessage = (m: Message, addr: (a: string) => AccountAddressJson): Record<string, unknown> => {
  const op = opOf(m.body)
  const body = m.body && (m.body.bits.length > 0 || m.body.refs.length > 0) ? { raw_body: cellHex(m.body) } : {}
  const common = { hash: messageHash(m), ...(op !== undefined ? { op_code: opHex(op) } : {}), ...body }
  const init = m.init ? { init: { boc: cellHex(beginCell().store(storeStateInit(m.init)).endCell()), interfaces: [] } } : {}
  switch (m.info.type) {
    case "internal":
      return {
        msg_type: "int_msg",
        created_lt: Number(m.info.createdLt),
        ihr_disabled: m.info.ihrDisabled,
        bounce: m.info.bounce,
        bounced: m.info.bounced,
        value: Number(m.info.value.coins),
        fwd_fee: Number(m.info.forwardFee),
        ihr_fee: Number(m.info.ihrFee),
        import_fee: 0,
        created_at: m.info.createdAt,
        source: addr(raw(m.info.src)),
        destination: addr(raw(m.info.dest)),
        ...init,
        ...common,
      }
    case "external-in":
      return {
        msg_type: "ext_in_msg",
        created_lt: 0,
        ihr_disabled: true,
        bounce: false,
        bounced: false,
        value: 0,
        fwd_fee: 0,
        ihr_fee: 0,
        import_fee: Number(m.info.importFee),
        created_at: 0,
        destination: addr(raw(m.info.dest)),
        ...init,
        ...common,
      }
    default:
      return {
        msg_type: "ext_out_msg",
        created_lt: Number(m.info.createdLt),
        ihr_disabled: true,
        bounce: false,
        bounced: false,
        value: 0,
        fwd_fee: 0,
        ihr_fee: 0,
        import_fee: 0,
        created_at: m.info.createdAt,
        source: addr(raw(m.info.src)),
        ...common,
      }
  }
}

export const renderTransaction = (
  tx: Transaction,
  account: string,
  endBalance: bigint,
  block: string,
  addr: (a: string) => AccountAddressJson,
): Record<string, unknown> & { hash: string; lt: number } => {
  const d = tx.description
  const generic = d.type === "generic" ? d : undefined
  const cp = generic?.computePhase
  const ap = generic?.actionPhase
  const success = !!cp && cp.type === "vm" && cp.success && !(generic?.aborted ?? false)
  return {
    hash: tx.hash().toString("hex"),
    lt: Number(tx.lt),
    account: addr(account),
    success,
    utime: tx.now,
    orig_status: statusOf(tx.oldStatus),
    end_status: statusOf(tx.endStatus),
    total_fees: Number(tx.totalFees.coins),
    end_balance: Number(endBalance),
    transaction_type: "TransOrd",
    state_update_old: tx.stateUpdate.oldHash.toString("hex"),
    state_update_new: tx.stateUpdate.newHash.toString("hex"),
    ...(tx.inMessage ? { in_msg: renderMessage(tx.inMessage, addr) } : {}),
    out_msgs: [...tx.outMessages.values()].map((m) => renderMessage(m, addr)),
    block,
    prev_trans_hash: tx.prevTransactionHash.toString(16).padStart(64, "0"),
    prev_trans_lt: Number(tx.prevTransactionLt),
    ...(cp
      ? {
          compute_phase:
            cp.type === "vm"
              ? {
                  skipped: false,
                  success: cp.success,
                  gas_fees: Number(cp.gasFees),
                  gas_used: Number(cp.gasUsed),
                  vm_steps: cp.vmSteps,
                  exit_code: cp.exitCode,
                }
              : { skipped: true, skip_reason: cp.reason === "no-state" ? "cskip_no_state" : cp.reason === "bad-state" ? "cskip_bad_state" : "cskip_no_gas" },
        }
      : {}),
    ...(generic?.storagePhase ? { storage_phase: { fees_collected: Number(generic.storagePhase.storageFeesCollected), status_change: "acst_unchanged" } } : {}),
    ...(generic?.creditPhase
      ? { credit_phase: { fees_collected: Number(generic.creditPhase.dueFeesColelcted ?? 0n), credit: Number(generic.creditPhase.credit.coins) } }
      : {}),
    ...(ap
      ? {
          action_phase: {
            success: ap.success,
            result_code: ap.resultCode,
            total_actions: ap.totalActions,
            skipped_actions: ap.skippedActions,
            fwd_fees: Number(ap.totalFwdFees ?? 0n),
            total_fees: Number(ap.totalActionFees ?? 0n),
          },
        }
      : {}),
    aborted: generic?.aborted ?? false,
    destroyed: generic?.destroyed ?? false,
    raw: cellHex(tx.raw),
  }
}
