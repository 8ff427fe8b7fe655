import { parseOptions } from "../options"
import { closeSharedGatewayClient, sharedGatewayClient } from "../gateway"

/** Complete options (nothing here calls the gateway). */
const raw = () => ({
  apiUrl: "http://localhost:1", authUrl: "http://localhost:1/auth", realm: "uat", clientId: "c", clientSecret: "s", clientKey: "k",
  defaultTerminalId: "SBX-ALL-001", storeUrl: "http://localhost:8000", backendUrl: "http://localhost:9000",
})

describe("one gateway client per options", () => {
  it("gives the providers and the module one client for equal options, even as separate objects", async () => {
    const first = sharedGatewayClient(parseOptions(raw()))
    expect(sharedGatewayClient(parseOptions(raw()))).toBe(first)
    await closeSharedGatewayClient(first)
  })

  it("gives other options (another merchant) a client of their own", async () => {
    const ours = sharedGatewayClient(parseOptions(raw()))
    const theirs = sharedGatewayClient(parseOptions({ ...raw(), clientId: "other" }))
    expect(theirs).not.toBe(ours)
    await Promise.all([closeSharedGatewayClient(ours), closeSharedGatewayClient(theirs)])
  })

  it("makes a fresh client after the shared one was closed at shutdown", async () => {
    const before = sharedGatewayClient(parseOptions(raw()))
    await closeSharedGatewayClient(before)
    const after = sharedGatewayClient(parseOptions(raw()))
    expect(after).not.toBe(before)
    await closeSharedGatewayClient(after)
  })
})
