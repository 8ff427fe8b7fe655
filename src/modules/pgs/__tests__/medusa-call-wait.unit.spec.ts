import { pgsOptionsFromEnv } from "../../../config"
import { parseOptions } from "../options"
import { COMPLETE_ENV as BASE } from "./complete-env"

const parsed = (env: Record<string, string>) => parseOptions(pgsOptionsFromEnv({ ...BASE, ...env }))

describe("option medusaCallWaitSeconds: how long a management webhook waits for Medusa's own call", () => {
  it("waits 58 s when unset, as before the option existed, whatever the manage timeout", () => {
    expect(parsed({}).medusaCallWaitSeconds).toBe(58)
    expect(parsed({ PGS_TIMEOUT_MANAGE_MS: "60000" }).medusaCallWaitSeconds).toBe(58)
  })

  it("reads PGS_MEDUSA_CALL_WAIT_SECONDS, so a store with a short manage timeout can wait less", () => {
    expect(parsed({ PGS_MEDUSA_CALL_WAIT_SECONDS: "8", PGS_TIMEOUT_MANAGE_MS: "4000" }).medusaCallWaitSeconds).toBe(8)
    expect(parsed({ PGS_MEDUSA_CALL_WAIT_SECONDS: "240" }).medusaCallWaitSeconds).toBe(240)
  })

  it("stops the store at boot, naming the variable, when the wait would end before a live call does", () => {
    // Against the default manage timeout (45 s), and one set shorter or longer.
    expect(() => parsed({ PGS_MEDUSA_CALL_WAIT_SECONDS: "30" })).toThrow(
      /- medusaCallWaitSeconds must be longer than the manage timeout \(45 s\): leave PGS_MEDUSA_CALL_WAIT_SECONDS unset \(58\)/,
    )
    expect(() => parsed({ PGS_MEDUSA_CALL_WAIT_SECONDS: "4", PGS_TIMEOUT_MANAGE_MS: "4000" })).toThrow(/medusaCallWaitSeconds must be longer than the manage timeout \(4 s\)/)
    expect(() => parsed({ PGS_MEDUSA_CALL_WAIT_SECONDS: "58", PGS_TIMEOUT_MANAGE_MS: "60000" })).toThrow(/medusaCallWaitSeconds must be longer than the manage timeout \(60 s\)/)
  })

  it("refuses a wait that is no number, not positive, or outlasts the 5 minutes after which reconciliation takes the row over", () => {
    expect(() => parsed({ PGS_MEDUSA_CALL_WAIT_SECONDS: "soon" })).toThrow(/- medusaCallWaitSeconds must be a number of seconds: leave PGS_MEDUSA_CALL_WAIT_SECONDS unset/)
    expect(() => parseOptions({ ...pgsOptionsFromEnv(BASE), medusaCallWaitSeconds: 0 })).toThrow(/medusaCallWaitSeconds must be more than 0 seconds/)
    expect(() => parsed({ PGS_MEDUSA_CALL_WAIT_SECONDS: "241" })).toThrow(/medusaCallWaitSeconds must be at most 240 seconds/)
  })
})
