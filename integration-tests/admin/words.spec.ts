/** The dashboard's words for the event log (src/admin/lib/words.ts), against the names the server really writes. */
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { METHOD_LABELS, METHODS } from "../../src/api/admin/pgs/settings/catalog"
import { actorWords, eventWords, gatewayStatusWords, outcomeWords, sourceWords, stateColor, stateWords, transactionTypeWords } from "../../src/admin/lib/words"

describe("the dashboard's words for gateway events", () => {
  it.each([
    ["transaction-svc:transaction:purchase:approved", null, "Payment approved"],
    ["transaction-svc:transaction:authorize:authorized", null, "Payment approved"],
    ["transaction-svc:transaction:authorized", null, "Payment approved"],
    ["transaction-svc:transaction:purchase:declined", null, "Declined"],
    ["transaction-svc:transaction:pending", null, "Pending"],
    ["transaction-svc:transaction:management:capture:approved", null, "Captured at the gateway"],
    ["transaction-svc:transaction:management:refund:approved", null, "Refunded at the gateway"],
    ["transaction-svc:transaction:management:void:approved", null, "Voided at the gateway"],
    // The generic management event names its operation only in the transaction type.
    ["transaction-svc:transaction:management:approved", "REFUND", "Refunded at the gateway"],
    ["transaction-svc:transaction:management:declined", "CAPTURE", "Capture refused by the gateway"],
    ["transaction-svc:transaction:management:refund:declined", null, "Refund refused by the gateway"],
    ["tokenization-webhook:payment-method:tokenized", null, "Card saved at the gateway"],
  ])("names %s (%s) %j", (event, type, words) => {
    expect(eventWords(event, type)).toBe(words)
  })

  it.each([
    ["applied:captured", "Recorded in Medusa"],
    ["applied:successful", "Recorded in Medusa"],
    ["applied:authorized", "Recorded in Medusa (authorized)"],
    ["ignored:made_by_medusa", "Made in Medusa"],
    ["applied:external_refund", "Refund made in the gateway dashboard, recorded here"],
    ["applied:external_capture", "Capture made in the gateway dashboard, recorded here"],
    ["applied:late_money_refund", "Given back automatically"],
    ["applied:late_money_void", "Given back automatically"],
    ["attention:approved_without_payment", "Needs attention"],
    ["ignored:already_recorded", "Already recorded"],
    ["ignored:gateway_status_declined", "Not applied: the gateway says declined"],
    ["applied:declined_order_failed", "Payment marked failed in Medusa"],
    ["applied:session_error", "Payment marked failed in Medusa"],
    ["ignored:something_new", "Nothing to do"],
    ["error", "Not processed: it failed and is tried again"],
  ])("says %s as %j", (outcome, words) => {
    expect(outcomeWords(outcome)).toBe(words)
  })

  it("has words of its own for every outcome that changed nothing which the server writes", () => {
    const written = new Set<string>()
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name)
        if (entry.isDirectory()) walk(path)
        else if (/\.ts$/.test(entry.name)) for (const m of readFileSync(path, "utf8").matchAll(/["`]ignored:([a-z_]+)["`]/g)) written.add(`ignored:${m[1]}`)
      }
    }
    walk(join(__dirname, "../../src/workflows"))
    // Written from a template (pgs-events/approval.ts): `ignored:collection_${kind}` for applyCollectionPayment's
    // kinds, but for those it answers apart (applied, already_applied, not_payable).
    const approval = readFileSync(join(__dirname, "../../src/workflows/pgs-events/approval.ts"), "utf8")
    expect(approval).toContain("`ignored:collection_${applied.kind}`")
    const kinds = readFileSync(join(__dirname, "../../src/workflows/order-payments/apply-collection-payment.ts"), "utf8").matchAll(/\{ kind: "([a-z_]+)"/g)
    for (const [, kind] of kinds) if (!["applied", "already_applied", "not_payable"].includes(kind!)) written.add(`ignored:collection_${kind}`)
    expect(written.size).toBeGreaterThan(20)
    // Not the fallback of the family either: "payout_amount_mismatch" is no "Payout already up to date".
    expect([...written].filter((outcome) => ["Nothing to do", "Payout already up to date"].includes(outcomeWords(outcome)!) && outcome !== "ignored:payout_already_final")).toEqual([])
  })

  it("names who made an operation after its amount, and says so in a sentence when Medusa recorded no one", () => {
    const ada = { kind: "user", id: "user_1", label: "ada@shop.example" }
    expect(`Captured 12.00 EUR ${actorWords(ada)}`).toBe("Captured 12.00 EUR by ada@shop.example")
    expect(`Captured 12.00 EUR ${actorWords({ kind: "not_recorded", label: "not recorded by Medusa" })}`).toBe("Captured 12.00 EUR author not recorded by Medusa")
  })

  it("says nothing for an event not processed yet, and that it failed when it did", () => {
    expect(outcomeWords(null)).toBeNull()
    expect(outcomeWords(null, "timeout")).toBe("Not processed: it failed and is tried again")
  })

  it("says where an event came from, Medusa's payment state and the gateway's status", () => {
    expect(sourceWords("reconciliation")).toBe("Read from the gateway by reconciliation (no webhook came)")
    expect(sourceWords("webhook")).toBe("Webhook from the gateway")
    expect(stateWords("partially_refunded")).toBe("Partially refunded")
    expect(stateWords("awaiting")).toBe("Awaiting payment")
    // Medusa's own payment badges' colours for the same states.
    expect(["captured", "partially_captured", "partially_refunded", "refunded", "canceled"].map((state) => stateColor(state as never))).toEqual(["green", "orange", "orange", "red", "red"])
    expect(gatewayStatusWords("SESSION_EXPIRED")).toBe("Session expired")
    expect(transactionTypeWords("AUTHORIZE")).toBe("Authorize, capture later")
    expect(transactionTypeWords("OCT")).toBe("OCT")
  })
})

describe("the terminal form's method names", () => {
  it("names every method as the storefront widget names it for shoppers in English", () => {
    // The widget's sources are built for the browser (their own tsconfig): read at run time, untyped here.
    const { english } = require("../../storefront-widget/src/core/i18n")
    const { providerLabel } = require("../../storefront-widget/src/core/methods")
    const widgetName = (identifier: string) => (identifier === "pgs" ? english("card") : providerLabel(`pp_${identifier}_pgs`, english))
    expect(Object.keys(METHOD_LABELS).sort()).toEqual([...METHODS].sort())
    for (const m of METHODS) expect([m, METHOD_LABELS[m]]).toEqual([m, widgetName(m)])
  })
})
