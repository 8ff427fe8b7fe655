/**
 * An unauthorized outcome (a Direct API decline, a 3-D Secure step) is saved by the provider itself
 * (session-records.ts). During a rolling upgrade the next release's fields inside `internal` must survive it.
 */
import path from "node:path"
import { generateKeyPairSync } from "node:crypto"
import { moduleIntegrationTestRunner } from "@medusajs/test-utils"
import type { Knex } from "@medusajs/framework/mikro-orm/knex"
import { PGS_MODULE } from "../../../modules/pgs"
import type PgsModuleService from "../../../modules/pgs/service"
import { PgsWebhookEvent } from "../../../modules/pgs/models"
import { INTERNAL_KEY, STORED_DATA_VERSION, toStoredSessionData } from "../../../payments/stored-session-data"
import type { PgsSessionData } from "../../../payments/session-data"
import { reportUnauthorized } from "../session-records"
import type { ProviderDeps } from "../deps"

jest.setTimeout(120_000)

const pem = () => generateKeyPairSync("rsa", { modulusLength: 2048 }).publicKey.export({ type: "spki", format: "pem" }).toString()
const moduleOptions = {
  apiUrl: "http://localhost:1", authUrl: "http://localhost:1/auth", realm: "uat", clientId: "c", clientSecret: "s", clientKey: "k",
  merchantPublicKey: pem(), webhookPublicKey: pem(), defaultTerminalId: "SBX-ALL-001", storeUrl: "http://localhost:8000", backendUrl: "http://localhost:9000",
}

const SESSION = "payses_01JDECLINE"
const session: PgsSessionData = {
  session_id: SESSION, integration: "direct_api", reference: SESSION, terminal_id: "SBX-ALL-001", currency_code: "eur", amount_minor: 2500,
  transaction_type: "PURCHASE", transaction_id: "tx_declined", gateway_status: "DECLINED",
} as PgsSessionData

moduleIntegrationTestRunner<PgsModuleService>({
  moduleName: PGS_MODULE,
  resolve: path.join(__dirname, "../../../modules/pgs"),
  moduleModels: [PgsWebhookEvent],
  moduleOptions,
  testSuite: ({ MikroOrmWrapper }) => {
    const knex = () => MikroOrmWrapper.getManager().getKnex() as unknown as Knex

    it("keeps the next release's fields inside `internal` when it saves a declined session", async () => {
      // Medusa's payment_session row, as far as the provider writes it (Medusa's payment module owns the table).
      await knex().raw("create table if not exists payment_session (id text primary key, status text, data jsonb, updated_at timestamptz)")
      const written = toStoredSessionData(session)
      const internal = JSON.parse(written[INTERNAL_KEY] as string)
      const storedBefore = { ...written, [INTERNAL_KEY]: JSON.stringify({ ...internal, data_version: STORED_DATA_VERSION + 1, wallet_hint: "w-1" }) }
      await knex()("payment_session").insert({ id: SESSION, status: "pending", data: JSON.stringify(storedBefore) })
      const warnings: string[] = []
      const deps = { knex: knex(), logger: { warn: (m: string) => warnings.push(m) } } as unknown as ProviderDeps

      const outcome = { status: "error", data: { ...session, wallet_hint: "w-1", error: { code: "DECLINED", message: "Card declined" } } }
      await expect(reportUnauthorized(deps, outcome as any, storedBefore)).rejects.toThrow(/is error: Card declined/)

      const [row] = await knex()("payment_session").where({ id: SESSION })
      expect(warnings).toEqual([])
      expect(row.status).toBe("error")
      expect(row.data).not.toHaveProperty("wallet_hint")
      expect(JSON.parse(row.data[INTERNAL_KEY])).toMatchObject({ wallet_hint: "w-1", reference: SESSION })
    })
  },
})
