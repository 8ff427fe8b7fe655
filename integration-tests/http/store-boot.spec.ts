import path from "node:path"
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"

jest.setTimeout(180_000)

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
  },
})
