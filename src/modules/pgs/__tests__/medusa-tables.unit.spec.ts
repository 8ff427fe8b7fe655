import { MEDUSA_COLUMNS, missingMedusaColumns, type ColumnRow } from "../medusa-tables"
import { medusaSchemaProblem } from "../loaders/check-medusa-tables"

/** A schema holding exactly what the plugin uses. */
const complete: ColumnRow[] = Object.entries(MEDUSA_COLUMNS).flatMap(([table_name, columns]) => columns.map((column_name) => ({ table_name, column_name })))

describe("the boot check of Medusa's own tables", () => {
  it("finds nothing missing when every table and column is there (extra columns do not matter)", () => {
    expect(missingMedusaColumns([...complete, { table_name: "refund", column_name: "note" }])).toEqual([])
    expect(medusaSchemaProblem([])).toBeNull()
  })

  it("names a renamed column as table.column", () => {
    const renamed = complete.map((r) => (r.table_name === "capture" && r.column_name === "raw_amount" ? { ...r, column_name: "raw_value" } : r))
    expect(missingMedusaColumns(renamed)).toEqual(["column capture.raw_amount"])
  })

  it("names a missing table once, not each of its columns", () => {
    expect(missingMedusaColumns(complete.filter((r) => r.table_name !== "customer_account_holder"))).toEqual(["table customer_account_holder"])
  })

  it("says which Medusa versions the plugin supports and names every problem in one error", () => {
    const error = medusaSchemaProblem(["column payment_session.data", "table refund"])
    expect(error?.message).toMatch(/Medusa 2\.18 to 2\.21/)
    expect(error?.message).toContain("column payment_session.data, table refund")
  })
})
