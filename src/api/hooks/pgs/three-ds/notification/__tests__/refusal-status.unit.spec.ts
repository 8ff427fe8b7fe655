import { MedusaError } from "@medusajs/framework/utils"
import { GATEWAY_UNAVAILABLE, GATEWAY_UNAVAILABLE_MESSAGE } from "../../../../../../payments/gateway-unavailable"
import { SealError } from "../../../../../../payments/seal"
import { refusalStatus } from "../refusal-status"

describe("the status of a refused 3-D Secure notification", () => {
  it("answers a 4xx for what the caller sent: an unknown session, a cres the session does not wait for, a malformed cres", () => {
    expect(refusalStatus(new MedusaError(MedusaError.Types.NOT_FOUND, "Payment session payses_1 was not found"))).toBe(404)
    expect(refusalStatus(new MedusaError(MedusaError.Types.CONFLICT, "not waiting for a challenge"))).toBe(409)
    expect(refusalStatus(new MedusaError(MedusaError.Types.INVALID_DATA, "cres is not a 3-D Secure challenge result"))).toBe(400)
  })

  it("answers 500 for the store's own failures (a database outage, a seal that does not open, a bug) and 503 for the gateway away", () => {
    expect(refusalStatus(new Error("connect ECONNREFUSED 127.0.0.1:5432"))).toBe(500)
    expect(refusalStatus(new SealError("the sealed data does not open with this store's key"))).toBe(500)
    expect(refusalStatus(new TypeError("Cannot read properties of undefined"))).toBe(500)
    expect(refusalStatus("not even an error")).toBe(500)
    expect(refusalStatus(new MedusaError(MedusaError.Types.DB_ERROR, "duplicate key"))).toBe(500)
    expect(refusalStatus(new MedusaError(MedusaError.Types.UNEXPECTED_STATE, "PGS authorize failed unexpectedly"))).toBe(500)
    expect(refusalStatus(new MedusaError(MedusaError.Types.NOT_ALLOWED, GATEWAY_UNAVAILABLE_MESSAGE, GATEWAY_UNAVAILABLE))).toBe(503)
  })
})
