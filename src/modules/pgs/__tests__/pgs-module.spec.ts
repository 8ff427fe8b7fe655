import path from "node:path"
import { generateKeyPairSync } from "node:crypto"
import { moduleIntegrationTestRunner } from "@medusajs/test-utils"
import type { Knex } from "@medusajs/framework/mikro-orm/knex"
import { PGS_MODULE } from ".."
import type PgsModuleService from "../service"
import { PgsSavedCard, PgsTerminalSetting, PgsWebhookEvent } from "../models"
import { findSavedCard, listSavedCards, resolveTerminal } from "../queries"

jest.setTimeout(120_000)

const pem = () => generateKeyPairSync("rsa", { modulusLength: 2048 }).publicKey.export({ type: "spki", format: "pem" }).toString()
/** Complete options (nothing here calls the gateway): the boot-time check stays quiet. */
const moduleOptions = {
  apiUrl: "http://localhost:1", authUrl: "http://localhost:1/auth", realm: "uat", clientId: "c", clientSecret: "s", clientKey: "k",
  merchantPublicKey: pem(), webhookPublicKey: pem(), defaultTerminalId: "SBX-ALL-001", storeUrl: "http://localhost:8000", backendUrl: "http://localhost:9000",
}

moduleIntegrationTestRunner<PgsModuleService>({
  moduleName: PGS_MODULE,
  resolve: path.join(__dirname, ".."),
  moduleModels: [PgsTerminalSetting, PgsWebhookEvent, PgsSavedCard],
  moduleOptions,
  testSuite: ({ service, MikroOrmWrapper }) => {
    const knex = () => MikroOrmWrapper.getManager().getKnex() as unknown as Knex
    const delivery = (key: string) => ({ delivery_key: key, event: "transaction-svc:transaction:authorize:authorized", subject_id: "tx_1", reference: "payses_01", payload: { id: "tx_1" } })

    describe("the webhook event log", () => {
      it("records a delivery once and reports a repeat of the same bytes as not new", async () => {
        const first = await service.recordWebhookEvent(delivery("a".repeat(128)))
        const again = await service.recordWebhookEvent(delivery("a".repeat(128)))
        expect(first.is_new).toBe(true)
        expect(again).toEqual({ id: first.id, is_new: false })
        expect(await service.listPgsWebhookEvents({})).toHaveLength(1)
      })

      it("lets exactly one of many concurrent deliveries of the same bytes be new", async () => {
        const results = await Promise.all(Array.from({ length: 8 }, () => service.recordWebhookEvent(delivery("b".repeat(128)))))
        expect(results.filter((r) => r.is_new)).toHaveLength(1)
        expect(new Set(results.map((r) => r.id)).size).toBe(1)
      })

      it("keeps distinct deliveries apart", async () => {
        const one = await service.recordWebhookEvent(delivery("c".repeat(128)))
        const two = await service.recordWebhookEvent(delivery("d".repeat(128)))
        expect(one.is_new && two.is_new).toBe(true)
        expect(one.id).not.toBe(two.id)
      })
    })

    describe("terminal resolution", () => {
      it("prefers the row for the currency and region, then the currency for any region, then the default", async () => {
        await service.createPgsTerminalSettings([
          { terminal_id: "DEFAULT-01", is_default: true, currency_codes: [] as any },
          { terminal_id: "EUR-ANY-01", currency_codes: ["EUR"] as any, transaction_type: "PURCHASE" },
          { terminal_id: "EUR-REG-01", currency_codes: ["eur"] as any, region_ids: ["reg_1"] as any, locale: "de-DE" },
        ])
        expect((await resolveTerminal(knex(), { currency_code: "eur", region_id: "reg_1" }))?.terminal_id).toBe("EUR-REG-01")
        expect(await resolveTerminal(knex(), { currency_code: "eur", region_id: "reg_2" })).toMatchObject({ terminal_id: "EUR-ANY-01", transaction_type: "PURCHASE" })
        expect((await resolveTerminal(knex(), { currency_code: "pln" }))?.terminal_id).toBe("DEFAULT-01")
      })

      it("gives null when nothing matches and there is no default", async () => {
        await service.createPgsTerminalSettings([{ terminal_id: "USD-ONLY-1", currency_codes: ["usd"] as any }])
        expect(await resolveTerminal(knex(), { currency_code: "eur" })).toBeNull()
      })

      it("refuses a terminal id outside 5-20 characters", async () => {
        await expect(service.createPgsTerminalSettings([{ terminal_id: "T1" }])).rejects.toThrow()
      })
    })

    describe("saved cards", () => {
      const card = (payment_method_id: string, customer_id: string, status: "ACTIVE" | "DELETED" = "ACTIVE") => ({
        customer_id, gateway_customer_id: "gc_1", payment_method_id, brand: "VISA", masked: "400000******1000", last_4: "1000", exp_month: 12, exp_year: 2030, status,
      })

      it("lists only the customer's active cards and finds one by payment method id", async () => {
        await service.createPgsSavedCards([card("pm_1", "cus_a"), card("pm_2", "cus_a", "DELETED"), card("pm_3", "cus_b")])
        const listed = await listSavedCards(knex(), { customer_id: "cus_a" })
        expect(listed.map((c) => c.payment_method_id)).toEqual(["pm_1"])
        expect(listed[0]).toMatchObject({ brand: "VISA", last_4: "1000", exp_month: 12, exp_year: 2030, status: "ACTIVE" })
        expect(await findSavedCard(knex(), { payment_method_id: "pm_2" })).toMatchObject({ status: "DELETED", customer_id: "cus_a" })
        expect(await findSavedCard(knex(), { payment_method_id: "pm_404" })).toBeNull()
      })

      it("refuses a second record for the same gateway payment method", async () => {
        await service.createPgsSavedCards([card("pm_dup", "cus_a")])
        await expect(service.createPgsSavedCards([card("pm_dup", "cus_b")])).rejects.toThrow()
      })
    })
  },
})
