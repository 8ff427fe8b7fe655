/**
 * --state-dir: saves the sandbox's state after it changes. Changes close together are written once, at most
 * SAVE_DELAY_MS after the first; `stop()` (a graceful close) writes what is left. A kill -9 loses at most the
 * changes of that last interval.
 */
import type { SandboxContext } from "../core/context"
import { takeSnapshot } from "./snapshot"
import { writeStateFile } from "./state-file"

export const SAVE_DELAY_MS = 100

export class StatePersister {
  private timer: NodeJS.Timeout | null = null
  private lastWritten = ""
  private stopped = false
  private failing = false

  constructor(
    private readonly dir: string,
    private readonly ctx: SandboxContext,
  ) {}

  /** Something may have changed: save soon. */
  changed(): void {
    if (this.stopped || this.timer) return
    this.timer = setTimeout(() => this.flush(), SAVE_DELAY_MS)
    this.timer.unref()
  }

  /** Write now when the state differs from what the file holds. */
  flush(): void {
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
    const text = JSON.stringify(takeSnapshot(this.ctx))
    if (text === this.lastWritten) return
    try {
      writeStateFile(this.dir, text)
      this.lastWritten = text
      if (this.failing) console.error(`[sandbox] state saved in ${this.dir} again`)
      this.failing = false
    } catch (error) {
      // A full disk must not stop the gateway answering; say so once, try again at the next change.
      if (!this.failing) console.error(`[sandbox] could not save state in ${this.dir}: ${(error as Error).message}`)
      this.failing = true
    }
  }

  /** The last write, then no more (the context is about to be emptied by close). */
  stop(): void {
    this.flush()
    this.stopped = true
  }

  /** The file already holds this state (just loaded): no write until something changes. */
  loaded(): void {
    this.lastWritten = JSON.stringify(takeSnapshot(this.ctx))
  }
}
