export * from "./table-names"
export * from "./terminal-setting"
export * from "./webhook-event"
export * from "./saved-card"
