/**
 * The two writers of a PGS session's data take turns: the storefront's session requests (attach, client info, 3-D
 * Secure) and the webhook's processing of any try of that session (reference payses_…-N) run under one lock, so
 * neither writes over what the other wrote (a late decline for an earlier try must not erase the paid attach).
 */
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { storePost } from "../support/checkout"
import { storeBody } from "../support/store"
import { runSessionRequest } from "../../../src/api/store/pgs/payment-sessions/session-request"
import { underEventLock } from "../../../src/workflows/pgs-events/event-lock"

export default storeBody("store: a session's storefront requests and its webhooks take turns", (s) => {
  it("makes a session request wait for a webhook of an earlier try holding the lock, then read what that webhook wrote", async () => {
    const cart = await s.createCart()
    const session = (await storePost(s, `/store/pgs/carts/${cart.id}/payment-sessions`, { provider_id: "pp_pgs_pgs" })).data.payment_session
    const knex = s.container().resolve(ContainerRegistrationKeys.PG_CONNECTION)
    const stop = new Error("read only: the request goes no further")
    let seen: Record<string, unknown> | undefined
    let request: Promise<unknown> | undefined
    await underEventLock(s.container(), `${session.id}-2`, async () => {
      // Read what the session holds, then write: a request not waiting for the lock reads before the write.
      request = runSessionRequest(s.container(), session.id, async (read) => {
        seen = (read as unknown as { data: Record<string, unknown> }).data
        throw stop
      }).catch((error: unknown) => error)
      for (let i = 0; i < 10 && !seen; i++) await knex.raw("select 1") // gives a request that does not wait every chance to read first
      await knex.raw(`update payment_session set data = data || '{"written_by":"webhook"}'::jsonb where id = ?`, [session.id])
    })
    expect(await request).toBe(stop)
    expect(seen).toMatchObject({ written_by: "webhook" })
  })
})
