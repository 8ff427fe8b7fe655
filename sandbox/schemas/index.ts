/** The sandbox's own request and response schemas: its reading of the spec, independent of the client's (src/). */
export * from "./fields"
export * from "./payment-methods"
export * from "./authorize"
export * from "./requests"
export * from "./apm-requests"
export * from "./responses"
export * from "./webhooks"
export * from "./errors"
