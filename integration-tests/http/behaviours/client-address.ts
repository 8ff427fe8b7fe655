/**
 * The shopper's address behind one proxy (trustedProxies 1, PGS_TRUSTED_PROXIES=1): the address that proxy saw
 * (the last X-Forwarded-For entry) goes to the gateway; what the client wrote before it does not.
 * The store without a proxy is covered in behaviours/checkout-direct.ts (store-checkout.spec.ts).
 */
import { storeBody } from "../support/store"
import { customerIpRecordedFor } from "../support/checkout-direct"

/** The store option these tests need: the store-*.spec.ts that runs them boots with it. */
export const storeEnv = { PGS_TRUSTED_PROXIES: "1" }

export default storeBody(
  "the shopper's address behind one proxy",
  (s) => {
    it("sends the gateway the address the proxy in front of the store saw, not the ones the client wrote before it", async () => {
      expect(await customerIpRecordedFor(s, { "x-forwarded-for": "198.51.100.23, 203.0.113.9" })).toBe("203.0.113.9")
    })
  },
)
