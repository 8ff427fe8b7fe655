/** Secrets (client secret, tokens, card fields, stored method ids) never reach the logger hook or error messages. */
import { inspect } from "node:util"
import type { GatewayLogEntry } from "../../src/gateway"
import { startHarness, type SandboxHarness } from "../support/sandbox"
import { cardAuthorize, caught, clientFor, fault } from "./support"

let h: SandboxHarness
beforeAll(async () => {
  h = await startHarness()
})
afterAll(() => h.close())

describe("secrets stay out of logs and errors", () => {
  it("logs calls, retries and failures without the secret, the token, card fields or stored method ids", async () => {
    const entries: GatewayLogEntry[] = []
    const client = clientFor(h, { logger: (e) => entries.push(e) })
    const body = cardAuthorize(h, client, "frictionless_approved", { tokenization: { save_card_for_future_payments: true } })
    const result = await client.payments.authorize(body)
    const pmToken = result.kind === "finished" ? result.transaction.payment_method?.token : undefined
    await h.control("POST", "/_sandbox/tokens/revoke")
    await fault(h, { target: "POST /api/transactions/authorize", kind: "status", status: 503 })
    await client.payments.authorize({ ...body, reference: `${body.reference}-2` })
    await client.storedMethods.delete(pmToken!)
    const failure = await caught(client.payments.authorize({ ...body, amount: body.amount + 1 }))
    const accessToken = await client.accessToken()

    const logged = JSON.stringify(entries)
    expect(entries.some((e) => e.level === "warn")).toBe(true)
    expect(entries.some((e) => e.level === "debug" && e.body)).toBe(true)
    const secrets = [h.config.client_secret, accessToken, body.payment_method.type === "card" ? body.payment_method.data.encrypted_card_number : "", h.testCard("frictionless_approved"), pmToken!]
    for (const secret of secrets) {
      expect(logged).not.toContain(secret)
      expect(`${failure.message} ${JSON.stringify(failure)}`).not.toContain(secret)
    }
    expect(inspect(client)).not.toContain(h.config.client_secret)
    expect(JSON.stringify(client)).not.toContain(h.config.client_secret)
    await client.close()
  })

  it("sends a logger that asked for no debug entries only its warnings and errors", async () => {
    const entries: GatewayLogEntry[] = []
    const client = clientFor(h, { logger: (e) => entries.push(e), logDebug: false })
    const body = cardAuthorize(h, client, "frictionless_approved")
    await fault(h, { target: "POST /api/transactions/authorize", kind: "status", status: 503 })
    expect((await client.payments.authorize(body)).kind).toBe("finished")
    expect(entries.map((e) => e.level)).toEqual(["warn"])
    await client.close()
  })

  it("keeps the secret and the token out of every object reachable from the client", async () => {
    const client = clientFor(h)
    await client.status.retrieve("trx_none")
    const token = await client.accessToken()
    const reachable = [client, client.payments, client.modifications, client.status, client.sessions, client.customers, client.storedMethods, client.hostedPages, client.threeDS]
    for (const object of reachable) {
      const shown = `${inspect(object, { depth: 12, showHidden: true })} ${JSON.stringify(object)}`
      expect(shown).not.toContain(h.config.client_secret)
      expect(shown).not.toContain(token)
    }
    await client.close()
  })
})
