/**
 * A store started with credentials the gateway refuses: told where people look (the admin's banner, naming the
 * variable), and the shopper gets a 4xx in words they can act on, never a 500. Deliveries signed with another key
 * are not told as a wrong webhook key unless the gateway confirms them as its own (webhooks.spec.ts), which it cannot
 * here.
 */
import { generateKeyPairSync } from "node:crypto"
import { generateTestWebhookHeader } from "../../src/gateway/webhooks"
import { PGS_PROVIDER_ID, pgsStoreSuite } from "./support/store"
import { deliver, refusalsSettled, waitFor } from "./support/webhooks"

const WRONG_SECRET = "not-the-merchant-secret-3f9a"

pgsStoreSuite(
  "a store whose gateway credentials or webhook key are wrong",
  (s) => {
    const health = async () => (await s.api.get("/admin/pgs/health", { headers: await s.adminHeaders() })).data
    const attention = async () => (await s.api.get("/admin/pgs/attention?show=all&limit=50", { headers: await s.adminHeaders() })).data

    it("shows the admin a banner naming PGS_CLIENT_SECRET when the gateway refuses the credentials, never the secret", async () => {
      const h = await health()
      expect(h.credentials.state).toBe("refused")
      expect(h.credentials.message).toMatch(/PGS_CLIENT_ID and PGS_CLIENT_SECRET/)
      expect(JSON.stringify(h)).not.toContain(WRONG_SECRET)
    })

    it("warns once at boot, naming PGS_CLIENT_ID and PGS_CLIENT_SECRET, never the secret, and the boot goes on", async () => {
      // The module's start hook, as Medusa ran it when this store booted (the suite's log level hides warnings),
      // watched through Medusa's own logger.
      const pgs = s.container().resolve<any>("pgs")
      const logger = s.container().resolve<any>("logger")
      const warned: string[] = []
      const warn = logger.warn
      logger.warn = (message: string) => void warned.push(String(message))
      try {
        await pgs.__hooks.onApplicationStart()
        const [line] = await waitFor(async () => (warned.length ? warned : null), { what: "the boot warning" })
        expect(warned).toHaveLength(1)
        expect(line).toMatch(/^medusa-payment-pgs: the gateway's identity provider refused the credentials: check PGS_CLIENT_ID and PGS_CLIENT_SECRET/)
        expect(line).not.toContain(WRONG_SECRET)
      } finally {
        logger.warn = warn
      }
      expect((await s.api.get("/health")).status).toBe(200) // the store is up and serving
    })

    it("answers a shopper starting a card payment with a 4xx they can act on (code pgs_gateway_unavailable), not a 500", async () => {
      const cart = await s.createCart()
      const collection = await s.api.post("/store/payment-collections", { cart_id: cart.id }, { headers: s.storeHeaders })
      const res = await s.api.post(
        `/store/payment-collections/${collection.data.payment_collection.id}/payment-sessions`,
        { provider_id: PGS_PROVIDER_ID },
        { headers: s.storeHeaders, validateStatus: () => true },
      )
      expect(res.status).toBe(400)
      expect(res.data.code).toBe("pgs_gateway_unavailable")
      expect(res.data.message).toMatch(/unavailable right now; please try another method or again in a few minutes/)
    })

    it("does not list deliveries signed with another key on Needs attention: anyone can send those, and none is the gateway's own", async () => {
      const { privateKey: otherKey } = generateKeyPairSync("rsa", { modulusLength: 2048 })
      for (const n of [1, 2, 3]) {
        const body = JSON.stringify({ forged: n })
        const res = await deliver(s, body, { authorization: await generateTestWebhookHeader({ body, privateKey: otherKey }) })
        expect(res.status).toBe(401)
      }
      await refusalsSettled(s)
      expect((await health()).webhooks_refused).toBeNull()
      expect((await attention()).items.filter((i: any) => i.kind === "webhooks_refused")).toEqual([])
    })
  },
  { env: { PGS_CLIENT_SECRET: WRONG_SECRET } },
)
