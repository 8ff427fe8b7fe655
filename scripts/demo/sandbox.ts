/**
 * The demo's gateway: its own sandbox, keeping its state (and keys and credentials) in .demo/sandbox-state so a
 * restarted demo still has the gateway's side of every payment its database remembers; or, with --sandbox-url, a
 * sandbox already running (e.g. `npx medusa-payment-pgs sandbox --state-dir DIR`), whose /_sandbox/config hands
 * out the credentials and public keys the store needs.
 */
import fs from "node:fs"
import path from "node:path"
import { startSandbox, type SandboxConfigView } from "../../sandbox"
import { keysFromDir } from "../../sandbox/core/keys"
import { credentialsFromDir } from "../../sandbox/core/credentials"

export type DemoGateway = {
  url: string
  config: SandboxConfigView
  /** Where it came from, for the progress line. */
  description: string
  stop(): Promise<void>
}

export const SANDBOX_STATE = "sandbox-state"

/** The demo's own sandbox on `port`, its state in DIR/sandbox-state (emptied first with `reset`). */
export async function startDemoSandbox(dir: string, opts: { port: number; reset: boolean; payoutSettleAfterMs: number }): Promise<DemoGateway> {
  const stateDir = path.join(dir, SANDBOX_STATE)
  if (opts.reset) fs.rmSync(stateDir, { recursive: true, force: true })
  const sandbox = await startSandbox({
    port: opts.port,
    webhookTimeScale: 0.05,
    fingerprintWaitMs: 1000,
    payoutSettleAfterMs: opts.payoutSettleAfterMs,
    stateDir,
    keys: keysFromDir(stateDir),
    ...credentialsFromDir(stateDir),
  })
  const kept = sandbox.context.store.transactions.size
  return {
    url: sandbox.url,
    config: sandbox.config,
    description: `${sandbox.url}, state in ${path.relative(process.cwd(), stateDir)} (${kept} transaction${kept === 1 ? "" : "s"} kept)`,
    stop: () => sandbox.close(),
  }
}

/** A sandbox already running at `url`: its config, or an error saying what to check. */
export async function connectToSandbox(url: string): Promise<DemoGateway> {
  let config: SandboxConfigView
  try {
    const res = await fetch(`${url}/_sandbox/config`)
    if (!res.ok) throw new Error(`it answered ${res.status}`)
    config = (await res.json()) as SandboxConfigView
  } catch (error) {
    throw new Error(`--sandbox-url ${url}: no sandbox answered at ${url}/_sandbox/config (${(error as Error).message}); start one with \`npx medusa-payment-pgs sandbox --state-dir DIR\``)
  }
  if (!config.client_id || !config.merchant_public_key)
    throw new Error(`--sandbox-url ${url}: ${url}/_sandbox/config is not a PGS sandbox's configuration`)
  return { url, config, description: `${url} (already running; the demo neither starts nor stops it)`, stop: async () => {} }
}

/**
 * Points the gateway's webhooks at `url` alone. A sandbox keeping its state (--state-dir, the demo's own) keeps every
 * URL ever registered, and each start has its own (free ports, --split's balancer): the list is replaced, not added to,
 * so no webhook goes on to a URL of an earlier run. The sandbox's DELETE clears every merchant's list.
 */
export async function pointWebhooksAt(gateway: Pick<DemoGateway, "url">, url: string): Promise<void> {
  const call = async (method: "DELETE" | "POST", body?: object) => {
    const res = await fetch(`${gateway.url}/_sandbox/webhooks`, { method, headers: { "content-type": "application/json" }, body: body && JSON.stringify(body) })
    if (!res.ok) throw new Error(`the sandbox at ${gateway.url} answered ${res.status} to ${method} /_sandbox/webhooks: ${await res.text()}`)
  }
  await call("DELETE")
  await call("POST", { url })
}
