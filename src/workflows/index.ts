export * from "./process-pgs-event"
export * from "./create-pgs-payout"
