/**
 * Tell the provider which gateway transaction paid an Embedded Fields session, through the payment module's
 * public updatePaymentSession and the provider's `attach_transaction` request (src/payments/server-requests.ts):
 * the provider re-reads the transaction, checks it belongs to the session, and maps its status — one place for
 * both the storefront route and the webhook. The shopper who never comes back never attaches it; the webhook does.
 */
import { Modules } from "@medusajs/framework/utils"
import type { IPaymentModuleService, UpdatePaymentSessionDTO } from "@medusajs/framework/types"
import { withServerRequest } from "../../payments/server-requests"
import type { EventContext } from "./context"
import type { SessionView } from "./lookup"

/** Sessions that learn their transaction from outside: embedded fields and the hosted payment page. */
export const needsAttach = (session: SessionView, transactionId: string) =>
  (session.data.integration === "embedded_fields" || session.data.integration === "hosted_payment_page") &&
  session.data.transaction_id !== transactionId

export async function updateSession(
  ctx: EventContext,
  session: SessionView,
  change: { attach?: string; data?: Record<string, unknown>; status?: UpdatePaymentSessionDTO["status"] },
) {
  const payment = ctx.container.resolve<IPaymentModuleService>(Modules.PAYMENT)
  const plain = { ...session.data, ...change.data }
  const data = change.attach ? withServerRequest(plain, { kind: "attach_transaction", transaction_id: change.attach }) : plain
  return payment.updatePaymentSession({
    id: session.id,
    data,
    amount: session.amount as number,
    currency_code: session.currency_code,
    ...(change.status ? { status: change.status } : {}),
  })
}
