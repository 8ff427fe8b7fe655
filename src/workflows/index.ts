export * from "./process-pgs-event"
