/** The local PGS sandbox: `startSandbox({ port })` → `{ url, config, close() }`. */
export { startSandbox, type RunningSandbox } from "./server"
export { TEST_CARDS, TEST_CARD_SCENARIOS, type SandboxOptions, type TestCard } from "./core/config"
export type { SandboxConfigView } from "./controls"
export { storeEnvFor } from "./store-env"
