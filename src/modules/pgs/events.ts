/** Our own event, emitted once per new verified webhook delivery; the subscriber processes it. */
export const PGS_WEBHOOK_RECEIVED = "pgs.webhook.received"
export type PgsWebhookReceivedData = { id: string }
