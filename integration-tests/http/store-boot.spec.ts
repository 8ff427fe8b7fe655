import path from "node:path"
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"

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
  },
})
