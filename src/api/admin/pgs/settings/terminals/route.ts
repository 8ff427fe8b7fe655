/**
 * GET  /admin/pgs/settings/terminals — { terminals } oldest first (the order the providers break ties in).
 * POST /admin/pgs/settings/terminals — 201 { terminal }; 400 { errors: [{field, message}] }.
 * The providers read these rows at every new payment session, so a change applies at once, without a restart.
 */
import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { PGS_MODULE } from "../../../../../modules/pgs"
import type PgsModuleService from "../../../../../modules/pgs/service"
import { invalidData } from "../../validate"
import { notificationUrlProblem, type CreateTerminalBody } from "../validators"
import { terminalView } from "../view"
import { createTerminal } from "./store"

export async function GET(req: AuthenticatedMedusaRequest, res: MedusaResponse) {
  const pgs = req.scope.resolve<PgsModuleService>(PGS_MODULE)
  const terminals = await pgs.listPgsTerminalSettings({}, { order: { created_at: "ASC" } })
  res.json({ terminals: terminals.map(terminalView) })
}

export async function POST(req: AuthenticatedMedusaRequest<CreateTerminalBody>, res: MedusaResponse) {
  const body = req.validatedBody
  const problem = notificationUrlProblem(body)
  if (problem) {
    res.status(400).json(invalidData([problem]))
    return
  }
  const pgs = req.scope.resolve<PgsModuleService>(PGS_MODULE)
  res.status(201).json({ terminal: terminalView(await createTerminal(pgs, req.scope.resolve(ContainerRegistrationKeys.PG_CONNECTION), body)) })
}
