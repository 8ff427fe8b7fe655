/**
 * The sandbox in its own process (the CLI), as a real gateway is elsewhere: its work does not run on the store's
 * event loop. The harness reads its settings from /_sandbox/config and signs webhooks with its key, kept in a
 * temporary --keys-dir the sandbox and this process both read.
 */
import fs from "node:fs"
import os from "node:os"
import path from "node:path"
import { request } from "undici"
import { SandboxHarness } from "../integration-tests/support/sandbox"
import { keysFromDir, loadKeys } from "../sandbox/core/keys"
import { FaultInjector } from "../sandbox/core/faults"
import { WebhookDispatcher } from "../sandbox/webhooks/dispatcher"
import type { RunningSandbox, SandboxConfigView } from "../sandbox"
import { startSandboxProcess } from "./support"

class ProcessSandboxHarness extends SandboxHarness {
  constructor(
    sandbox: RunningSandbox,
    private readonly signer: WebhookDispatcher,
  ) {
    super(sandbox)
  }
  override signWebhook(body: string): Promise<string> {
    return this.signer.sign(body)
  }
}

export async function startSandboxHarnessProcess(): Promise<SandboxHarness> {
  const keysDir = fs.mkdtempSync(path.join(os.tmpdir(), "pgs-bench-sandbox-"))
  const keys = loadKeys(keysFromDir(keysDir))
  // The same settings as the in-process harness where the CLI has them (webhook retries in milliseconds).
  const child = await startSandboxProcess(["--keys-dir", keysDir, "--webhook-time-scale", "0.001"])
  const config = (await (await request(`${child.url}/_sandbox/config`)).body.json()) as SandboxConfigView
  const running: RunningSandbox = {
    url: child.url,
    config,
    get context(): never {
      throw new Error("the sandbox runs in its own process: its context is not reachable from here")
    },
    close: async () => {
      const exited = new Promise((resolve) => child.child.once("exit", resolve))
      child.stop()
      await exited
      fs.rmSync(keysDir, { recursive: true, force: true })
    },
  }
  const signer = new WebhookDispatcher(keys.webhook, () => child.url, 1, new FaultInjector())
  return new ProcessSandboxHarness(running, signer)
}
