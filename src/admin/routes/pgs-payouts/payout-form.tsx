/**
 * Create a payout to a bank account or a card. The server checks every field (and the card fields never stay in
 * this page: they go straight to the server, which encrypts them for the gateway); its errors show under each field.
 */
import { Input, Text, toast } from "@medusajs/ui"
import { useState } from "react"
import { Choice } from "../../components/choice"
import { Field } from "../../components/field"
import { FormShell } from "../../components/form-shell"
import { api } from "../../lib/api"
import { useSubmit } from "../../lib/use-action"
import type { Payout } from "../../lib/types"
import { gatewayStatusWords } from "../../lib/words"

type Method = "bank_account" | "card"

const BANK_FIELDS = [
  ["account_number", "Account number"],
  ["account_name", "Account holder name"],
  ["ifsc", "IFSC (INR only)"],
  ["bank_code", "Bank code"],
  ["bank_name", "Bank name"],
] as const

const CARD_FIELDS = [
  ["number", "Card number"],
  ["expiration_month", "Expiry month"],
  ["expiration_year", "Expiry year"],
  ["cvv", "CVV"],
] as const

/** The gateway's two card payout transaction types, in the spec's words. */
const CARD_PAYOUT_TYPES = { OCT: "OCT: pushes funds to the card (original credit transaction)", PAYOUT: "PAYOUT: sends funds to the card's holder (payout flow)" }

const newReference = () => `po-${Date.now().toString(36)}`

export function PayoutForm(props: { onCreated(p: Payout): void; onCancel(): void }) {
  const [method, setMethod] = useState<Method>("bank_account")
  const [v, setV] = useState<Record<string, string>>({ reference: newReference(), currency_code: "EUR", transaction_type: "OCT" })
  const form = useSubmit()
  const error = form.error
  const set = (k: string, value: string) => setV((prev) => ({ ...prev, [k]: value }))
  const err = (field: string) => error?.field(field)

  function body() {
    const opt = (k: string) => (v[k]?.trim() ? { [k]: v[k]!.trim() } : {})
    const beneficiary =
      method === "bank_account"
        ? { type: "bank_account", account_number: v.account_number ?? "", account_name: v.account_name ?? "", ...opt("ifsc"), ...opt("bank_code"), ...opt("bank_name") }
        : { type: "card", transaction_type: v.transaction_type, number: (v.number ?? "").replace(/\s+/g, ""), expiration_month: v.expiration_month ?? "", expiration_year: v.expiration_year ?? "", cvv: v.cvv ?? "" }
    return { reference: v.reference ?? "", ...opt("terminal_id"), amount: v.amount ?? "", currency_code: v.currency_code ?? "", description: v.description ?? "", beneficiary }
  }

  const submit = () =>
    form.submit(async () => {
      const { payout, repeated } = await api<{ payout: Payout; repeated?: boolean }>("/admin/pgs/payouts", { method: "POST", body: body() })
      const status = gatewayStatusWords(payout.status)
      if (repeated) toast.info(`Payout ${payout.reference} was made before (${status}): nothing new was sent`)
      else toast.success(`Payout ${payout.reference}: ${status}`)
      props.onCreated(payout)
    })

  const input = (key: string, label: string, field = key, type = "text") => (
    <Field key={key} id={`pgs-payout-${key}`} label={label} error={err(field)}>
      <Input id={`pgs-payout-${key}`} type={type} value={v[key] ?? ""} onChange={(e) => set(key, e.target.value)} aria-invalid={!!err(field)} autoComplete="off" />
    </Field>
  )

  return (
    <FormShell label="New payout" title="New payout" error={error} busy={form.busy} submitText="Send payout" onSubmit={() => void submit()} onCancel={props.onCancel}>
      <div className="grid grid-cols-1 gap-4 md:grid-cols-2">
        <Field id="pgs-payout-method" label="Pay out to">
          <Choice id="pgs-payout-method" label="Pay out to" value={method} options={["bank_account", "card"]} names={{ bank_account: "Bank account", card: "Card" }} onChange={(m) => setMethod((m as Method) ?? "bank_account")} />
        </Field>
        {input("reference", "Reference")}
        {input("amount", "Amount")}
        {input("currency_code", "Currency")}
        {input("description", "Description")}
        {input("terminal_id", "Terminal (empty: the payout terminal)")}
        {method === "bank_account"
          ? BANK_FIELDS.map(([k, label]) => input(k, label, `beneficiary.${k}`))
          : [
              <Field key="tt" id="pgs-payout-transaction-type" label="Card payout type" error={err("beneficiary.transaction_type")}>
                <Choice id="pgs-payout-transaction-type" label="Card payout type" value={v.transaction_type ?? "OCT"} options={["OCT", "PAYOUT"]} names={CARD_PAYOUT_TYPES} onChange={(t) => set("transaction_type", t ?? "OCT")} />
              </Field>,
              ...CARD_FIELDS.map(([k, label]) => input(k, label, `beneficiary.${k}`, k === "cvv" ? "password" : "text")),
            ]}
      </div>
      {err("beneficiary") ? <Text size="xsmall" className="text-ui-fg-error" role="alert">{err("beneficiary")}</Text> : null}
    </FormShell>
  )
}
