/**
 * Tell the provider which gateway transaction the gateway reported for a session, through the payment module's
 * public updatePaymentSession and the provider's `record_transaction` request (src/payments/server-requests.ts):
 * the provider re-reads the transaction, checks it belongs to the session, and maps its status — the same check
 * as the storefront's attach. The shopper who never comes back never attaches it; the webhook does.
 */
import { Modules, type PaymentSessionStatus } from "@medusajs/framework/utils"
import type { IPaymentModuleService, MedusaContainer } from "@medusajs/framework/types"
import { withServerRequest } from "../../payments/server-requests"
import type { SessionView } from "./lookup"

/** Sessions that learn their transaction from outside: embedded fields and the hosted payment page. */
export const needsAttach = (session: SessionView, transactionId: string) =>
  (session.data.integration === "embedded_fields" || session.data.integration === "hosted_payment_page") &&
  session.data.transaction_id !== transactionId

/**
 * The provider records the gateway's transaction on the session: it re-reads it, checks it belongs to the
 * session and writes its status itself (the workflow writes no provider field). `status`: the session status a
 * workflow decided (a failure); without it, the provider's.
 */
export async function recordTransaction(container: MedusaContainer, session: SessionView, transactionId: string, status?: PaymentSessionStatus) {
  const payment = container.resolve<IPaymentModuleService>(Modules.PAYMENT)
  return payment.updatePaymentSession({
    id: session.id,
    data: withServerRequest(session.stored_data, { kind: "record_transaction", transaction_id: transactionId }),
    amount: session.amount as number,
    currency_code: session.currency_code,
    ...(status ? { status } : {}),
  })
}
