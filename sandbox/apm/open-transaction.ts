/**
 * Creating an asynchronous transaction (payment, payout, redirect method): PENDING by default, which sends the
 * pending webhook; with metadata simulate_result APPROVED/DECLINED it is created and finished at once, so only
 * the final webhook goes out.
 */
import type { SandboxContext } from "../core/context"
import type { NewTransaction } from "../core/store"
import type { TransactionRecord } from "../core/types"
import { attachProviderFlow, newProviderFlow, type ProviderFlow } from "./provider-flow"
import type { SimulatedResult } from "./simulate"

export type OpenInput = Omit<NewTransaction, "status">

export function openTransaction(
  ctx: SandboxContext,
  input: OpenInput,
  simulated: SimulatedResult | null,
  operation: string,
  page?: Omit<ProviderFlow, "session_id" | "redirect" | "scheme_code"> & { scheme_code?: string | null },
): TransactionRecord {
  const finishesAtOnce = simulated === "APPROVED" || simulated === "DECLINED"
  const tx = ctx.store.createTransaction({ ...input, status: finishesAtOnce ? "CREATED" : "PENDING" }, operation)
  if (page) attachProviderFlow(ctx, tx, newProviderFlow({ ...page, redirect: simulated === null }))
  if (finishesAtOnce) ctx.store.setStatus(tx, simulated)
  return tx
}
