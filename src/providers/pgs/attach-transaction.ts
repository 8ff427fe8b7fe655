/**
 * A transaction for this session, named by the storefront (the one a gateway page made: embedded fields, hosted
 * page) or by the webhook workflow (one the gateway reported, for any integration). Trust nothing: the gateway
 * must know the transaction and it must carry this session's reference, terminal, amount, currency and
 * transaction type. Its status is then recorded as the status table maps it.
 */
import type { UpdatePaymentOutput } from "@medusajs/framework/types"
import { MedusaError } from "@medusajs/framework/utils"
import type { PgsSessionData } from "../../payments/session-data"
import { isFailedStatus } from "../../payments/status-table"
import { applyStep } from "./attempt"
import type { ProviderDeps } from "./deps"
import type { Integration } from "./integrations/integration"
import { finishedOutcome } from "./next-step"

export async function attachTransaction(
  deps: ProviderDeps,
  integration: Integration,
  current: PgsSessionData,
  transactionId: string,
  namedBy: "storefront" | "gateway" = "storefront",
): Promise<UpdatePaymentOutput> {
  if (namedBy === "storefront" && !integration.takesTransactionFromOutside)
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, "Only Embedded Fields and hosted payment page sessions take a transaction from outside")
  const another = !!current.transaction_id && current.transaction_id !== transactionId && !!current.gateway_status && !isFailedStatus(current.gateway_status)
  if (another && namedBy === "storefront") throw anotherAttached()
  const found = await deps.client.status.transaction(transactionId)
  if (!found) throw new MedusaError(MedusaError.Types.NOT_FOUND, "The gateway does not know this transaction")
  const tx = found.transaction
  // The gateway may report a decline of a newer try while an older one is still open (the shopper tried again on
  // the page): the decline is recorded. Only a transaction that may still take money must not replace another.
  if (another && !isFailedStatus(tx.status)) throw anotherAttached()
  const mismatches = [
    tx.reference !== current.reference && "reference",
    tx.terminal_id !== current.terminal_id && "terminal",
    tx.amount !== current.amount_minor && "amount",
    tx.currency !== current.currency_code.toUpperCase() && "currency",
    tx.transaction_type !== current.transaction_type && "transaction type",
  ].filter(Boolean)
  if (mismatches.length)
    throw new MedusaError(MedusaError.Types.CONFLICT, `The transaction does not belong to this payment session (${mismatches.join(", ")} differ)`)
  const open = tx.status === "CREATED" || tx.status === "PENDING"
  return applyStep(deps, current, finishedOutcome(tx, current.transaction_type, open && integration.awaitingShopper(current, tx)))
}

const anotherAttached = () => new MedusaError(MedusaError.Types.CONFLICT, "Another transaction is already attached to this payment session")
