import { webhookReceiverFrom, WebhookReceiverOptionsError } from "../../options"

describe("the webhookReceiver option", () => {
  it("is off when not set", () => {
    expect(webhookReceiverFrom({})).toBeNull()
    expect(webhookReceiverFrom(undefined)).toBeNull()
  })

  it("takes a port and listens on every interface unless a host is given", () => {
    expect(webhookReceiverFrom({ webhookReceiver: { port: 9100 } })).toEqual({ port: 9100, host: "0.0.0.0" })
    expect(webhookReceiverFrom({ webhookReceiver: { port: 0, host: "127.0.0.1" } })).toEqual({ port: 0, host: "127.0.0.1" })
  })

  it.each([
    [{ port: Number("nine") }, "webhookReceiver.port"],
    [{ port: 70000 }, "webhookReceiver.port"],
    [{ port: "9100" }, "webhookReceiver.port must be a port number"],
    [{ port: 9100, host: "" }, "webhookReceiver.host"],
    [{ port: 9100, hots: "x" }, "hots"],
  ])("refuses %j, naming the field and the fix", (value, field) => {
    const read = () => webhookReceiverFrom({ webhookReceiver: value })
    expect(read).toThrow(WebhookReceiverOptionsError)
    expect(read).toThrow(field)
    expect(read).toThrow("PGS_WEBHOOK_RECEIVER_PORT")
  })
})
