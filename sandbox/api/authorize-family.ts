/**
 * What POST /api/transactions/authorize hands a method family (cards/, apm/), in a file of its own: the route
 * imports the families and the families import only this, so neither side imports the other.
 */
import type { z } from "zod"
import type { SandboxContext } from "../core/context"
import type { SandboxRequest } from "../core/http"
import type { Merchant, Terminal, TransactionRecord } from "../core/types"
import type { authorizeRequest, ExecutionResponse } from "../schemas"

export type AuthorizeBody = z.output<typeof authorizeRequest>

/** A method family: starts a new transaction, or answers again for one that already exists (same reference). */
export type AuthorizeFamily = {
  start(ctx: SandboxContext, input: { merchant: Merchant; terminal: Terminal; body: AuthorizeBody; req: SandboxRequest }): Promise<ExecutionResponse> | ExecutionResponse
  replay(ctx: SandboxContext, tx: TransactionRecord): ExecutionResponse
}

export const OPERATION = "POST /api/transactions/authorize"
