/**
 * Create or change one terminal setting. Every value goes to the server as typed; the server's per-field errors
 * appear under their fields. The next payment session uses the saved values.
 */
import { Checkbox, Input, Label, Switch, Text, toast } from "@medusajs/ui"
import { useState } from "react"
import { Choice } from "../../../components/choice"
import { CssPreview } from "../../../components/css-preview"
import { Field } from "../../../components/field"
import { FormShell } from "../../../components/form-shell"
import { api } from "../../../lib/api"
import { useSubmit } from "../../../lib/use-action"
import type { Catalog, Terminal } from "../../../lib/types"
import { MethodNames, methodNamesBody, type MethodNamesDraft } from "./method-names"

export const INTEGRATION_NAMES: Record<string, string> = {
  EMBEDDED_FIELDS: "Embedded Fields",
  HOSTED_PAYMENT_PAGE: "Hosted Payment Page",
  DIRECT_API: "Direct API",
}

type Region = { id: string; name: string; currency_code: string }

type Draft = {
  terminal_id: string
  label: string
  currency_codes: string
  region_ids: string[]
  transaction_type: string
  integration_type: string
  notification_url: string
  instalments: boolean
  locale: string | null
  css_variables: Record<string, string>
  all_methods: boolean
  enabled_methods: string[]
  skip_three_ds: boolean
  cvv_less: boolean
  number_of_instalments: string
  method_names: MethodNamesDraft
  is_default: boolean
  capture_on_fulfillment: boolean
}

const draftOf = (t: Terminal | null): Draft => ({
  terminal_id: t?.terminal_id ?? "",
  label: t?.label ?? "",
  currency_codes: (t?.currency_codes ?? []).join(", ").toUpperCase(),
  region_ids: t?.region_ids ?? [],
  transaction_type: t?.transaction_type ?? "AUTHORIZE",
  integration_type: t?.integration_type ?? "EMBEDDED_FIELDS",
  notification_url: t?.notification_url ?? "",
  instalments: t?.instalments ?? false,
  locale: t?.locale ?? null,
  css_variables: t?.css_variables ?? {},
  all_methods: !t?.enabled_methods,
  enabled_methods: t?.enabled_methods ?? [],
  skip_three_ds: t?.hosted_page_options?.skip_three_ds ?? false,
  cvv_less: t?.hosted_page_options?.cvv_less ?? false,
  number_of_instalments: t?.hosted_page_options?.number_of_instalments?.toString() ?? "",
  method_names: t?.method_names ?? {},
  is_default: t?.is_default ?? false,
  capture_on_fulfillment: t?.capture_on_fulfillment ?? false,
})

/** The methods the terminal takes, in the catalogue's order: the rows of the names table. */
const shownMethods = (d: Draft, catalog: Catalog) => (d.all_methods ? catalog.methods : catalog.methods.filter((m) => d.enabled_methods.includes(m)))

function bodyOf(d: Draft, catalog: Catalog) {
  const css = Object.fromEntries(Object.entries(d.css_variables).filter(([, v]) => v.trim() !== ""))
  const hosted = {
    ...(d.skip_three_ds ? { skip_three_ds: true } : {}),
    ...(d.cvv_less ? { cvv_less: true } : {}),
    // Sent as typed when it is not a whole number, so the server names the field.
    ...(d.number_of_instalments.trim() ? { number_of_instalments: /^\d+$/.test(d.number_of_instalments.trim()) ? Number(d.number_of_instalments) : d.number_of_instalments } : {}),
  }
  return {
    terminal_id: d.terminal_id,
    label: d.label.trim() || null,
    currency_codes: d.currency_codes.split(/[\s,]+/).filter(Boolean),
    region_ids: d.region_ids,
    transaction_type: d.transaction_type,
    integration_type: d.integration_type,
    notification_url: d.notification_url.trim() || null,
    instalments: d.instalments,
    locale: d.locale,
    css_variables: Object.keys(css).length ? css : null,
    enabled_methods: d.all_methods ? null : d.enabled_methods,
    hosted_page_options: Object.keys(hosted).length ? hosted : null,
    method_names: methodNamesBody(d.method_names, shownMethods(d, catalog)),
    is_default: d.is_default,
    capture_on_fulfillment: d.capture_on_fulfillment,
  }
}

export function TerminalForm(props: { terminal: Terminal | null; catalog: Catalog; regions: Region[]; onSaved(t: Terminal): void; onCancel(): void }) {
  const [d, setD] = useState<Draft>(() => draftOf(props.terminal))
  const form = useSubmit()
  const error = form.error
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => setD((prev) => ({ ...prev, [key]: value }))
  // Errors of list and object fields come with a path (currency_codes.0, css_variables.--lib-x): shown on the field.
  const err = (field: string) => error?.fields.find((f) => f.field === field || f.field.startsWith(`${field}.`))?.message

  const save = () =>
    form.submit(async () => {
      const path = props.terminal ? `/admin/pgs/settings/terminals/${props.terminal.id}` : "/admin/pgs/settings/terminals"
      const { terminal } = await api<{ terminal: Terminal }>(path, { method: "POST", body: bodyOf(d, props.catalog) })
      toast.success("Terminal saved: the next payment session uses it")
      props.onSaved(terminal)
    })

  const direct = d.integration_type === "DIRECT_API"
  return (
    <FormShell
      label="Terminal setting"
      title={props.terminal ? `Edit terminal ${props.terminal.terminal_id}` : "New terminal"}
      error={error}
      busy={form.busy}
      submitText="Save terminal"
      onSubmit={() => void save()}
      onCancel={props.onCancel}
    >
      <div className="grid grid-cols-1 gap-4 md:grid-cols-2">
        <Field id="pgs-terminal-id" label="Terminal id" error={err("terminal_id")} hint="5 to 20 characters, from the gateway dashboard">
          <Input id="pgs-terminal-id" value={d.terminal_id} onChange={(e) => set("terminal_id", e.target.value)} aria-invalid={!!err("terminal_id")} />
        </Field>
        <Field id="pgs-terminal-label" label="Label" error={err("label")}>
          <Input id="pgs-terminal-label" value={d.label} onChange={(e) => set("label", e.target.value)} aria-invalid={!!err("label")} />
        </Field>
        <Field id="pgs-terminal-currencies" label="Currencies" error={err("currency_codes")} hint="ISO codes, comma separated (e.g. EUR, PLN)">
          <Input id="pgs-terminal-currencies" value={d.currency_codes} onChange={(e) => set("currency_codes", e.target.value)} aria-invalid={!!err("currency_codes")} />
        </Field>
        <Field id="pgs-terminal-transaction-type" label="Default transaction type" error={err("transaction_type")}>
          <Choice id="pgs-terminal-transaction-type" label="Default transaction type" value={d.transaction_type} options={props.catalog.transaction_types} onChange={(v) => set("transaction_type", v ?? "AUTHORIZE")} />
        </Field>
        <Field id="pgs-terminal-integration" label="Integration type" error={err("integration_type")}>
          <Choice id="pgs-terminal-integration" label="Integration type" value={d.integration_type} options={props.catalog.integration_types} names={INTEGRATION_NAMES} onChange={(v) => set("integration_type", v ?? "EMBEDDED_FIELDS")} />
        </Field>
        <Field id="pgs-terminal-locale" label="Default locale" error={err("locale")}>
          <Choice id="pgs-terminal-locale" label="Default locale" value={d.locale} options={props.catalog.locales} none="Shopper's browser language" onChange={(v) => set("locale", v)} />
        </Field>
        <Field
          id="pgs-terminal-notification-url"
          label="3-D Secure notification URL override"
          error={err("notification_url")}
          hint={direct ? "https only, at most 256 characters; leave empty for the gateway's own page" : "Honoured only for Direct API"}
        >
          <Input id="pgs-terminal-notification-url" value={d.notification_url} onChange={(e) => set("notification_url", e.target.value)} aria-invalid={!!err("notification_url")} />
        </Field>
      </div>

      {props.regions.length ? (
        <fieldset className="flex flex-col gap-y-2">
          <legend className="txt-compact-small-plus">Regions (none: any region)</legend>
          <div className="flex flex-wrap gap-4">
            {props.regions.map((r) => (
              <div key={r.id} className="flex items-center gap-x-2">
                <Checkbox
                  id={`pgs-region-${r.id}`}
                  checked={d.region_ids.includes(r.id)}
                  onCheckedChange={(c) => set("region_ids", c ? [...d.region_ids, r.id] : d.region_ids.filter((x) => x !== r.id))}
                />
                <Label htmlFor={`pgs-region-${r.id}`} size="small">
                  {r.name} ({r.currency_code.toUpperCase()})
                </Label>
              </div>
            ))}
          </div>
          {err("region_ids") ? <Text size="xsmall" className="text-ui-fg-error" role="alert">{err("region_ids")}</Text> : null}
        </fieldset>
      ) : null}

      <div className="flex flex-wrap gap-6">
        <div className="flex items-center gap-x-2">
          <Switch id="pgs-terminal-instalments" checked={d.instalments} onCheckedChange={(c) => set("instalments", c)} />
          <Label htmlFor="pgs-terminal-instalments" size="small">Instalments in the card form</Label>
        </div>
        <div className="flex items-center gap-x-2">
          <Switch id="pgs-terminal-default" checked={d.is_default} onCheckedChange={(c) => set("is_default", c)} />
          <Label htmlFor="pgs-terminal-default" size="small">Default terminal (when no currency matches)</Label>
        </div>
        <div className="flex items-center gap-x-2">
          <Switch id="pgs-terminal-capture-on-fulfillment" checked={d.capture_on_fulfillment} onCheckedChange={(c) => set("capture_on_fulfillment", c)} />
          <Label htmlFor="pgs-terminal-capture-on-fulfillment" size="small">Capture on fulfillment (each fulfillment captures its items)</Label>
        </div>
      </div>

      <fieldset className="flex flex-col gap-y-2">
        <legend className="txt-compact-small-plus">Enabled methods</legend>
        <div className="flex items-center gap-x-2">
          <Checkbox id="pgs-methods-all" checked={d.all_methods} onCheckedChange={(c) => set("all_methods", c === true)} />
          <Label htmlFor="pgs-methods-all" size="small">All methods</Label>
        </div>
        {!d.all_methods ? (
          <div className="flex flex-wrap gap-4">
            {props.catalog.methods.map((m) => (
              <div key={m} className="flex items-center gap-x-2">
                <Checkbox
                  id={`pgs-method-${m}`}
                  checked={d.enabled_methods.includes(m)}
                  onCheckedChange={(c) => set("enabled_methods", c ? [...d.enabled_methods, m] : d.enabled_methods.filter((x) => x !== m))}
                />
                <Label htmlFor={`pgs-method-${m}`} size="small">
                  {props.catalog.method_labels[m] ?? m} <span className="font-mono text-ui-fg-muted">{m}</span>
                </Label>
              </div>
            ))}
          </div>
        ) : null}
        {!d.all_methods && d.enabled_methods.length === 0 ? (
          <Text size="xsmall" className="text-ui-fg-subtle">Choose at least one: with none, shoppers would have no way to pay.</Text>
        ) : null}
        {err("enabled_methods") ? <Text size="xsmall" className="text-ui-fg-error" role="alert">{err("enabled_methods")}</Text> : null}
      </fieldset>

      <MethodNames
        methods={shownMethods(d, props.catalog)}
        labels={props.catalog.method_labels}
        locales={props.catalog.locales}
        names={d.method_names}
        onChange={(names) => set("method_names", names)}
        err={err}
      />

      <fieldset className="flex flex-col gap-y-2">
        <legend className="txt-compact-small-plus">Hosted payment page options</legend>
        <div className="flex flex-wrap items-end gap-6">
          <div className="flex items-center gap-x-2">
            <Switch id="pgs-hpp-skip-3ds" checked={d.skip_three_ds} onCheckedChange={(c) => set("skip_three_ds", c)} />
            <Label htmlFor="pgs-hpp-skip-3ds" size="small">Skip 3-D Secure</Label>
          </div>
          <div className="flex items-center gap-x-2">
            <Switch id="pgs-hpp-cvv-less" checked={d.cvv_less} onCheckedChange={(c) => set("cvv_less", c)} />
            <Label htmlFor="pgs-hpp-cvv-less" size="small">Without CVV</Label>
          </div>
          <Field id="pgs-hpp-instalments" label="Preselected instalments (1–6)" error={err("hosted_page_options")}>
            <Input id="pgs-hpp-instalments" value={d.number_of_instalments} onChange={(e) => set("number_of_instalments", e.target.value)} />
          </Field>
        </div>
      </fieldset>

      <fieldset className="flex flex-col gap-y-2">
        <legend className="txt-compact-small-plus">Embedded fields appearance</legend>
        <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
          <div className="grid grid-cols-1 gap-2 md:grid-cols-2">
            {props.catalog.css_variables.map((name) => (
              <Field key={name} id={`pgs-css-${name}`} label={name} error={err(`css_variables.${name}`)}>
                <Input
                  id={`pgs-css-${name}`}
                  size="small"
                  value={d.css_variables[name] ?? ""}
                  onChange={(e) => set("css_variables", { ...d.css_variables, [name]: e.target.value })}
                />
              </Field>
            ))}
            {err("css_variables") && !props.catalog.css_variables.some((n) => err(`css_variables.${n}`)) ? (
              <Text size="xsmall" className="text-ui-fg-error" role="alert">{err("css_variables")}</Text>
            ) : null}
          </div>
          <div className="self-start lg:sticky lg:top-4">
            <Text size="small" weight="plus" className="mb-2">Live preview</Text>
            <CssPreview variables={d.css_variables} />
          </div>
        </div>
      </fieldset>

    </FormShell>
  )
}
