/**
 * The origin of the page that framed a session's 3-D Secure challenge, as this server knows it: the pay link's
 * page (our backend, PGS_BACKEND_URL) for a pay link's session, else the storefront (PGS_STORE_URL), where the
 * shopper returns to. Read from the options, never from the request: a caller cannot choose where the message goes.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { PGS_MODULE } from "../../../../../modules/pgs"
import { parseOptions } from "../../../../../modules/pgs/options"
import type PgsModuleService from "../../../../../modules/pgs/service"

export function parentOrigin(scope: MedusaContainer, sessionData: Record<string, unknown> | null): string {
  const options = parseOptions(scope.resolve<PgsModuleService>(PGS_MODULE).rawOptions)
  return new URL(sessionData?.return_to === "pay_link" ? options.backendUrl : options.storeUrl).origin
}
