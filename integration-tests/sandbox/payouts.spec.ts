import { startHarnessWithReceiver, waitFor, type SandboxHarness } from "../support/sandbox"
import type { WebhookReceiver } from "../support/webhook-receiver"
import { eventsFor, expectInvalid, forceOutcome, payoutBody, transactionState, waitForEvents } from "./redirects-support"

const PAYOUT = "/api/transactions/payout"

describe("POST /api/transactions/payout (bank account payouts)", () => {
  let h: SandboxHarness
  let receiver: WebhookReceiver
  let close: () => Promise<void>
  beforeAll(async () => ({ h, receiver, close } = await startHarnessWithReceiver()))
  afterAll(() => close())

  describe("a new payout", () => {
    it("answers {result, action:null, redirect:null, form_submit:null} with result PENDING (pending true, processing code 1002)", async () => {
      const res = await h.api("POST", PAYOUT, payoutBody(h))
      expect(res.status).toBe(200)
      expect(res.body).toMatchObject({ action: null, redirect: null, form_submit: null })
      expect(res.body.result).toMatchObject({ status: "PENDING", pending: true, approved: false, processing_code: "1002", transaction_type: "PAYOUT" })
    })

    it("shows a masked account in payment_method.method and masked, last 4 digits visible, type payout_bank_account", async () => {
      const res = await h.api("POST", PAYOUT, payoutBody(h))
      const pm = res.body.result.payment_method
      expect(pm).toMatchObject({ type: "payout_bank_account", method: "****7890", masked: "****7890" })
      expect(JSON.stringify(res.body)).not.toContain("001234567890")
    })

    it("a pending payout is approved by the control: transaction-svc:transaction:pending then transaction-svc:transaction:authorized", async () => {
      const id = (await h.api("POST", PAYOUT, payoutBody(h))).body.result.id
      await waitForEvents(receiver, id, ["pending"])
      expect(await forceOutcome(h, id, "APPROVED")).toMatchObject({ status: "APPROVED", approved: true, processing_code: "0000" })
      expect(await waitForEvents(receiver, id, ["pending", "authorized"])).toEqual([
        "transaction-svc:transaction:pending",
        "transaction-svc:transaction:authorized",
      ])
    })

    it("a pending payout is declined by the control: transaction-svc:transaction:declined", async () => {
      const id = (await h.api("POST", PAYOUT, payoutBody(h))).body.result.id
      await waitForEvents(receiver, id, ["pending"])
      expect(await forceOutcome(h, id, "DECLINED")).toMatchObject({ status: "DECLINED", approved: false, processing_code: "1000" })
      expect(await waitForEvents(receiver, id, ["pending", "declined"])).toEqual([
        "transaction-svc:transaction:pending",
        "transaction-svc:transaction:declined",
      ])
    })

    it("stays PENDING until something finishes it (no automatic resolution)", async () => {
      const id = (await h.api("POST", PAYOUT, payoutBody(h))).body.result.id
      await waitForEvents(receiver, id, ["pending"])
      expect((await transactionState(h, id)).status).toBe("PENDING")
    })

    it("finishes at once with metadata simulate_result APPROVED or DECLINED", async () => {
      const approved = await h.api("POST", PAYOUT, payoutBody(h, { metadata: { simulate_result: "APPROVED" } }))
      expect(approved.body.result).toMatchObject({ status: "APPROVED", approved: true })
      const declined = await h.api("POST", PAYOUT, payoutBody(h, { metadata: { simulate_result: "DECLINED" } }))
      expect(declined.body.result).toMatchObject({ status: "DECLINED", approved: false })
    })

    it("uses the IP of the HTTP request when customer_ip is omitted or empty", async () => {
      for (const body of [payoutBody(h), payoutBody(h, { customer_ip: "" })]) {
        const id = (await h.api("POST", PAYOUT, body)).body.result.id
        const record = (await h.control("GET", `/_sandbox/transactions/${id}`)).body.record
        expect(record.customer_ip).toBe("127.0.0.1")
      }
    })
  })

  describe("request validation (422)", () => {
    it("requires beneficiary.data.ifsc for INR", async () => {
      const body = payoutBody(h)
      const res = await h.api("POST", PAYOUT, { ...body, beneficiary: { type: "bank_account", data: { account_number: "001234567890", account_name: "Asha Rao" } } })
      expectInvalid(res, "beneficiary.data.ifsc")
    })

    it("does not require ifsc for other currencies", async () => {
      const res = await h.api("POST", PAYOUT, payoutBody(h, { currency: "EUR", beneficiary: { type: "bank_account", data: { account_number: "DE89370400440532013000", account_name: "Jo Doe" } } }))
      expect(res.status).toBe(200)
      expect(res.body.result.payment_method.masked).toBe("****3000")
    })

    it.each(["account_number", "account_name"])("requires beneficiary.data.%s", async (field) => {
      const data: Record<string, string> = { account_number: "001234567890", account_name: "Asha Rao", ifsc: "HDFC0001234" }
      delete data[field]
      expectInvalid(await h.api("POST", PAYOUT, payoutBody(h, { beneficiary: { type: "bank_account", data } })), `beneficiary.data.${field}`)
    })

    it("refuses a beneficiary type other than bank_account", async () => {
      const res = await h.api("POST", PAYOUT, payoutBody(h, { beneficiary: { type: "upi", data: { account_number: "1", account_name: "A", ifsc: "X" } } }))
      expectInvalid(res, "beneficiary.type")
    })

    it("accepts a reference of 80 characters (the documents say 80 and 40: the sandbox accepts what both allow at most)", async () => {
      expect((await h.api("POST", PAYOUT, payoutBody(h, { reference: `${Date.now()}`.padEnd(80, "p") }))).status).toBe(200)
    })

    it("refuses a reference longer than 80 characters with params [field, max, given size]", async () => {
      expectInvalid(await h.api("POST", PAYOUT, payoutBody(h, { reference: "p".repeat(81) })), "reference", ["reference", "80", "81"])
    })

    it("refuses a description outside 1 to 100 characters", async () => {
      expectInvalid(await h.api("POST", PAYOUT, payoutBody(h, { description: "d".repeat(101) })), "description", ["description", "100", "101"])
      expectInvalid(await h.api("POST", PAYOUT, payoutBody(h, { description: "" })), "description", ["description", "1", "0"])
    })

    it("refuses a customer_ip that is neither IPv4 nor IPv6", async () => {
      expectInvalid(await h.api("POST", PAYOUT, payoutBody(h, { customer_ip: "999.0.0.1" })), "customer_ip")
    })

    it("refuses a return_url that is not an http(s) URL", async () => {
      expectInvalid(await h.api("POST", PAYOUT, payoutBody(h, { return_url: "nope" })), "return_url")
    })

    it("refuses a currency that is not 3 letters", async () => {
      expectInvalid(await h.api("POST", PAYOUT, payoutBody(h, { currency: "RUPEE" })), "currency")
    })
  })

  describe("terminal checks and idempotency", () => {
    it("answers an INVALID transaction with processing code 2015 when the terminal does not support payouts", async () => {
      const res = await h.api("POST", PAYOUT, payoutBody(h, { terminal_id: "SBX-APM-001" }))
      expect(res.body.result).toMatchObject({ status: "INVALID", processing_code: "2015", transaction_type: "PAYOUT" })
    })

    it("accepts a payout on the payouts terminal", async () => {
      const res = await h.api("POST", PAYOUT, payoutBody(h, { terminal_id: "SBX-PAYOUT-01" }))
      expect(res.body.result).toMatchObject({ status: "PENDING", terminal_id: "SBX-PAYOUT-01" })
    })

    it("returns the existing payout in its current state for the same reference, amount and currency", async () => {
      const body = payoutBody(h)
      const id = (await h.api("POST", PAYOUT, body)).body.result.id
      await forceOutcome(h, id, "APPROVED")
      const again = await h.api("POST", PAYOUT, body)
      expect(again.body.result).toMatchObject({ id, status: "APPROVED" })
    })

    it("refuses the same reference with a different amount (422 on reference)", async () => {
      const body = payoutBody(h)
      await h.api("POST", PAYOUT, body)
      expectInvalid(await h.api("POST", PAYOUT, { ...body, amount: body.amount + 100 }), "reference")
    })
  })
})

describe("payouts settled by the sandbox itself (payoutSettleAfterMs, --settle-payouts-after, payout_settle_after_ms)", () => {
  let h: SandboxHarness
  let receiver: WebhookReceiver
  let close: () => Promise<void>
  beforeAll(async () => ({ h, receiver, close } = await startHarnessWithReceiver({ payoutSettleAfterMs: 100 })))
  afterAll(() => close())

  const newPayout = async () => {
    const res = await h.api("POST", PAYOUT, payoutBody(h))
    expect(res.body.result.status).toBe("PENDING") // the answer is still the provider's "working on it"
    return res.body.result.id as string
  }
  const settled = (id: string) =>
    waitFor(
      async () => {
        const tx = await transactionState(h, id)
        return tx.status !== "PENDING" && tx
      },
      { what: `${id} settled`, timeoutMs: 15_000 },
    )
  const finalDeliveries = async (id: string) =>
    (await h.control("GET", `/_sandbox/webhooks/deliveries?subject_id=${id}&event=transaction-svc:transaction:authorized`)).body.deliveries

  it("shows the delay in GET /_sandbox/config settings", async () => {
    expect((await h.control("GET", "/_sandbox/config")).body.settings.payout_settle_after_ms).toBe(100)
  })

  it("approves a pending payout after the delay with one transaction-svc:transaction:authorized webhook", async () => {
    const id = await newPayout()
    expect(await settled(id)).toMatchObject({ status: "APPROVED", approved: true, pending: false, processing_code: "0000" })
    expect(await waitForEvents(receiver, id, ["pending", "authorized"])).toEqual(["transaction-svc:transaction:pending", "transaction-svc:transaction:authorized"])
    // A later payout settling too means any second timer of the first would have fired by now: still one webhook.
    await settled(await newPayout())
    expect(eventsFor(receiver, id)).toEqual(["transaction-svc:transaction:pending", "transaction-svc:transaction:authorized"])
    expect((await finalDeliveries(id)).map((d: { state: string }) => d.state)).toEqual(["delivered"])
  })

  it("leaves a payout that was finished first as it is", async () => {
    await h.control("POST", "/_sandbox/settings", { payout_settle_after_ms: 2000 }) // time enough to decline it first
    try {
      const id = await newPayout()
      await forceOutcome(h, id, "DECLINED")
      await settled(await newPayout())
      expect((await transactionState(h, id)).status).toBe("DECLINED")
      expect(await waitForEvents(receiver, id, ["pending", "declined"])).toEqual(["transaction-svc:transaction:pending", "transaction-svc:transaction:declined"])
      expect(await finalDeliveries(id)).toEqual([])
    } finally {
      await h.control("POST", "/_sandbox/settings", { payout_settle_after_ms: 100 })
    }
  })

  it("is turned off with payout_settle_after_ms 0 and on again for the payouts pending by then", async () => {
    expect((await h.control("POST", "/_sandbox/settings", { payout_settle_after_ms: 0 })).body.payout_settle_after_ms).toBe(0)
    const id = await newPayout()
    expect((await transactionState(h, id)).status).toBe("PENDING")
    await h.control("POST", "/_sandbox/settings", { payout_settle_after_ms: 100 })
    expect(await settled(id)).toMatchObject({ status: "APPROVED" })
    expect(await finalDeliveries(id)).toHaveLength(1)
  })

  it("refuses a negative delay (422 on payout_settle_after_ms)", async () => {
    const res = await h.control("POST", "/_sandbox/settings", { payout_settle_after_ms: -1 })
    expect(res.status).toBe(422)
    expect(JSON.stringify(res.body)).toContain("payout_settle_after_ms")
  })
})
