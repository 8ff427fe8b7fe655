/**
 * Payouts from the dashboard's API, end to end: /admin/pgs/payouts records a payout, sends it through the sandbox
 * (bank account via /payout, card via authorize OCT or PAYOUT), and the gateway's webhooks settle it — once per
 * reference, never backwards, and never showing a full account or card number.
 */
import { createHash } from "node:crypto"
import { storeBody } from "../support/store"
import {
  ACCOUNT_NUMBER,
  bankPayout,
  cardPayout,
  decide,
  gatewayCalls,
  getPayout,
  PLAIN_CARD,
  payoutRows,
  postPayout,
  settledOutcomes,
  waitForPayoutStatus,
} from "../support/payouts"
import { deliverSigned, eventRows, processedEvent, sandboxDelivery, waitFor } from "../support/webhooks"

const sha512 = (v: string) => createHash("sha512").update(v).digest("hex")
const APPROVED_EVENT = "transaction-svc:transaction:authorized"
const DECLINED_EVENT = "transaction-svc:transaction:declined"
const PENDING_EVENT = "transaction-svc:transaction:pending"

export default storeBody("payouts", (s) => {
  const visaApproved = () => s.sandbox.testCard("frictionless_approved")

  describe("admin only", () => {
    it("answers 401 to calls without an admin session or token", async () => {
      const list = await s.api.get("/admin/pgs/payouts", { validateStatus: () => true })
      const create = await s.api.post("/admin/pgs/payouts", bankPayout(), { validateStatus: () => true })
      expect([list.status, create.status]).toEqual([401, 401])
      expect(await payoutRows(s)).toEqual([])
    })

    it("refuses a customer's token", async () => {
      const { token } = await s.registerCustomer()
      const res = await postPayout(s, bankPayout(), { authorization: `Bearer ${token}` })
      expect(res.status).toBe(401)
    })
  })

  describe("JSON only (a form from another site cannot make a payout)", () => {
    /** The payout's fields as a form sends them (Medusa's urlencoded parser reads the brackets as nesting). */
    const formFields = (body: ReturnType<typeof bankPayout>) => ({
      reference: body.reference,
      amount: body.amount,
      currency_code: body.currency_code,
      description: body.description,
      "beneficiary[type]": body.beneficiary.type,
      "beneficiary[account_number]": body.beneficiary.account_number,
      "beneficiary[account_name]": body.beneficiary.account_name,
      "beneficiary[ifsc]": body.beneficiary.ifsc,
    })

    it("refuses a payout posted as a form (urlencoded, multipart, text/plain) with an admin's token: 415 in words, nothing recorded or sent", async () => {
      const body = bankPayout()
      const multipart = new FormData()
      for (const [k, v] of Object.entries(formFields(body))) multipart.append(k, v)
      const forms: Array<[string, unknown]> = [
        ["application/x-www-form-urlencoded", new URLSearchParams(formFields(body)).toString()],
        ["multipart/form-data", multipart],
        ["text/plain", JSON.stringify(body)],
      ]
      for (const [contentType, data] of forms) {
        const headers = { ...(await s.adminHeaders()), ...(contentType === "multipart/form-data" ? {} : { "content-type": contentType }) }
        const res = await s.api.post("/admin/pgs/payouts", data, { headers, validateStatus: () => true })
        expect({ contentType, status: res.status }).toEqual({ contentType, status: 415 })
        expect(res.data.message).toMatch(new RegExp(`takes a JSON body \\(Content-Type: application/json\\), not ${contentType}`))
      }
      expect((await payoutRows(s)).filter((p) => p.reference === body.reference)).toEqual([])
      expect(await gatewayCalls(s, body.reference)).toEqual([])

      // The same payout as JSON is made.
      expect((await postPayout(s, body)).status).toBe(201)
    })

    it("gives an admin's session cookie SameSite=Lax outside production too (the demo), so another site's form does not carry it", async () => {
      const res = await s.api.post("/auth/session", undefined, { headers: await s.adminHeaders() })
      const cookie = ([] as string[]).concat(res.headers["set-cookie"] ?? []).find((c) => c.startsWith("connect.sid="))
      expect(cookie).toMatch(/; SameSite=Lax/i)
    })

    it("refuses a terminal setting posted as a form, and takes a body-less button press", async () => {
      const form = await s.api.post("/admin/pgs/settings/terminals", "terminal_id=CSRF-TERM-01&label=Forged", {
        headers: { ...(await s.adminHeaders()), "content-type": "application/x-www-form-urlencoded" },
        validateStatus: () => true,
      })
      expect(form.status).toBe(415)
      const terminals = await s.api.get("/admin/pgs/settings/terminals", { headers: await s.adminHeaders() })
      expect(JSON.stringify(terminals.data)).not.toContain("CSRF-TERM-01")
      // As the dashboard's Test connection sends it: no body, no Content-Type.
      const test = await fetch(`${s.api.defaults.baseURL}/admin/pgs/settings/test-connection`, { method: "POST", headers: await s.adminHeaders() })
      expect(test.status).toBe(200)
    })
  })

  describe("bank account", () => {
    it("sends a bank payout, records it pending with the masked account, and marks it approved when the webhook says so", async () => {
      const body = bankPayout()
      const created = await postPayout(s, body)
      expect(created.status).toBe(201)
      const payout = created.data.payout
      expect(payout).toMatchObject({
        reference: body.reference,
        status: "PENDING",
        method: "bank_account",
        transaction_type: "PAYOUT",
        terminal_id: "SBX-PAYOUT-01",
        // Exact, in the currency's decimals: the number 1250.5 would read as a different amount.
        amount: "1250.50",
        currency_code: "inr",
        masked: "****9012",
        beneficiary_name: "Asha Traders",
      })
      expect(payout.transaction_id).toEqual(expect.any(String))
      expect(JSON.stringify(created.data)).not.toContain(ACCOUNT_NUMBER)
      expect(await gatewayCalls(s, body.reference)).toEqual([
        expect.objectContaining({ operation: "POST /api/transactions/payout", amount: 125050, currency: "INR", replay: false }),
      ])

      await decide(s, payout.transaction_id, "APPROVED", "0000")
      const after = await waitForPayoutStatus(s, payout.id, "APPROVED")
      expect(after).toMatchObject({ processing_code: "0000", masked: "****9012" })
      // The events only name the transaction; whichever is processed after the decision applies it, once.
      const outcomes = await settledOutcomes(s, payout.transaction_id, [PENDING_EVENT, APPROVED_EVENT])
      expect(outcomes.filter((o) => o === "applied:payout_approved")).toHaveLength(1)
    })

    it("marks a pending bank payout declined when the webhook says so", async () => {
      const created = await postPayout(s, bankPayout())
      const payout = created.data.payout
      expect(payout.status).toBe("PENDING")
      await decide(s, payout.transaction_id, "DECLINED", "1000")
      const after = await waitForPayoutStatus(s, payout.id, "DECLINED")
      expect(after.processing_code).toBe("1000")
      const outcomes = await settledOutcomes(s, payout.transaction_id, [PENDING_EVENT, DECLINED_EVENT])
      expect(outcomes.filter((o) => o === "applied:payout_declined")).toHaveLength(1)
    })

    it("never moves a final payout backwards: a later pending event is ignored", async () => {
      const payout = (await postPayout(s, bankPayout({ metadata: { simulate_result: "APPROVED" } }))).data.payout
      expect(payout.status).toBe("APPROVED")
      const approval = JSON.parse((await sandboxDelivery(s, payout.transaction_id, APPROVED_EVENT)).body)
      await processedEvent(s, payout.transaction_id, APPROVED_EVENT)
      const pending = JSON.stringify({ event: PENDING_EVENT, payload: { ...approval.payload, status: "PENDING", processing_code: "1002", description: "late" } })
      expect((await deliverSigned(s, pending)).status).toBe(200)
      const event = await waitFor(async () => (await eventRows(s, { delivery_key: sha512(pending) })).find((r) => r.processed_at))
      expect(event.outcome).toBe("ignored:payout_already_approved")
      expect((await getPayout(s, payout.id)).status).toBe("APPROVED")
    })

    it("records a payout the gateway refuses as failed, naming the field, and sends it again on a retry", async () => {
      const body = bankPayout()
      // The reference is already taken at the gateway (by a payout made outside this store) with another amount.
      const outside = await s.sandbox.api("POST", "/api/transactions/payout", {
        terminal_id: "SBX-PAYOUT-01",
        reference: body.reference,
        description: "made at the gateway",
        currency: "INR",
        amount: 100,
        beneficiary: { type: "bank_account", data: { account_number: "55554444", account_name: "Other", ifsc: "SBIN0000001" } },
      })
      expect(outside.status).toBe(200)
      const refused = await postPayout(s, body)
      expect(refused.status).toBe(201)
      expect(refused.data.payout).toMatchObject({ status: "FAILED", transaction_id: null, errors: [expect.objectContaining({ field: "reference" })] })
      expect(refused.data.payout.note).toMatch(/nothing was paid/)
      const again = await postPayout(s, body)
      expect(again.status).toBe(200)
      expect(again.data.payout).toMatchObject({ id: refused.data.payout.id, status: "FAILED" })
      expect((await gatewayCalls(s, body.reference)).filter((e) => e.operation === "POST /api/transactions/payout")).toHaveLength(1)
    })

    it("records a payout the terminal refuses as invalid, with the gateway's processing code", async () => {
      const res = await postPayout(s, bankPayout({ terminal_id: "SBX-CARDS-01" }))
      expect(res.status).toBe(201)
      expect(res.data.payout).toMatchObject({ status: "INVALID", terminal_id: "SBX-CARDS-01", processing_code: "2015" })
    })
  })

  describe("card", () => {
    it("sends an OCT to a card, approved at once, and keeps only the masked card", async () => {
      const body = cardPayout(visaApproved())
      const res = await postPayout(s, body)
      expect(res.status).toBe(201)
      expect(res.data.payout).toMatchObject({ status: "APPROVED", method: "card", transaction_type: "OCT", processing_code: "0000", amount: "25.00", currency_code: "eur" })
      expect(res.data.payout.masked).toMatch(/^400000\*+1000$/)
      expect(JSON.stringify(res.data)).not.toContain(visaApproved())
      expect(JSON.stringify(await payoutRows(s))).not.toContain(visaApproved())
      expect(await gatewayCalls(s, body.reference)).toEqual([
        expect.objectContaining({ operation: "POST /api/transactions/authorize", transaction_type: "OCT", amount: 2500, replay: false }),
      ])
    })

    it("sends a PAYOUT to a card and records the decline", async () => {
      const res = await postPayout(s, cardPayout(PLAIN_CARD, { metadata: { response_code: "TRX_STATUS_DECLINED" } }, { transaction_type: "PAYOUT" }))
      expect(res.status).toBe(201)
      expect(res.data.payout).toMatchObject({ status: "DECLINED", transaction_type: "PAYOUT", processing_code: "1000" })
      expect(res.data.payout.masked).toMatch(/^411111\*+1111$/)
      expect(JSON.stringify(res.data)).not.toContain(PLAIN_CARD)
    })
  })

  describe("idempotent by reference", () => {
    it("returns a final payout again without calling the gateway a second time", async () => {
      const body = bankPayout({ metadata: { simulate_result: "APPROVED" } })
      const first = await postPayout(s, body)
      const again = await postPayout(s, body)
      expect([first.status, again.status]).toEqual([201, 200])
      expect(again.data.payout).toMatchObject({ id: first.data.payout.id, status: "APPROVED" })
      expect(await gatewayCalls(s, body.reference)).toHaveLength(1)
      expect(await payoutRows(s)).toHaveLength(1)
    })

    it("makes one payout of concurrent requests with one reference", async () => {
      const body = bankPayout()
      const headers = await s.adminHeaders()
      const answers = await Promise.all(Array.from({ length: 4 }, () => postPayout(s, body, headers)))
      expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 201])
      expect(new Set(answers.map((a) => a.data.payout.id)).size).toBe(1)
      expect(await payoutRows(s)).toHaveLength(1)
      expect((await gatewayCalls(s, body.reference)).filter((e) => !e.replay)).toHaveLength(1)
    })

    it("reads a pending payout's status on a retry instead of sending it again", async () => {
      const body = bankPayout()
      const first = (await postPayout(s, body)).data.payout
      await decide(s, first.transaction_id, "APPROVED", "0000")
      const again = await postPayout(s, body)
      expect(again.status).toBe(200)
      expect(again.data.payout).toMatchObject({ id: first.id, status: "APPROVED" })
      // The form says so: nothing new was sent.
      expect(again.data.repeated).toBe(true)
      expect(await gatewayCalls(s, body.reference)).toHaveLength(1)
    })

    it("keeps a payout whose answer was lost pending, and settles it by retrying with the same reference (one payout at the gateway)", async () => {
      const body = bankPayout()
      // Every attempt of the first request reaches the gateway and every answer is lost; no webhook tells us either.
      await s.sandbox.control("POST", "/_sandbox/faults", { target: "POST /api/transactions/payout", kind: "drop", phase: "after", count: 3 })
      await s.sandbox.control("DELETE", "/_sandbox/webhooks")
      try {
        const lost = await postPayout(s, body)
        expect(lost.status).toBe(201)
        expect(lost.data.payout).toMatchObject({ status: "PENDING", transaction_id: null })
        expect(lost.data.payout.note).toMatch(/may or may not exist/)

        const retried = await postPayout(s, body)
        expect(retried.status).toBe(200)
        expect(retried.data.payout).toMatchObject({ id: lost.data.payout.id, status: "PENDING", note: null })
        const created = (await gatewayCalls(s, body.reference)).filter((e) => !e.replay)
        expect(created).toHaveLength(1)
        expect(created[0].transaction_id).toBe(retried.data.payout.transaction_id)
      } finally {
        await s.sandbox.control("POST", "/_sandbox/webhooks", { url: s.webhookUrl })
      }
    })

    it("settles a payout whose answer was lost from the webhooks alone", async () => {
      await s.sandbox.control("POST", "/_sandbox/faults", { target: "POST /api/transactions/payout", kind: "drop", phase: "after", count: 3 })
      const lost = (await postPayout(s, bankPayout())).data.payout
      expect(lost.status).toBe("PENDING")
      // The pending webhook names the transaction the lost answer would have named.
      const known = await waitFor(async () => (await getPayout(s, lost.id)).transaction_id, { what: "transaction id from the webhook" })
      await decide(s, known, "APPROVED", "0000")
      await waitForPayoutStatus(s, lost.id, "APPROVED")
    })

    it("refuses the reference with another amount, currency or beneficiary (409 naming the field) and calls nobody", async () => {
      const body = bankPayout({ metadata: { simulate_result: "APPROVED" } })
      const first = (await postPayout(s, body)).data.payout
      const amount = await postPayout(s, { ...body, amount: "1250.51" })
      const beneficiary = await postPayout(s, { ...body, beneficiary: { ...body.beneficiary, account_number: "999988887777" } })
      const currency = await postPayout(s, { ...body, currency_code: "eur", beneficiary: { ...body.beneficiary } })
      expect([amount.status, beneficiary.status, currency.status]).toEqual([409, 409, 409])
      // Under Reference too, where the admin acts: another payout needs a new reference.
      const reference = { field: "reference", message: `is already used by payout ${first.id}: give a new payout a new reference` }
      expect(amount.data.errors).toEqual([reference, expect.objectContaining({ field: "amount" })])
      expect(beneficiary.data.errors).toEqual([reference, expect.objectContaining({ field: "beneficiary" })])
      expect(currency.data.errors).toEqual([reference, expect.objectContaining({ field: "currency_code" })])
      expect(amount.data.message).toContain(first.id)
      expect(await gatewayCalls(s, body.reference)).toHaveLength(1)
      expect(await payoutRows(s)).toHaveLength(1)
    })
  })

  describe("validation, field by field, before anything is recorded or sent", () => {
    const bank = (change: (b: any) => void) => {
      const body: any = bankPayout()
      change(body)
      return body
    }
    const card = (change: (b: any) => void) => {
      const body: any = cardPayout(PLAIN_CARD)
      change(body)
      return body
    }
    const cases: Array<[string, string, () => any]> = [
      ["an INR bank payout without an IFSC", "beneficiary.ifsc", () => bank((b) => delete b.beneficiary.ifsc)],
      ["a bank payout without an account number", "beneficiary.account_number", () => bank((b) => delete b.beneficiary.account_number)],
      ["a bank payout without an account name", "beneficiary.account_name", () => bank((b) => (b.beneficiary.account_name = "  "))],
      ["a malformed IFSC", "beneficiary.ifsc", () => bank((b) => (b.beneficiary.ifsc = "hdfc1234"))],
      ["an account number with spaces", "beneficiary.account_number", () => bank((b) => (b.beneficiary.account_number = "1234 5678 9012"))],
      ["a fraction of a paisa", "amount", () => bank((b) => (b.amount = "10.005"))],
      ["a zero amount", "amount", () => bank((b) => (b.amount = 0))],
      ["an unknown currency", "currency_code", () => bank((b) => (b.currency_code = "xqz"))],
      ["a reference over 40 characters", "reference", () => bank((b) => (b.reference = "r".repeat(41)))],
      ["a missing description", "description", () => bank((b) => delete b.description)],
      ["an unknown beneficiary type", "beneficiary.type", () => bank((b) => (b.beneficiary.type = "wallet"))],
      ["a card number with letters", "beneficiary.number", () => card((b) => (b.beneficiary.number = "4111abcd11111111"))],
      ["an expiry month of 13", "beneficiary.expiration_month", () => card((b) => (b.beneficiary.expiration_month = 13))],
      ["an expiry year in the past", "beneficiary.expiration_year", () => card((b) => (b.beneficiary.expiration_year = 2001))],
      ["a card without a CVV", "beneficiary.cvv", () => card((b) => delete b.beneficiary.cvv)],
      ["a transaction type other than OCT or PAYOUT", "beneficiary.transaction_type", () => card((b) => (b.beneficiary.transaction_type = "PURCHASE"))],
    ]

    it.each(cases)("refuses %s, naming %s", async (_what, field, make) => {
      const body = make()
      const res = await postPayout(s, body)
      expect(res.status).toBe(400)
      expect(res.data.type).toBe("invalid_data")
      expect(res.data.errors).toEqual(expect.arrayContaining([expect.objectContaining({ field })]))
      expect(JSON.stringify(res.data)).not.toContain(ACCOUNT_NUMBER)
      expect(await payoutRows(s)).toEqual([])
      expect(await gatewayCalls(s, body.reference)).toEqual([])
    })

    it.each([
      ["-5", "must be greater than 0"],
      [-5, "must be greater than 0"],
      ["0.00", "must be greater than 0"],
      ["1,000.00", "must be a number such as 125.50, without spaces or thousands separators"],
      ["90071992547409.92", "90071992547409.92 INR is beyond the largest amount that can be sent, 90071992547409.91 INR"],
      ["10.005", "10.005 INR has more decimals than INR has (2); refusing to round"],
    ])("refuses the amount %j in words: %s", async (amount, message) => {
      const res = await postPayout(s, bank((b) => (b.amount = amount)))
      expect(res.status).toBe(400)
      expect(res.data.errors).toEqual([expect.objectContaining({ field: "amount", message })])
    })

    it("takes an amount with spaces around it, and shows every amount in the currency's decimals", async () => {
      const res = await postPayout(s, bankPayout({ amount: " 10 " }))
      expect(res.status).toBe(201)
      expect(res.data.payout.amount).toBe("10.00")
    })

    it("names every bad field of one request at once", async () => {
      const res = await postPayout(s, bank((b) => ((b.amount = "-1"), delete b.beneficiary.ifsc, (b.description = ""))))
      expect(res.status).toBe(400)
      expect(res.data.errors.map((e: any) => e.field).sort()).toEqual(["amount", "beneficiary.ifsc", "description"])
    })
  })

  describe("listing", () => {
    it("lists payouts newest first, filtered by status, with the masked beneficiary only", async () => {
      const approved = (await postPayout(s, bankPayout({ metadata: { simulate_result: "APPROVED" } }))).data.payout
      const pending = (await postPayout(s, bankPayout())).data.payout
      const headers = await s.adminHeaders()
      const all = await s.api.get("/admin/pgs/payouts", { headers })
      expect(all.data).toMatchObject({ next_cursor: null, limit: 20 })
      expect(all.data.payouts.map((p: any) => p.id)).toEqual([pending.id, approved.id])
      // Keyset pages: the second page goes on from the first one's cursor.
      const first = await s.api.get("/admin/pgs/payouts?limit=1", { headers })
      expect(first.data.payouts.map((p: any) => p.id)).toEqual([pending.id])
      const second = await s.api.get(`/admin/pgs/payouts?limit=1&cursor=${first.data.next_cursor}`, { headers })
      expect(second.data).toMatchObject({ payouts: [expect.objectContaining({ id: approved.id })], next_cursor: null })
      // A script that still pages by offset (before keyset pages) is told what to send instead, not given page 1 again.
      const byOffset = await s.api.get("/admin/pgs/payouts?limit=1&offset=1", { headers, validateStatus: () => true })
      expect(byOffset.status).toBe(400)
      expect(byOffset.data.errors).toEqual([{ field: "offset", message: expect.stringMatching(/no longer taken.*next_cursor.*cursor/) }])
      const onlyApproved = await s.api.get("/admin/pgs/payouts?status=APPROVED", { headers })
      expect(onlyApproved.data.payouts.map((p: any) => p.id)).toEqual([approved.id])
      expect(JSON.stringify(all.data)).not.toContain(ACCOUNT_NUMBER)
      const missing = await s.api.get("/admin/pgs/payouts/pgspo_nope", { headers, validateStatus: () => true })
      expect(missing.status).toBe(404)
    })
  })
})
