/**
 * Saved cards as Medusa's account holders and payment methods: the gateway customer a card is saved for, the
 * customer's saved cards (our module's table, filled by the gateway's tokenization webhook) and their deletion.
 */
import type {
  CreateAccountHolderInput,
  CreateAccountHolderOutput,
  DeletePaymentMethodInput,
  DeletePaymentMethodOutput,
  ListPaymentMethodsInput,
  ListPaymentMethodsOutput,
  PaymentProviderContext,
} from "@medusajs/framework/types"
import { isPossibleE164 } from "../../gateway"
import { customerOfAccountHolder } from "../../modules/pgs/medusa-tables"
import { listSavedCards } from "../../modules/pgs/queries"
import type { ProviderDeps } from "./deps"

export async function createAccountHolder(deps: ProviderDeps, input: CreateAccountHolderInput): Promise<CreateAccountHolderOutput> {
  const existing = (input.context.account_holder as { data?: Record<string, unknown> } | undefined)?.data?.id
  if (typeof existing === "string" && existing) return { id: existing, data: { id: existing } }
  const c = input.context.customer
  const created = await deps.client.customers.create({
    email: c.email,
    ...(c.first_name ? { first_name: c.first_name.slice(0, 255) } : {}),
    ...(c.last_name ? { last_name: c.last_name.slice(0, 255) } : {}),
    ...(c.phone && isPossibleE164(c.phone) ? { phone: c.phone } : {}),
  })
  return { id: created.id, data: { id: created.id } }
}

export async function listPaymentMethods(deps: ProviderDeps, input: ListPaymentMethodsInput): Promise<ListPaymentMethodsOutput> {
  const customerId = input.context?.customer?.id ?? (await customerOfHolder(deps, input.context))
  if (!customerId || !deps.knex) return []
  const cards = await listSavedCards(deps.knex, { customer_id: customerId })
  return cards.map((card) => ({
    id: card.payment_method_id,
    data: { saved_card_id: card.payment_method_id, brand: card.brand, masked: card.masked, last_4: card.last_4, exp_month: card.exp_month, exp_year: card.exp_year },
  }))
}

export async function deletePaymentMethod(deps: ProviderDeps, input: DeletePaymentMethodInput): Promise<DeletePaymentMethodOutput> {
  const deleted = await deps.client.storedMethods.delete(input.data.id)
  return { data: { id: deleted.id, status: deleted.status } }
}

async function customerOfHolder(deps: ProviderDeps, context: PaymentProviderContext | undefined): Promise<string | null> {
  const holderId = (context?.account_holder as { id?: string } | undefined)?.id
  if (!holderId || !deps.knex) return null
  return customerOfAccountHolder(deps.knex, holderId).catch(() => null)
}
