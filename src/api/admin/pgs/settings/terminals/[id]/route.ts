/**
 * POST   /admin/pgs/settings/terminals/:id — change some fields: 200 { terminal }; 400 per field; 404.
 * DELETE /admin/pgs/settings/terminals/:id — { id, object, deleted: true }; 404.
 */
import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"
import { PGS_MODULE } from "../../../../../../modules/pgs"
import type PgsModuleService from "../../../../../../modules/pgs/service"
import { invalidData } from "../../../validate"
import { notificationUrlProblem, type UpdateTerminalBody } from "../../validators"
import { terminalView } from "../../view"
import { deleteTerminal, updateTerminal } from "../store"

async function existing(pgs: PgsModuleService, id: string) {
  const [row] = await pgs.listPgsTerminalSettings({ id }, { take: 1 })
  if (!row) throw new MedusaError(MedusaError.Types.NOT_FOUND, `Terminal setting ${id} was not found`)
  return row
}

export async function POST(req: AuthenticatedMedusaRequest<UpdateTerminalBody>, res: MedusaResponse) {
  const pgs = req.scope.resolve<PgsModuleService>(PGS_MODULE)
  const current = await existing(pgs, req.params.id)
  const patch = req.validatedBody
  // Checked on the result: switching a terminal away from Direct API while it keeps an override is refused too.
  const problem = notificationUrlProblem({ ...current, ...patch })
  if (problem) {
    res.status(400).json(invalidData([problem]))
    return
  }
  res.json({ terminal: terminalView(await updateTerminal(pgs, req.scope.resolve(ContainerRegistrationKeys.PG_CONNECTION), current, patch)) })
}

export async function DELETE(req: AuthenticatedMedusaRequest, res: MedusaResponse) {
  const pgs = req.scope.resolve<PgsModuleService>(PGS_MODULE)
  const current = await existing(pgs, req.params.id)
  await deleteTerminal(pgs, req.scope.resolve(ContainerRegistrationKeys.PG_CONNECTION), current)
  res.json({ id: current.id, object: "pgs_terminal_setting", deleted: true })
}
