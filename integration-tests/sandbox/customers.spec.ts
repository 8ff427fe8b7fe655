import { customerResponse } from "../../src/gateway/schemas"
import { startHarness, type SandboxHarness } from "../support/sandbox"
import { expectInvalid } from "./management-helpers"

describe("POST /api/customers", () => {
  let h: SandboxHarness
  beforeAll(async () => {
    h = await startHarness()
  })
  afterAll(() => h.close())

  it("creates a customer and flattens the address into top-level address, city, country, postal_code", async () => {
    const res = await h.api("POST", "/api/customers", {
      email: "ada@example.com",
      first_name: "Ada",
      last_name: "Lovelace",
      phone: "+38761123456",
      description: "VIP",
      type: "INDIVIDUAL",
      address: { country: "BA", address: "Ferhadija 1", city: "Sarajevo", postal_code: "71000", region: "FBiH" },
    })
    expect(res.status).toBe(200)
    expect(customerResponse.strict().parse(res.body)).toEqual({
      id: expect.stringMatching(/\S/),
      email: "ada@example.com",
      first_name: "Ada",
      last_name: "Lovelace",
      phone: "+38761123456",
      address: "Ferhadija 1",
      city: "Sarajevo",
      country: "BA",
      postal_code: "71000",
    })
  })

  it("creates a customer from an email alone, the other fields null", async () => {
    const res = await h.api("POST", "/api/customers", { email: "only@example.com" })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({
      id: expect.any(String),
      email: "only@example.com",
      first_name: null,
      last_name: null,
      phone: null,
      address: null,
      city: null,
      country: null,
      postal_code: null,
    })
  })

  it("creates a new customer on every call (ids differ for the same email)", async () => {
    const a = await h.api("POST", "/api/customers", { email: "twice@example.com" })
    const b = await h.api("POST", "/api/customers", { email: "twice@example.com" })
    expect(a.body.id).not.toBe(b.body.id)
  })

  it("refuses a customer without email", async () => {
    expectInvalid(await h.api("POST", "/api/customers", { first_name: "Ada" }), "email", ["email"])
  })

  it("refuses an email that is not a valid address", async () => {
    expectInvalid(await h.api("POST", "/api/customers", { email: "not-an-address" }), "email")
  })

  it("refuses an email longer than 512 characters", async () => {
    const email = `${"a".repeat(64)}@${Array.from({ length: 8 }, () => "b".repeat(60)).join(".")}.example.com`
    expect(email.length).toBeGreaterThan(512)
    expectInvalid(await h.api("POST", "/api/customers", { email }), "email", ["email", "512", String(email.length)])
  })

  it.each(["first_name", "last_name", "description"])("refuses a %s longer than 255 characters", async (field) => {
    const res = await h.api("POST", "/api/customers", { email: "long@example.com", [field]: "x".repeat(256) })
    expectInvalid(res, field, [field, "255", "256"])
  })

  it.each(["address", "city", "postal_code", "region"])("refuses an address.%s longer than 255 characters", async (part) => {
    const res = await h.api("POST", "/api/customers", { email: "long@example.com", address: { [part]: "x".repeat(256) } })
    expectInvalid(res, `address.${part}`, [part, "255", "256"])
  })

  it("accepts names and address parts of exactly 255 characters", async () => {
    const max = "x".repeat(255)
    const res = await h.api("POST", "/api/customers", { email: "max@example.com", first_name: max, address: { city: max } })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ first_name: max, city: max })
  })

  it("refuses an address country that is not 2 letters", async () => {
    expectInvalid(await h.api("POST", "/api/customers", { email: "c@example.com", address: { country: "BIH" } }), "address.country")
  })

  it("refuses a phone that is not E.164", async () => {
    expectInvalid(await h.api("POST", "/api/customers", { email: "p@example.com", phone: "061/123-456" }), "phone")
  })

  it("refuses a phone too short to be possible for its country code", async () => {
    expectInvalid(await h.api("POST", "/api/customers", { email: "p@example.com", phone: "+3871" }), "phone", ["phone"])
  })

  it("forbids a call whose Content-Type is not JSON with 403 and an empty body", async () => {
    const res = await h.raw("POST", "/api/customers", {
      body: "email=x@example.com",
      headers: { authorization: `Bearer ${await h.bearer()}`, "content-type": "application/x-www-form-urlencoded" },
    })
    expect(res.status).toBe(403)
    expect(res.text).toBe("")
  })

  it("answers 401 {error} without a bearer token", async () => {
    const res = await h.raw("POST", "/api/customers", { json: { email: "x@example.com" } })
    expect(res.status).toBe(401)
    expect(res.body).toEqual({ error: "Unauthorized" })
  })
})
