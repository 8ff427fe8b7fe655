/**
 * The shopper pressed Cancel on the gateway's hosted page. The spec gives a hosted page no status to read and no
 * webhook for a page canceled before a card was entered, and the page stays finished (the sandbox sends every later
 * visit back to its cancel URL), so unless Medusa learns of it here the link would send the shopper there forever. The pay link's session, still waiting for its page
 * with no transaction, is marked canceled through Medusa's payment module (same data, same amount): the result
 * page then says "Not paid", and the next visit makes a new page with a new reference (which deletes this session,
 * so it is kept as retired: money its page takes after all goes back through the late-money path).
 * The outcome in the URL is only a hint (anyone holding the result URL can type it); the worst a typed one does is
 * open a new page while the old one is still payable, and a payment there is then given back.
 */
import type { IPaymentModuleService, MedusaContainer } from "@medusajs/framework/types"
import { Modules, PaymentSessionStatus } from "@medusajs/framework/utils"
import { findPgsSession, type SessionView } from "../pgs-events/lookup"
import { isPayLinkSession, payLinkLockKey } from "./open"
import { RENEWED_LEASE_SECONDS, underLeasedLock } from "../../lib/leased-lock"

const LOCK_TIMEOUT_SECONDS = 30

/**
 * Answers the session as it is afterwards. Run twice it changes nothing more (only a waiting session without a
 * transaction is moved, read again under the lock), so a lease lost while it ran (lib/leased-lock.ts) keeps its answer.
 */
export function recordShopperCancel(container: MedusaContainer, session: SessionView): Promise<SessionView> {
  return underLeasedLock(
    container,
    payLinkLockKey(session.payment_collection_id),
    async () => {
      // Read again under the lock: a visit of the link or the webhook may have moved it since.
      const current = await findPgsSession(container, session.id)
      if (!current || !isPayLinkSession(current) || current.status !== "requires_more" || typeof current.data.transaction_id === "string") return current ?? session
      const payment = container.resolve<IPaymentModuleService>(Modules.PAYMENT)
      await payment.updatePaymentSession({
        id: current.id,
        data: current.stored_data,
        amount: current.amount as number,
        currency_code: current.currency_code,
        status: PaymentSessionStatus.CANCELED,
      })
      return { ...current, status: PaymentSessionStatus.CANCELED }
    },
    { timeout: LOCK_TIMEOUT_SECONDS, expire: RENEWED_LEASE_SECONDS },
  )
}
