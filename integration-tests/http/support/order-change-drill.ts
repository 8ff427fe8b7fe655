/**
 * The drill every way of paying runs for an exchange or a claim that sends out more than it takes back: the order
 * owes the difference on Medusa's new payment collection, is paid and captured, and once the item taken back is
 * received it owes nothing; Medusa (admin and store) and the gateway agree at each step.
 */
import { adminPost } from "./checkout"
import { expectMedusaAndGatewayAgree } from "./agreement"
import { receiveReturn, type OrderChange } from "./order-changes"
import { owedCollection, paymentsOfCollection } from "./pay-link"
import type { StoreSuite } from "./store"

export async function drillOrderChange(
  s: StoreSuite,
  orderId: string,
  change: (s: StoreSuite, orderId: string) => Promise<OrderChange>,
  pay: (collectionId: string) => Promise<void>,
) {
  const price = s.seed.prices.eur
  const { returnId, itemTakenBack } = await change(s, orderId)
  const { collectionId, amount } = await owedCollection(s, orderId)
  // Medusa's collection asks for the difference (two items out, one back); the order's outstanding amount counts
  // the item taken back only once it is received.
  expect(amount).toBe(price)
  expect(await expectMedusaAndGatewayAgree(s, orderId)).toBe(2 * price)

  await pay(collectionId)
  const { payments } = await paymentsOfCollection(s, orderId, collectionId)
  expect(payments).toHaveLength(1)
  expect(Number(payments[0].amount)).toBe(amount)
  if (!payments[0].captured_at) expect((await adminPost(s, `/admin/payments/${payments[0].id}/capture`)).status).toBe(200)
  expect(await expectMedusaAndGatewayAgree(s, orderId)).toBe(price)

  await receiveReturn(s, returnId, [itemTakenBack])
  expect(await expectMedusaAndGatewayAgree(s, orderId)).toBe(0)
}
