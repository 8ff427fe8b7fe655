import path from "node:path"
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import type { Knex } from "@medusajs/framework/mikro-orm/knex"
import { asValue } from "@medusajs/framework/awilix"
import { ContainerRegistrationKeys, createMedusaContainer } from "@medusajs/framework/utils"
import { liveMedusaColumns, missingMedusaColumns } from "../../src/modules/pgs/medusa-tables"
import checkMedusaTables, { runsPaymentModule } from "../../src/modules/pgs/loaders/check-medusa-tables"

jest.setTimeout(180_000)

// This suite boots the store without a sandbox; the PGS provider validates its options at boot, so give it
// well-formed placeholders (nothing here calls the gateway).
const placeholders: Record<string, string> = {
  PGS_API_URL: "http://localhost:1",
  PGS_AUTH_URL: "http://localhost:1",
  PGS_CLIENT_ID: "store-boot",
  PGS_CLIENT_SECRET: "store-boot-secret",
  PGS_CLIENT_KEY: "store-boot-client-key",
}
for (const [name, value] of Object.entries(placeholders)) process.env[name] ||= value

medusaIntegrationTestRunner({
  cwd: path.join(__dirname, "../.."),
  testSuite: ({ api, getContainer }) => {
    describe("the test store", () => {
      it("boots Medusa 2.21 against the test database and answers /health", async () => {
        const res = await api.get("/health")
        expect(res.status).toBe(200)
      })

      it("registers Medusa's system payment provider (the baseline our benchmarks compare against)", async () => {
        const payment = getContainer().resolve("payment")
        const providers = await payment.listPaymentProviders({})
        expect(providers.map((p: { id: string }) => p.id)).toContain("pp_system_default")
      })
    })

    describe("Medusa's own tables, checked at boot", () => {
      const knex = () => getContainer().resolve<Knex>(ContainerRegistrationKeys.PG_CONNECTION)
      const loaderWith = (connection: Knex) => {
        const container = createMedusaContainer()
        container.register(ContainerRegistrationKeys.PG_CONNECTION, asValue(connection))
        container.register(ContainerRegistrationKeys.CONFIG_MODULE, asValue(getContainer().resolve(ContainerRegistrationKeys.CONFIG_MODULE)))
        return checkMedusaTables({ container } as Parameters<typeof checkMedusaTables>[0])
      }

      it("runs in this store (it has the payment module) and finds every table and column the plugin uses", async () => {
        expect(runsPaymentModule(getContainer().resolve(ContainerRegistrationKeys.CONFIG_MODULE))).toBe(true)
        expect(missingMedusaColumns(await liveMedusaColumns(knex()))).toEqual([])
        await expect(loaderWith(knex())).resolves.toBeUndefined()
      })

      it("stops the boot naming the column when Medusa renamed one (renamed inside a transaction, then rolled back)", async () => {
        const rolledBack = new Error("roll back")
        const outcome = knex().transaction(async (trx) => {
          await trx.raw('alter table "refund" rename column "metadata" to "metadata_renamed"')
          await expect(loaderWith(trx as unknown as Knex)).rejects.toThrow(/column refund\.metadata.*Medusa 2\.18 to 2\.21|Medusa 2\.18 to 2\.21.*column refund\.metadata/)
          throw rolledBack
        })
        await expect(outcome).rejects.toBe(rolledBack)
        expect(missingMedusaColumns(await liveMedusaColumns(knex()))).toEqual([])
      })
    })
  },
})
