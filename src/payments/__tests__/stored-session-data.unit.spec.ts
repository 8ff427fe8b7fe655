import { parseSessionData, SessionDataError, type PgsSessionData } from "../session-data"
import { INTERNAL_FIELDS, INTERNAL_KEY, PUBLIC_FIELDS, readStoredSessionData, sessionFields, STORED_DATA_VERSION, toStoredSessionData } from "../stored-session-data"
import { pgsSessionData } from "../session-data"

const SESSION = "payses_01JABCDEFGHJKMNPQRSTVWXYZ0"

/** A saved-card checkout's data as the provider holds it in memory. */
const inMemory: PgsSessionData = {
  session_id: SESSION,
  reference: SESSION,
  attempt: 1,
  terminal_id: "SBX-ALL-001",
  transaction_type: "AUTHORIZE",
  currency_code: "eur",
  amount_minor: 2550,
  integrity: "mac",
  integration: "direct_api",
  payment_method: { type: "saved_card", saved_card_id: "pm_1", brand: "VISA", last_4: "1000" },
  gateway_customer_id: "cus_1",
  customer_ip: null,
  browser_info: null,
  sealed: null,
  transaction_id: "tx_1",
  gateway_status: "APPROVED",
  error: null,
}

describe("the session data Medusa stores", () => {
  it("keeps what the storefront reads as keys of their own and the plugin's own fields in one string", () => {
    const stored = toStoredSessionData(inMemory)
    expect(Object.keys(stored).sort()).toEqual(["browser_info", "error", "gateway_status", INTERNAL_KEY, "integration", "sealed", "session_id", "transaction_id"].sort())
    expect(typeof stored[INTERNAL_KEY]).toBe("string")
    expect(JSON.parse(stored[INTERNAL_KEY] as string)).toMatchObject({ reference: SESSION, amount_minor: 2550, payment_method: { last_4: "1000" } })
  })

  it("reads back exactly what was stored, through the parse every provider method runs", () => {
    const stored = JSON.parse(JSON.stringify(toStoredSessionData(inMemory)))
    expect(parseSessionData(stored)).toEqual({ ...inMemory, data_version: STORED_DATA_VERSION })
    // Stored data handed back as it is (a write through Medusa) keeps its fields when stored again.
    expect(parseSessionData(toStoredSessionData(stored))).toEqual({ ...inMemory, data_version: STORED_DATA_VERSION })
  })

  it("reads a session an earlier version stored with public keys, and clears those copies on the next write", () => {
    const earlier = JSON.parse(JSON.stringify(inMemory)) as Record<string, unknown>
    const parsed = parseSessionData(earlier)
    expect(parsed).toEqual(inMemory)
    const written = toStoredSessionData({ ...parsed, gateway_status: "CANCELED" }, earlier)
    expect(written).toMatchObject({ reference: null, amount_minor: null, terminal_id: null, payment_method: null, gateway_status: "CANCELED" })
    // Only the copies that were there: customer_ip was already null, so it is not written again.
    expect(written).not.toHaveProperty("customer_ip")
    // Medusa merges the write into what it stored: the public copies are null, the internal ones are read.
    const merged = JSON.parse(JSON.stringify({ ...earlier, ...written }))
    expect(parseSessionData(merged)).toEqual({ ...inMemory, gateway_status: "CANCELED", data_version: STORED_DATA_VERSION })
    // Once cleared, later writes add no nulls; data that never had public copies gains none either.
    expect(Object.keys(toStoredSessionData(parseSessionData(merged), merged))).not.toContain("amount_minor")
    const fresh = toStoredSessionData(inMemory)
    expect(Object.keys(toStoredSessionData(parseSessionData(fresh), fresh))).not.toContain("amount_minor")
  })

  it("takes only its own fields from the internal string", () => {
    const stored = { ...toStoredSessionData(inMemory), [INTERNAL_KEY]: JSON.stringify({ ...inMemory, transaction_id: "tx_forged", ["__proto__"]: { polluted: true } }) }
    const read = readStoredSessionData(stored)
    expect(read.transaction_id).toBe("tx_1")
    expect(Object.getPrototypeOf(read)).toBe(Object.prototype)
  })

  it("prefers the internal copy to a stale public one a storefront or an earlier version left", () => {
    const stored = { ...toStoredSessionData(inMemory), amount_minor: 1 }
    expect(readStoredSessionData(stored).amount_minor).toBe(2550)
  })

  it("refuses an internal field that is not a JSON object, naming it, and readers that must not fail skip it", () => {
    for (const internal of ["{not json", "[1]", 42]) {
      const stored = { ...toStoredSessionData(inMemory), [INTERNAL_KEY]: internal }
      expect(() => parseSessionData(stored)).toThrow(SessionDataError)
      expect(() => parseSessionData(stored)).toThrow(/internal/)
      expect(sessionFields(stored)).toEqual({ session_id: SESSION, integration: "direct_api", browser_info: null, sealed: null, transaction_id: "tx_1", gateway_status: "APPROVED", error: null })
    }
  })

  describe("beside the next release (a rolling upgrade)", () => {
    /** What the next release might write: a field of its own inside `internal`, and one inside a capture record. */
    const fromNextRelease = () => {
      const stored = toStoredSessionData({ ...inMemory, captures: [{ key: "cap_1", transaction_id: "tx_c1", amount_minor: 100, kind: "applied", reason_code: "R1" }] } as PgsSessionData)
      const internal = JSON.parse(stored[INTERNAL_KEY] as string)
      return { ...stored, [INTERNAL_KEY]: JSON.stringify({ ...internal, data_version: STORED_DATA_VERSION + 1, wallet_hint: "w-1" }) }
    }

    it("reads data the next release wrote, and writes back its fields where that release keeps them", () => {
      const stored = fromNextRelease()
      const parsed = parseSessionData(stored)
      expect(parsed).toMatchObject({ reference: SESSION, wallet_hint: "w-1", captures: [{ key: "cap_1", reason_code: "R1" }] })
      const written = toStoredSessionData({ ...parsed, gateway_status: "CAPTURED" }, stored)
      expect(JSON.parse(written[INTERNAL_KEY] as string)).toMatchObject({ wallet_hint: "w-1", reference: SESSION })
      expect(written).not.toHaveProperty("wallet_hint")
      expect((written.captures as any[])[0]).toMatchObject({ reason_code: "R1" })
    })

    it("reads a field of `internal` that an earlier write left as a public key", () => {
      const stored = toStoredSessionData(inMemory)
      const internal = JSON.parse(stored[INTERNAL_KEY] as string)
      delete internal.gateway_customer_id
      expect(readStoredSessionData({ ...stored, [INTERNAL_KEY]: JSON.stringify(internal), gateway_customer_id: "cus_moved" }).gateway_customer_id).toBe("cus_moved")
    })

    it("refuses data two releases ahead by name, rather than reading it wrongly", () => {
      const stored = toStoredSessionData(inMemory)
      const internal = JSON.parse(stored[INTERNAL_KEY] as string)
      const ahead = { ...stored, [INTERNAL_KEY]: JSON.stringify({ ...internal, data_version: STORED_DATA_VERSION + 2 }) }
      expect(() => parseSessionData(ahead)).toThrow(/two or more ahead .*roll back one release at a time/)
      // Also where a reader forgives a damaged `internal`: the amounts and records without it would be wrong, not missing.
      expect(() => sessionFields(ahead)).toThrow(/two or more ahead/)
    })

    it("knows every key of the schema as either public or internal", () => {
      expect(new Set(Object.keys(pgsSessionData.shape))).toEqual(new Set([...PUBLIC_FIELDS, ...INTERNAL_FIELDS]))
    })
  })
})
