/** POST /api/customers: a merchant's customer, later linked to transactions and saved cards by `customer.id`. */
import { createCustomerRequest, type CustomerResponse } from "../schemas"
import { requireMerchant } from "../core/auth"
import type { SandboxContext } from "../core/context"
import { json, validateBody, type Reply, type SandboxRequest } from "../core/http"
import { newId, nowIso } from "../core/ids"
import type { CustomerRecord } from "../core/types"

/** The response flattens the address object into top-level address, city, country, postal_code. */
export function customerView(c: CustomerRecord): CustomerResponse {
  return {
    id: c.id,
    first_name: c.first_name,
    last_name: c.last_name,
    email: c.email,
    phone: c.phone,
    address: c.address,
    city: c.city,
    country: c.country,
    postal_code: c.postal_code,
  }
}

export async function createCustomer(ctx: SandboxContext, req: SandboxRequest): Promise<Reply> {
  const merchant = await requireMerchant(ctx, req)
  const body = validateBody(req, createCustomerRequest)
  // Assumption: creating a customer is not idempotent and emails need not be unique (neither is shown):
  // each call creates a new customer.
  const record: CustomerRecord = {
    id: newId("cus"),
    merchant_id: merchant.merchant_id,
    email: body.email,
    first_name: body.first_name ?? null,
    last_name: body.last_name ?? null,
    phone: body.phone ?? null,
    description: body.description ?? null,
    type: body.type ?? null,
    address: body.address?.address ?? null,
    city: body.address?.city ?? null,
    country: body.address?.country ?? null,
    postal_code: body.address?.postal_code ?? null,
    region: body.address?.region ?? null,
    created_at: nowIso(),
  }
  ctx.store.customers.set(record.id, record)
  // Assumption: the success status is not shown; 200 like every other documented success.
  return json(200, customerView(record))
}
